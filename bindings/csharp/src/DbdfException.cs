using System;
using System.IO;

namespace Dbdf
{
    /// <summary>
    /// A call into the dbdf library failed. Carries the <see cref="Status"/> and the library's message, which names
    /// what was wrong and where (field, block, byte offset, and for format violations the rule that was broken). The
    /// rule and the byte offset are also given as numbers, by <see cref="Rule"/> and <see cref="Offset"/>, so that no
    /// caller has to parse them out of the text.
    /// </summary>
    /// <remarks>
    /// <see cref="Exception.Message"/> is the status's name as the library spells it
    /// (<see cref="DbdfLibrary.StatusName"/>), a colon and the library's message, as in every binding:
    /// <c>"format: data type 9 is unknown (1 dense, 2 CSR, 3 frame) at byte 1 (spec layout)"</c>. The message is
    /// never cut, however long (a long label or path it quotes stays whole).
    /// <para>
    /// An <see cref="IOException"/>, as .NET reports failures to read a file, so code that already handles I/O
    /// failures handles dbdf's. A file to read that does not exist is reported as .NET's own
    /// <see cref="FileNotFoundException"/> instead, naming the path in <see cref="FileNotFoundException.FileName"/>,
    /// with this exception (status, message) as its <see cref="Exception.InnerException"/>; a file to write whose folder
    /// does not exist is reported as a <see cref="DirectoryNotFoundException"/> in the same way. Arguments the binding
    /// checks itself (a null, a short array) throw the usual <see cref="ArgumentException"/> types.
    /// </para>
    /// </remarks>
    public class DbdfException : IOException
    {
        /// <summary>The status; <see cref="Status.Unknown"/> for a code this binding does not know.</summary>
        public Status Status { get; private set; }

        /// <summary>The numeric dbdf_status_t as the library returned it.</summary>
        public int StatusCode { get; private set; }

        /// <summary>The library's message without the status prefix.</summary>
        public string NativeMessage { get; private set; }

        /// <summary>
        /// The number of the rule of the format rules (docs/format-rules.md: 1 partition, 2 bounds, ..., 16 labels) that
        /// the data broke, the rule the message names as "(rule N)"; given for the statuses
        /// <see cref="Dbdf.Status.Truncated"/>, <see cref="Dbdf.Status.Format"/> and <see cref="Dbdf.Status.Range"/>.
        /// Null when there is no such number: the input breaks the spec's published layout itself (the message says
        /// "(spec layout)") or the daphne dialect's, or the failure is of another kind (an argument, the call order,
        /// I/O, memory).
        /// </summary>
        public int? Rule { get; private set; }

        /// <summary>
        /// The byte offset, counted from the start of the input, at which the library found the fault: the offending
        /// field of a header, block header or payload, or where the input ended too early (the offset the message
        /// names as "at byte N"). Null when the failure has no place in the input (an argument, the call order,
        /// memory). A long, as <see cref="Violation.Offset"/> and stream positions are.
        /// </summary>
        public long? Offset { get; private set; }

        /// <summary>A failure with this status and message, naming no rule and no byte offset.</summary>
        public DbdfException(Status status, string nativeMessage)
            : this((int)status, nativeMessage, 0, ulong.MaxValue)
        {
        }

        /// <summary>
        /// Raised by the native glue with the raw dbdf_status_t value, the rule (0 for none) and the byte offset
        /// (DBDF_NO_OFFSET, ulong.MaxValue, for none).
        /// </summary>
        internal DbdfException(int statusCode, string nativeMessage, int rule, ulong offset)
            : this(statusCode, nativeMessage, rule, offset, null)
        {
        }

        /// <summary>As above, with the exception a stream callback threw as <see cref="Exception.InnerException"/> (or null).</summary>
        internal DbdfException(int statusCode, string nativeMessage, int rule, ulong offset, Exception inner)
            : base(Describe(statusCode, nativeMessage), inner)
        {
            Status = StatusExtensions.FromCode(statusCode);
            StatusCode = statusCode;
            NativeMessage = nativeMessage ?? string.Empty;
            Rule = rule == 0 ? (int?)null : rule;
            // An offset beyond long.MaxValue cannot come from a real input (its size is one): no offset, like the
            // library's DBDF_NO_OFFSET.
            Offset = offset > long.MaxValue ? (long?)null : (long)offset;
        }

        /// <summary>
        /// This failure to open <paramref name="path"/> for reading as a <see cref="FileNotFoundException"/> when it is an
        /// I/O failure and nothing exists at <paramref name="path"/>; otherwise this failure itself. The C library reports
        /// every failure to open as <see cref="Dbdf.Status.Io"/>; whether the file is missing is asked afterwards.
        /// </summary>
        internal Exception ForMissingFile(string path)
        {
            if (Status != Status.Io || File.Exists(path) || Directory.Exists(path))
            {
                return this;
            }
            return new FileNotFoundException(Message, path, this);
        }

        /// <summary>
        /// This failure to create the file at <paramref name="path"/> for writing as a
        /// <see cref="DirectoryNotFoundException"/> when it is an I/O failure and the folder that would hold the file
        /// does not exist (as <see cref="File.Create(string)"/> reports it); otherwise this failure itself. The writer
        /// creates its temporary file in that folder, so a missing folder is the one way a path to write can be missing.
        /// </summary>
        internal Exception ForMissingFolder(string path)
        {
            string folder;
            try
            {
                folder = Path.GetDirectoryName(Path.GetFullPath(path));
            }
            catch (Exception unusable) when (unusable is ArgumentException || unusable is NotSupportedException
                                             || unusable is PathTooLongException)
            {
                return this;
            }
            if (Status != Status.Io || string.IsNullOrEmpty(folder) || Directory.Exists(folder))
            {
                return this;
            }
            return new DirectoryNotFoundException(Message, this);
        }

        private static string Describe(int statusCode, string nativeMessage)
        {
            return StatusExtensions.FromCode(statusCode).LibraryName() + ": " + nativeMessage;
        }
    }
}
