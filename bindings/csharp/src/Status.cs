namespace Dbdf
{
    /// <summary>
    /// Status codes of the dbdf C interface (dbdf_status_t). Every error a call can report is one of these;
    /// <see cref="DbdfException.Status"/> tells which.
    /// </summary>
    public enum Status
    {
        Ok = 0,
        /// <summary>No more blocks; not an error (the binding reports it as <c>false</c> from NextBlock).</summary>
        EndOfBlocks = 1,
        /// <summary>A null argument, an unknown enum value, a position or shape out of range.</summary>
        InvalidArgument = -1,
        /// <summary>The handle is not in a state that allows this call (e.g. adding a block before Begin...).</summary>
        CallOrder = -2,
        /// <summary>A caller buffer cannot hold the output; nothing was written to it.</summary>
        BufferTooSmall = -3,
        /// <summary>Opening, mapping, writing, syncing or renaming a file failed.</summary>
        Io = -4,
        /// <summary>The input ends before a field or payload it announces.</summary>
        Truncated = -5,
        /// <summary>The input breaks the format or one of its rules (the message names it).</summary>
        Format = -6,
        /// <summary>A value is not exactly representable in the requested or declared type.</summary>
        Range = -7,
        /// <summary>Memory allocation failed.</summary>
        NoMemory = -8,
        /// <summary>A valid request that this build cannot serve.</summary>
        Unsupported = -9,
        /// <summary>A bug in dbdf; the message says where.</summary>
        Internal = -10,
        /// <summary>A write callback reported failure.</summary>
        Sink = -11,
        /// <summary>A code this version of the binding does not know (a newer native library).</summary>
        Unknown = int.MinValue
    }

    /// <summary>Groups of <see cref="Status"/> values.</summary>
    public static class StatusExtensions
    {
        /// <summary>True when the input data itself is bad: truncated, breaking the format, or a value out of range.</summary>
        public static bool IsInvalidData(this Status status)
        {
            return status == Status.Truncated || status == Status.Format || status == Status.Range;
        }

        /// <summary>True when the failure came from the environment: the file system or the output sink.</summary>
        public static bool IsIoError(this Status status)
        {
            return status == Status.Io || status == Status.Sink;
        }

        /// <summary>True when the caller used the API wrongly: bad argument, wrong call order, buffer too small.</summary>
        public static bool IsUsageError(this Status status)
        {
            return status == Status.InvalidArgument || status == Status.CallOrder || status == Status.BufferTooSmall;
        }

        /// <summary>
        /// The library's name of the status, as dbdf_status_name() spells it ("format", "invalid_argument",
        /// "nomem", "unknown" for <see cref="Status.Unknown"/>), which every binding puts before its error
        /// messages. Kept here rather than asked from the library: exceptions are made while a native call
        /// returns, where calling the library again would reset the failure being reported.
        /// </summary>
        internal static string LibraryName(this Status status)
        {
            switch (status)
            {
                case Status.Ok: return "ok";
                case Status.EndOfBlocks: return "end_of_blocks";
                case Status.InvalidArgument: return "invalid_argument";
                case Status.CallOrder: return "call_order";
                case Status.BufferTooSmall: return "buffer_too_small";
                case Status.Io: return "io";
                case Status.Truncated: return "truncated";
                case Status.Format: return "format";
                case Status.Range: return "range";
                case Status.NoMemory: return "nomem";
                case Status.Unsupported: return "unsupported";
                case Status.Internal: return "internal";
                case Status.Sink: return "sink";
                default: return "unknown";
            }
        }

        /// <summary>The status with this numeric code, or <see cref="Status.Unknown"/>.</summary>
        public static Status FromCode(int code)
        {
            return code >= -11 && code <= 1 ? (Status)code : Status.Unknown;
        }
    }
}
