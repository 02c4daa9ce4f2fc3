using System;

namespace Dbdf
{
    /// <summary>
    /// How a <see cref="Writer"/> is opened: the dialect it writes, whether a daphne file gets its <c>.meta</c>
    /// sidecar, whether <see cref="Writer.Finish"/> makes a file durable, and how many threads <c>WriteDense</c> uses.
    /// </summary>
    /// <example>
    /// <code>
    /// using (Writer writer = Writer.ToFile("m.dbdf", new WriterOptions { Durable = true, Threads = 1 }))
    /// {
    ///     writer.BeginMatrix(DataType.Dense, Dbdf.ValueType.F64, rows, cols);
    ///     writer.WriteDense(values);
    ///     writer.Finish();                        // returns once the file survives a power loss
    /// }
    /// </code>
    /// </example>
    /// <remarks>
    /// A writer takes a copy of the options when it is opened: changing them afterwards affects only writers opened
    /// later. <see cref="Writer.Dialect"/>, <see cref="Writer.Durable"/> and <see cref="Writer.Threads"/> say what a
    /// writer was opened with.
    /// </remarks>
    public sealed class WriterOptions
    {
        private int threads;

        public WriterOptions()
        {
            WriteMeta = true;
        }

        /// <summary>The layout to write; <see cref="Dbdf.Dialect.Spec"/> by default.</summary>
        public Dialect Dialect { get; set; }

        /// <summary>
        /// <see cref="Dbdf.Dialect.Daphne"/> file writers only: whether Finish() also writes the JSON sidecar
        /// <c>path + ".meta"</c> that DaphneDSL's <c>read</c> opens before a .dbdf file (true by default). Ignored in
        /// <see cref="Dbdf.Dialect.Spec"/> and by memory writers.
        /// </summary>
        public bool WriteMeta { get; set; }

        /// <summary>
        /// File writers only: whether Finish() syncs the file (and the .meta sidecar) to the disk before moving it over
        /// the target, and the directory after, so that the new file survives a system crash or power loss once
        /// Finish() returns; it costs a flush of the data to the disk. False (the default): the target is still
        /// replaced in one step (readers see the old file or the new one, never a part of it), but after a crash the
        /// new contents may be missing. Ignored by memory writers.
        /// </summary>
        public bool Durable { get; set; }

        /// <summary>
        /// Threads <c>WriteDense</c> uses, the calling thread included; the others are started for the call and
        /// joined before it returns. Every one of them analyses the values of the next block not yet taken (the
        /// calling thread whenever the next block to write is not analysed yet) while the calling thread encodes and
        /// writes the blocks in order. 0 (the default): automatic, one per processor core, at most four, for matrices
        /// of 16 MiB or more; one otherwise. 1: only the calling thread. More than max(64, the processor count) start
        /// only that many. The bytes written are the same whatever the count; other members always run on the calling
        /// thread.
        /// </summary>
        /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
        public int Threads
        {
            get { return threads; }
            set { threads = ReaderOptions.CheckThreads(value); }
        }

        internal WriterOptions Copy()
        {
            return (WriterOptions)MemberwiseClone();
        }

        public override string ToString()
        {
            return "WriterOptions { Dialect = " + Dialect + ", WriteMeta = " + WriteMeta + ", Durable = " + Durable
                + ", Threads = " + threads + " }";
        }
    }
}
