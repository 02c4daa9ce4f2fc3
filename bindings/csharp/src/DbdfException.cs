using System;

namespace Dbdf
{
    /// <summary>
    /// A call into the dbdf library failed. Carries the <see cref="Status"/> and the library's message, which names
    /// what was wrong and where (field, block, byte offset, and for format violations the rule that was broken).
    /// </summary>
    public class DbdfException : Exception
    {
        /// <summary>The status; <see cref="Status.Unknown"/> for a code this binding does not know.</summary>
        public Status Status { get; private set; }

        /// <summary>The numeric dbdf_status_t as the library returned it.</summary>
        public int StatusCode { get; private set; }

        /// <summary>The library's message without the status prefix.</summary>
        public string NativeMessage { get; private set; }

        public DbdfException(Status status, string nativeMessage)
            : this((int)status, nativeMessage)
        {
        }

        /// <summary>Raised by the native glue with the raw dbdf_status_t value.</summary>
        internal DbdfException(int statusCode, string nativeMessage)
            : base(Describe(statusCode, nativeMessage))
        {
            Status = StatusExtensions.FromCode(statusCode);
            StatusCode = statusCode;
            NativeMessage = nativeMessage ?? string.Empty;
        }

        private static string Describe(int statusCode, string nativeMessage)
        {
            Status status = StatusExtensions.FromCode(statusCode);
            string name = status == Status.Unknown ? "status " + statusCode : status.ToString();
            return name + ": " + nativeMessage;
        }
    }
}
