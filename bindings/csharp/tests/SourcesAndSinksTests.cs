using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace Dbdf.Tests
{
    /// <summary>
    /// Readers over a seekable Stream and writers to any writable Stream: round trips, every golden vector read
    /// through a stream that answers with short reads and through one that fails at each offset, and exceptions of
    /// streams recovered as the InnerException of the DbdfException.
    /// </summary>
    public sealed class SourcesAndSinksTests
    {
        /// <summary>
        /// A readable, seekable stream over bytes that answers at most <c>maxRead</c> bytes per Read and throws
        /// <c>failure</c> for any Read that reaches byte <c>failAt</c>.
        /// </summary>
        private sealed class ScriptedStream : Stream
        {
            private readonly byte[] bytes;
            private readonly int maxRead;
            private readonly long failAt;
            private readonly Exception failure;
            private long position;

            internal ScriptedStream(byte[] bytes, int maxRead, long failAt = long.MaxValue, Exception failure = null)
            {
                this.bytes = bytes;
                this.maxRead = maxRead;
                this.failAt = failAt;
                this.failure = failure;
            }

            internal int Reads { get; private set; }

            /// <summary>Set: every Read throws the failure.</summary>
            internal bool Broken { get; set; }

            public override bool CanRead { get { return true; } }
            public override bool CanSeek { get { return true; } }
            public override bool CanWrite { get { return false; } }
            public override long Length { get { return bytes.Length; } }

            public override long Position
            {
                get { return position; }
                set { position = value; }
            }

            public override int Read(byte[] buffer, int offset, int count)
            {
                Reads++;
                if (Broken || position + count > failAt)
                {
                    throw failure;
                }
                int available = (int)Math.Max(0, Math.Min(bytes.Length - position, Math.Min(count, maxRead)));
                Array.Copy(bytes, position, buffer, offset, available);
                position += available;
                return available;
            }

            public override long Seek(long offset, SeekOrigin origin)
            {
                position = origin == SeekOrigin.Begin ? offset : origin == SeekOrigin.Current ? position + offset
                    : bytes.Length + offset;
                return position;
            }

            public override void Flush()
            {
            }

            public override void SetLength(long value)
            {
                throw new NotSupportedException();
            }

            public override void Write(byte[] buffer, int offset, int count)
            {
                throw new NotSupportedException();
            }
        }

        /// <summary>A write-only, non-seekable stream that throws <c>failure</c> once more than <c>limit</c> bytes are written.</summary>
        private sealed class FailingSink : Stream
        {
            private readonly long limit;
            private readonly Exception failure;
            private long written;

            internal FailingSink(long limit, Exception failure)
            {
                this.limit = limit;
                this.failure = failure;
            }

            public override bool CanRead { get { return false; } }
            public override bool CanSeek { get { return false; } }
            public override bool CanWrite { get { return true; } }
            public override long Length { get { throw new NotSupportedException(); } }

            public override long Position
            {
                get { throw new NotSupportedException(); }
                set { throw new NotSupportedException(); }
            }

            public override void Write(byte[] buffer, int offset, int count)
            {
                if (written + count > limit)
                {
                    throw failure;
                }
                written += count;
            }

            public override void Flush()
            {
            }

            public override int Read(byte[] buffer, int offset, int count)
            {
                throw new NotSupportedException();
            }

            public override long Seek(long offset, SeekOrigin origin)
            {
                throw new NotSupportedException();
            }

            public override void SetLength(long value)
            {
                throw new NotSupportedException();
            }
        }

        /// <summary>A 7 x 5 matrix of distinct non-zero doubles, row-major.</summary>
        private static double[] MatrixValues()
        {
            return Enumerable.Range(0, 35).Select(index => index * 1.5 - 7.25).ToArray();
        }

        private static void WriteMatrix(Writer writer, double[] values, DataType dataType = DataType.Dense)
        {
            writer.BeginMatrix(dataType, ValueType.F64, 7, 5);
            writer.WriteDense(values, 0, dataType == DataType.Csr ? Encoding.Csr : Encoding.Auto, 3, 2);
            writer.Finish();
        }

        /// <summary>A 300 x 100 matrix: more than one read-ahead window, so payloads are fetched as they are decoded.</summary>
        private static double[] LargeMatrixValues()
        {
            return Enumerable.Range(0, 300 * 100).Select(index => index + 0.5).ToArray();
        }

        private static byte[] LargeMatrixInMemory(double[] values)
        {
            using (Writer writer = Writer.ToMemory())
            {
                writer.BeginMatrix(DataType.Dense, ValueType.F64, 300, 100);
                writer.WriteDense(values, 0, Encoding.Dense, 50, 50);
                writer.Finish();
                return writer.ToArray();
            }
        }

        private static byte[] MatrixInMemory(double[] values)
        {
            using (Writer writer = Writer.ToMemory())
            {
                WriteMatrix(writer, values);
                return writer.ToArray();
            }
        }

        [Test]
        public void StreamsRoundTrip()
        {
            double[] values = MatrixValues();
            MemoryStream output = new MemoryStream();
            using (Writer writer = Writer.ToStream(output))
            {
                WriteMatrix(writer, values);
            }
            byte[] written = output.ToArray();
            Assert.ArrayEqual(MatrixInMemory(values), written, "the stream receives exactly the memory writer's bytes");

            ScriptedStream source = new ScriptedStream(written, int.MaxValue);
            using (Reader reader = Reader.FromStream(source))
            {
                Assert.Equal((long)written.Length, reader.Info.TotalBytes);
                double[] read = new double[35];
                reader.ReadDense(read);
                Assert.ArrayEqual(values, read);
                reader.Validate();
            }
            Assert.True(source.Reads > 0, "the reader read through the stream");
        }

        [Test]
        public void FileStreamsRoundTripAsCsr()
        {
            double[] values = MatrixValues();
            string path = Path.Combine(Path.GetTempPath(), "dbdf-streams-" + Guid.NewGuid().ToString("N") + ".dbdf");
            try
            {
                using (FileStream file = new FileStream(path, FileMode.CreateNew, FileAccess.Write))
                using (Writer writer = Writer.ToStream(file))
                {
                    WriteMatrix(writer, values, DataType.Csr);
                }
                using (FileStream file = new FileStream(path, FileMode.Open, FileAccess.Read))
                using (Reader reader = Reader.FromStream(file))
                {
                    Assert.Equal(DataType.Csr, reader.Info.DataType);
                    Assert.ArrayEqual(values, reader.ReadDoubles());
                }
                using (Reader reader = Reader.Open(path))
                {
                    Assert.ArrayEqual(values, reader.ReadDoubles(), "a file written through a stream reads as a file");
                }
            }
            finally
            {
                File.Delete(path);
            }
        }

        /// <summary>What a reader reports about its object, in a form two readers of the same bytes must agree on.</summary>
        private static List<string> Describe(Reader reader)
        {
            List<string> lines = new List<string>();
            ObjectInfo info = reader.Info;
            lines.Add(info.ToString());
            if (info.DataType == DataType.Frame)
            {
                for (long column = 0; column < info.Cols; column++)
                {
                    lines.Add(reader.ColumnType(column) + " " + reader.ColumnLabel(column));
                }
            }
            foreach (Block block in reader.Blocks())
            {
                lines.Add(block.Info + " " + BitConverter.ToString(block.PayloadToArray()));
            }
            if (info.DataType != DataType.Frame)
            {
                try
                {
                    lines.Add(string.Join(",", reader.ReadDoubles().Select(value => BitConverter.DoubleToInt64Bits(value))));
                }
                catch (DbdfException error)
                {
                    lines.Add("ReadDoubles: " + error.Status); // values a double cannot hold exactly
                }
            }
            lines.Add("blocks " + reader.BuildIndex());
            lines.AddRange(reader.Violations().Select(violation => violation.ToString()));
            return lines;
        }

        private static string[] ValidVectors()
        {
            string[] files = Directory.GetFiles(GoldenVectorsTests.VectorsDirectory, "*.dbdf").OrderBy(file => file)
                .ToArray();
            Assert.True(files.Length >= 30, "golden vectors found in " + GoldenVectorsTests.VectorsDirectory);
            return files;
        }

        [TestCases]
        public IEnumerable<TestCase> GoldenVectorsReadThroughShortReads()
        {
            return ValidVectors().Select(file => new TestCase(Path.GetFileName(file), () =>
            {
                byte[] bytes = File.ReadAllBytes(file);
                List<string> expected;
                using (Reader reader = Reader.FromBytes(bytes))
                {
                    expected = Describe(reader);
                }
                foreach (int maxRead in new[] { 1, 3, 64 })
                {
                    using (Reader reader = Reader.FromStream(new ScriptedStream(bytes, maxRead)))
                    {
                        Assert.SequenceEqual(expected, Describe(reader), "reads of at most " + maxRead + " bytes");
                    }
                }
            }));
        }

        [TestCases]
        public IEnumerable<TestCase> GoldenVectorsFailingAtEveryOffset()
        {
            return ValidVectors().Select(file => new TestCase(Path.GetFileName(file), () =>
            {
                byte[] bytes = File.ReadAllBytes(file);
                for (int failAt = 0; failAt < bytes.Length; failAt++)
                {
                    IOException failure = new IOException("injected at byte " + failAt);
                    DbdfException error = Assert.Throws<DbdfException>(() =>
                    {
                        using (Reader reader = Reader.FromStream(new ScriptedStream(bytes, 1 << 20, failAt, failure)))
                        {
                            Describe(reader);
                        }
                    }, "reading must fail when byte " + failAt + " cannot be read");
                    Assert.Equal(Status.Io, error.Status, error.Message);
                    Assert.True(ReferenceEquals(failure, error.InnerException), "the stream's own exception is the inner one");
                    Assert.True(error.Message.Contains("injected at byte " + failAt), error.Message);
                }
            }));
        }

        [Test]
        public void StreamExceptionsOfEveryKindAreRecovered()
        {
            byte[] bytes = MatrixInMemory(MatrixValues());
            InvalidOperationException refused = new InvalidOperationException("connection reset");
            DbdfException error = Assert.Throws<DbdfException>(
                () => Reader.FromStream(new ScriptedStream(bytes, 1 << 20, 0, refused)));
            Assert.True(ReferenceEquals(refused, error.InnerException), "the original exception is the inner one");
            Assert.True(error.Message.Contains("connection reset"), error.Message);

            // A stream that breaks after the reader opened (payloads beyond the first read-ahead window are fetched
            // later): the later call fails with the inner exception, and the reader still disposes cleanly.
            byte[] largeBytes = LargeMatrixInMemory(LargeMatrixValues());
            IOException late = new IOException("late failure");
            ScriptedStream breaking = new ScriptedStream(largeBytes, 1 << 20, long.MaxValue, late);
            using (Reader reader = Reader.FromStream(breaking))
            {
                breaking.Broken = true;
                DbdfException readError = Assert.Throws<DbdfException>(() => reader.ReadDoubles());
                Assert.Equal(Status.Io, readError.Status, readError.Message);
                Assert.True(ReferenceEquals(late, readError.InnerException), "the late failure is the inner one");
            }

            // A later failure of another kind on the same thread carries no stale inner exception.
            using (Reader reader = Reader.FromStream(new ScriptedStream(bytes, 7)))
            {
                DbdfException other = Assert.Throws<DbdfException>(() => reader.SeekBlock(1000));
                Assert.True(other.InnerException == null, "no inner exception: " + other.InnerException);
            }
        }

        [Test]
        public void SinkExceptionsAreRecoveredAsTheInnerException()
        {
            IOException full = new IOException("disk full");
            using (Writer writer = Writer.ToStream(new FailingSink(40, full)))
            {
                DbdfException error = Assert.Throws<DbdfException>(() => WriteMatrix(writer, MatrixValues()));
                Assert.Equal(Status.Sink, error.Status, error.Message);
                Assert.True(ReferenceEquals(full, error.InnerException), "the sink's own exception is the inner one");
                Assert.True(error.Message.Contains("disk full"), error.Message);
            }
        }

        private static void ReadAndDispose(byte[] bytes, long failAt)
        {
            ScriptedStream stream = new ScriptedStream(bytes, 1 << 20, failAt, new IOException("injected"));
            try
            {
                using (Reader reader = Reader.FromStream(stream))
                {
                    reader.ReadDoubles();
                }
            }
            catch (DbdfException expected)
            {
                Assert.True(expected.InnerException is IOException, "failed through the stream: " + expected);
            }
        }

        private static void WriteAndDispose(bool finish)
        {
            using (Writer writer = Writer.ToStream(new MemoryStream()))
            {
                writer.BeginMatrix(DataType.Dense, ValueType.F64, 7, 5);
                if (finish)
                {
                    writer.WriteDense(MatrixValues(), 0, Encoding.Auto, 3, 2);
                    writer.Finish();
                }
            }
        }

        [Test]
        public void StreamsAreReleasedWithTheirReaderOrWriter()
        {
            // The native side holds a GCHandle of each stream's adapter: disposing (or failing to open) must free it
            // at once, or the stream would stay reachable for ever.
            byte[] bytes = MatrixInMemory(MatrixValues());
            int before = Dbdf.Internal.StreamCallbacks.LiveContexts;
            ReadAndDispose(bytes, long.MaxValue);
            Assert.Equal(before, Dbdf.Internal.StreamCallbacks.LiveContexts, "a stream read to the end and disposed");
            ReadAndDispose(bytes, 0);
            Assert.Equal(before, Dbdf.Internal.StreamCallbacks.LiveContexts, "a stream whose reader failed to open");
            ReadAndDispose(bytes, bytes.Length / 2);
            Assert.Equal(before, Dbdf.Internal.StreamCallbacks.LiveContexts, "a stream that failed after opening");
            WriteAndDispose(true);
            Assert.Equal(before, Dbdf.Internal.StreamCallbacks.LiveContexts, "a stream of a finished writer");
            WriteAndDispose(false);
            Assert.Equal(before, Dbdf.Internal.StreamCallbacks.LiveContexts, "a stream of an abandoned writer");
            using (Reader reader = Reader.FromStream(new ScriptedStream(bytes, 1 << 20)))
            {
                Assert.Equal(before + 1, Dbdf.Internal.StreamCallbacks.LiveContexts, "an open reader holds its stream");
            }
            Assert.Equal(before, Dbdf.Internal.StreamCallbacks.LiveContexts, "and lets it go when disposed");
        }

        /// <summary>Records the threads it is read on.</summary>
        private sealed class ThreadRecordingStream : MemoryStream
        {
            internal readonly List<int> Threads = new List<int>();

            internal ThreadRecordingStream(byte[] bytes) : base(bytes, false)
            {
            }

            public override int Read(byte[] buffer, int offset, int count)
            {
                lock (Threads)
                {
                    Threads.Add(System.Threading.Thread.CurrentThread.ManagedThreadId);
                }
                return base.Read(buffer, offset, count);
            }
        }

        [Test]
        public void CallbacksRunOnTheCallingThreadOnlyAlsoWithDecodingThreads()
        {
            double[] values = LargeMatrixValues();
            ThreadRecordingStream stream = new ThreadRecordingStream(LargeMatrixInMemory(values));
            using (Reader reader = Reader.FromStream(stream, new ReaderOptions { Threads = 4 }))
            {
                Assert.ArrayEqual(values, reader.ReadDoubles());
            }
            int caller = System.Threading.Thread.CurrentThread.ManagedThreadId;
            Assert.True(stream.Threads.Count > 1, "the stream was read more than once");
            Assert.True(stream.Threads.All(thread => thread == caller), "read on the calling thread only");
        }

        [Test]
        public void ALargerReadAheadWindowMeansFewerReads()
        {
            double[] values = LargeMatrixValues();
            byte[] bytes = LargeMatrixInMemory(values);
            ScriptedStream smallWindow = new ScriptedStream(bytes, int.MaxValue);
            using (Reader reader = Reader.FromStream(smallWindow, new ReaderOptions(), 4096))
            {
                Assert.ArrayEqual(values, reader.ReadDoubles());
            }
            ScriptedStream wholeWindow = new ScriptedStream(bytes, int.MaxValue);
            using (Reader reader = Reader.FromStream(wholeWindow, new ReaderOptions(), 1 << 20))
            {
                Assert.ArrayEqual(values, reader.ReadDoubles());
            }
            Assert.True(wholeWindow.Reads < smallWindow.Reads,
                wholeWindow.Reads + " reads with a 1 MiB window, " + smallWindow.Reads + " with 4 KiB");
            Assert.Throws<ArgumentOutOfRangeException>(() => Reader.FromStream(wholeWindow, new ReaderOptions(), -1));
            DbdfException tooLarge = Assert.Throws<DbdfException>(
                () => Reader.FromStream(wholeWindow, new ReaderOptions(), 1L << 40));
            Assert.Equal(Status.InvalidArgument, tooLarge.Status, tooLarge.Message);
        }

        [Test]
        public void BadArgumentsAreRefused()
        {
            Assert.Throws<ArgumentNullException>(() => Reader.FromStream(null));
            Assert.Throws<ArgumentNullException>(() => Writer.ToStream(null));
            Assert.Throws<ArgumentException>(() => Reader.FromStream(new FailingSink(0, new IOException())));
            Assert.Throws<ArgumentException>(() => Writer.ToStream(new ScriptedStream(new byte[0], 1)));
            DbdfException empty = Assert.Throws<DbdfException>(
                () => Reader.FromStream(new ScriptedStream(new byte[0], 1)));
            Assert.True(empty.Message.Length > 0, "an empty stream is refused with a message");
        }
    }
}
