using System;

namespace Dbdf
{
    /// <summary>
    /// How a <see cref="Reader"/> is opened: the dialect of its input, and how many threads the whole-object reads
    /// (<c>ReadDense</c>, <c>ReadWindow</c>, <c>ReadColumn</c> and the <c>Read*s()</c> shortcuts) decode on.
    /// </summary>
    /// <example>
    /// <code>
    /// var options = new ReaderOptions { Dialect = Dialect.Daphne, Threads = 4 };
    /// using (Reader reader = Reader.Open("m.dbdf", options))
    /// {
    ///     double[] values = reader.ReadDoubles();   // decoded on up to 4 threads, the calling one included
    /// }
    /// </code>
    /// </example>
    /// <remarks>
    /// A reader takes a copy of the options when it is opened: changing them afterwards affects only readers opened
    /// later. <see cref="Reader.Dialect"/> and <see cref="Reader.Threads"/> say what a reader was opened with.
    /// </remarks>
    public sealed class ReaderOptions
    {
        private int threads;

        /// <summary>The layout of the input; <see cref="Dbdf.Dialect.Spec"/> by default.</summary>
        public Dialect Dialect { get; set; }

        /// <summary>
        /// Threads the whole-object reads decode on, the calling thread included; they are started for each such call
        /// and joined before it returns. 0 (the default): automatic, one per processor core for reads of 16 MiB or
        /// more and only the calling thread for smaller ones. 1: only the calling thread. More than max(64, the
        /// processor count) start only that many. The values read are the same whatever the count. Block-by-block
        /// decoding always runs on the calling thread alone.
        /// </summary>
        /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
        public int Threads
        {
            get { return threads; }
            set { threads = CheckThreads(value); }
        }

        /// <summary>
        /// A thread count of the reader or writer options: 0 means automatic, so only negative counts are wrong.
        /// </summary>
        internal static int CheckThreads(int value)
        {
            if (value < 0)
            {
                throw new ArgumentOutOfRangeException("Threads", value,
                    "Threads must be 0 (automatic), 1 (the calling thread only) or more, not " + value);
            }
            return value;
        }

        internal ReaderOptions Copy()
        {
            return (ReaderOptions)MemberwiseClone();
        }

        public override string ToString()
        {
            return "ReaderOptions { Dialect = " + Dialect + ", Threads = " + threads + " }";
        }
    }
}
