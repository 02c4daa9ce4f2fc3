using System;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;

namespace Dbdf.Tests
{
    /// <summary>
    /// ReaderOptions and WriterOptions: the thread counts change how the work is spread, never the bytes written or
    /// the values read; a durable file write gives the same file as a default one and leaves nothing else behind.
    /// </summary>
    public sealed class OptionsTests : IDisposable
    {
        /// <summary>16 MiB of f64: as large as the automatic thread choice needs to decode on several threads.</summary>
        private const int Rows = 2048;
        private const int Cols = 1024;
        private const int Tile = 128;

        private static readonly Lazy<double[]> LazyMatrix = new Lazy<double[]>(TiledMatrix);
        /// <summary>The matrix written to memory on the calling thread only: what every other way of writing must match.</summary>
        private static readonly Lazy<byte[]> LazyOneThreadBytes =
            new Lazy<byte[]>(() => WriteToMemory(new WriterOptions { Threads = 1 }));

        private readonly TemporaryDirectory temporary = new TemporaryDirectory();

        public void Dispose()
        {
            temporary.Dispose();
        }

        private static double[] Matrix
        {
            get { return LazyMatrix.Value; }
        }

        private static byte[] OneThreadBytes
        {
            get { return LazyOneThreadBytes.Value; }
        }

        /// <summary>
        /// Tiles of four kinds in turn, so that the automatic encoding picks several block types and value types: all
        /// zero (empty), a diagonal (sparse), small integers (narrowed to i8), and fractions (dense f64).
        /// </summary>
        private static double[] TiledMatrix()
        {
            double[] values = new double[Rows * Cols];
            int tilesPerRow = Cols / Tile;
            for (int row = 0; row < Rows; row++)
            {
                for (int col = 0; col < Cols; col++)
                {
                    int tile = (row / Tile) * tilesPerRow + col / Tile;
                    double value;
                    switch (tile % 4)
                    {
                        case 0:
                            value = 0.0;
                            break;
                        case 1:
                            value = row % Tile == col % Tile ? row + 0.25 : 0.0;
                            break;
                        case 2:
                            value = (row * 7 + col * 3) % 100 - 50;
                            break;
                        default:
                            value = row * 0.001 + col / 3.0;
                            break;
                    }
                    values[row * Cols + col] = value;
                }
            }
            return values;
        }

        private static void WriteMatrix(Writer writer)
        {
            writer.BeginMatrix(DataType.Dense, ValueType.F64, Rows, Cols);
            writer.WriteDense(Matrix, blockRows: Tile, blockCols: Tile);
            writer.Finish();
        }

        private static byte[] WriteToMemory(WriterOptions options)
        {
            using (Writer writer = Writer.ToMemory(options))
            {
                Assert.Equal(options.Threads, writer.Threads);
                WriteMatrix(writer);
                return writer.ToArray();
            }
        }

        private static string[] NamesIn(string directory)
        {
            return Directory.GetFileSystemEntries(directory).Select(entry => Path.GetFileName(entry))
                .OrderBy(name => name, StringComparer.Ordinal).ToArray();
        }

        [Test]
        public void DefaultsAreTheCInterfaces()
        {
            ReaderOptions reader = new ReaderOptions();
            Assert.Equal(Dialect.Spec, reader.Dialect);
            Assert.Equal(0, reader.Threads);
            WriterOptions writer = new WriterOptions();
            Assert.Equal(Dialect.Spec, writer.Dialect);
            Assert.True(writer.WriteMeta, "WriteMeta");
            Assert.False(writer.Durable, "Durable");
            Assert.Equal(0, writer.Threads);
            Assert.Equal("ReaderOptions { Dialect = Daphne, Threads = 3 }",
                new ReaderOptions { Dialect = Dialect.Daphne, Threads = 3 }.ToString());
            Assert.Equal("WriterOptions { Dialect = Spec, WriteMeta = False, Durable = True, Threads = 2 }",
                new WriterOptions { WriteMeta = false, Durable = true, Threads = 2 }.ToString());
        }

        [Test]
        public void NegativeThreadCountsAreRefused()
        {
            foreach (int threads in new[] { -1, -2, int.MinValue })
            {
                ReaderOptions reader = new ReaderOptions { Threads = 2 };
                ArgumentOutOfRangeException reading =
                    Assert.Throws<ArgumentOutOfRangeException>(() => reader.Threads = threads);
                Assert.Equal("Threads", reading.ParamName);
                Assert.Equal((object)threads, reading.ActualValue);
                Assert.True(reading.Message.StartsWith(
                        "Threads must be 0 (automatic), 1 (the calling thread only) or more, not " + threads),
                    reading.Message);
                Assert.Equal(2, reader.Threads, "a refused value leaves the options unchanged");

                WriterOptions writer = new WriterOptions();
                ArgumentOutOfRangeException writing =
                    Assert.Throws<ArgumentOutOfRangeException>(() => writer.Threads = threads);
                Assert.Equal(reading.Message, writing.Message);
                Assert.Equal(0, writer.Threads);
            }
            Assert.Equal(int.MaxValue, new ReaderOptions { Threads = int.MaxValue }.Threads);
            Assert.Throws<ArgumentNullException>(() => Reader.FromBytes(OneThreadBytes, (ReaderOptions)null));
            Assert.Throws<ArgumentNullException>(() => Writer.ToMemory((WriterOptions)null));
            Assert.Throws<ArgumentNullException>(() => Writer.ToFile(temporary.File("m.dbdf"), (WriterOptions)null));
        }

        [Test]
        public void WriteDenseWritesTheSameBytesOnAnyThreadCount()
        {
            // The tiles really took different encodings, so the helper thread had choices to make.
            BlockType[] blockTypes;
            ValueType[] valueTypes;
            using (Reader reader = Reader.FromBytes(OneThreadBytes))
            {
                BlockInfo[] blocks = reader.Blocks().Select(block => block.Info).ToArray();
                blockTypes = blocks.Select(info => info.BlockType).Distinct().ToArray();
                valueTypes = blocks.Select(info => info.ValueType).Distinct().ToArray();
            }
            Assert.True(blockTypes.Contains(BlockType.Empty) && blockTypes.Contains(BlockType.Dense)
                && blockTypes.Length >= 3, string.Join(", ", blockTypes));
            Assert.True(valueTypes.Contains(ValueType.I8) && valueTypes.Contains(ValueType.F64),
                string.Join(", ", valueTypes));

            foreach (int threads in new[] { 2, 0, 5 })
            {
                Assert.ArrayEqual(OneThreadBytes, WriteToMemory(new WriterOptions { Threads = threads }),
                    "threads " + threads);
            }
            string file = temporary.File("m.dbdf");
            using (Writer writer = Writer.ToFile(file, new WriterOptions { Threads = 2 }))
            {
                Assert.Equal(2, writer.Threads);
                WriteMatrix(writer);
            }
            Assert.ArrayEqual(OneThreadBytes, File.ReadAllBytes(file));
        }

        [Test]
        public void WholeObjectReadsGiveTheSameValuesOnAnyThreadCount()
        {
            string file = temporary.File("m.dbdf");
            File.WriteAllBytes(file, OneThreadBytes);
            // A window that cuts through tiles on every side.
            const int windowRow = 100, windowCol = 200, windowRows = 1500, windowCols = 700;
            double[] expectedWindow = new double[windowRows * windowCols];
            for (int row = 0; row < windowRows; row++)
            {
                Array.Copy(Matrix, (windowRow + row) * Cols + windowCol, expectedWindow, row * windowCols, windowCols);
            }
            foreach (int threads in new[] { 1, 2, 0, 7 })
            {
                ReaderOptions options = new ReaderOptions { Threads = threads };
                using (Reader reader = Reader.Open(file, options))
                {
                    Assert.Equal(threads, reader.Threads);
                    Assert.Equal(Dialect.Spec, reader.Dialect);
                    Assert.ArrayEqual(Matrix, reader.ReadDoubles(), "threads " + threads);
                    double[] window = new double[windowRows * windowCols];
                    reader.ReadWindow(windowRow, windowCol, windowRows, windowCols, window);
                    Assert.ArrayEqual(expectedWindow, window, "window, threads " + threads);
                }
                IntPtr memory = Marshal.AllocHGlobal(OneThreadBytes.Length);
                try
                {
                    Marshal.Copy(OneThreadBytes, 0, memory, OneThreadBytes.Length);
                    using (Reader reader = Reader.FromMemory(memory, OneThreadBytes.Length, options))
                    {
                        Assert.Equal(threads, reader.Threads);
                        Assert.ArrayEqual(Matrix, reader.ReadDoubles(), "memory, threads " + threads);
                    }
                }
                finally
                {
                    Marshal.FreeHGlobal(memory);
                }
            }
        }

        [Test]
        public void ReadColumnGivesTheSameValuesOnAnyThreadCount()
        {
            const int rows = 100000;
            long[] ids = new long[rows];
            double[] weights = new double[rows];
            for (int row = 0; row < rows; row++)
            {
                ids[row] = row * 3L - 7;
                weights[row] = row % 5 == 0 ? 0.0 : row / 8.0;
            }
            byte[] frame;
            using (Writer writer = Writer.ToMemory(new WriterOptions { Threads = 2 }))
            {
                writer.BeginFrame(rows, new[] { ValueType.I64, ValueType.F64 }, new[] { "id", "weight" });
                writer.WriteColumn(0, ids, blockRows: 4096);
                writer.WriteColumn(1, weights, blockRows: 4096);
                writer.Finish();
                frame = writer.ToArray();
            }
            foreach (int threads in new[] { 1, 2, 0 })
            {
                using (Reader reader = Reader.FromBytes(frame, new ReaderOptions { Threads = threads }))
                {
                    long[] readIds = new long[rows];
                    reader.ReadColumn(0, readIds);
                    Assert.ArrayEqual(ids, readIds, "threads " + threads);
                    double[] readWeights = new double[rows];
                    reader.ReadColumn(1, readWeights);
                    Assert.ArrayEqual(weights, readWeights, "threads " + threads);
                }
            }
        }

        [Test]
        public void DurableWriteGivesTheSameFileAndLeavesNothingBehind()
        {
            string plainDirectory = Directory.CreateDirectory(temporary.File("plain")).FullName;
            string durableDirectory = Directory.CreateDirectory(temporary.File("durable")).FullName;
            using (Writer writer = Writer.ToFile(Path.Combine(plainDirectory, "m.dbdf"), new WriterOptions()))
            {
                Assert.False(writer.Durable, "Durable");
                WriteMatrix(writer);
            }
            using (Writer writer = Writer.ToFile(Path.Combine(durableDirectory, "m.dbdf"),
                       new WriterOptions { Durable = true }))
            {
                Assert.True(writer.Durable, "Durable");
                WriteMatrix(writer);
            }
            Assert.ArrayEqual(OneThreadBytes, File.ReadAllBytes(Path.Combine(plainDirectory, "m.dbdf")));
            Assert.ArrayEqual(OneThreadBytes, File.ReadAllBytes(Path.Combine(durableDirectory, "m.dbdf")));
            Assert.ArrayEqual(new[] { "m.dbdf" }, NamesIn(plainDirectory));
            Assert.ArrayEqual(new[] { "m.dbdf" }, NamesIn(durableDirectory));

            // Replacing an existing file, durably and not: the new contents, and still no temporary file.
            double[] small = { 1.5, -2.0, 3.25, 0.0, 5.0, 6.5 };
            foreach (bool durable in new[] { true, false })
            {
                string target = Path.Combine(durableDirectory, "m.dbdf");
                using (Writer writer = Writer.ToFile(target, new WriterOptions { Durable = durable }))
                {
                    writer.BeginMatrix(DataType.Dense, ValueType.F64, 2, 3);
                    writer.WriteDense(small);
                    writer.Finish();
                }
                using (Reader reader = Reader.Open(target))
                {
                    Assert.ArrayEqual(small, reader.ReadDoubles());
                }
                Assert.ArrayEqual(new[] { "m.dbdf" }, NamesIn(durableDirectory), "durable " + durable);
            }

            // The daphne dialect's .meta sidecar is written durably too, with the same contents.
            foreach (string directory in new[] { plainDirectory, durableDirectory })
            {
                WriterOptions options = new WriterOptions
                {
                    Dialect = Dialect.Daphne,
                    Durable = directory == durableDirectory
                };
                using (Writer writer = Writer.ToFile(Path.Combine(directory, "d.dbdf"), options))
                {
                    Assert.Equal(Dialect.Daphne, writer.Dialect);
                    writer.BeginMatrix(DataType.Dense, ValueType.F64, 2, 3);
                    writer.WriteDense(small);
                    writer.Finish();
                }
            }
            Assert.ArrayEqual(File.ReadAllBytes(Path.Combine(plainDirectory, "d.dbdf")),
                File.ReadAllBytes(Path.Combine(durableDirectory, "d.dbdf")));
            Assert.Equal(File.ReadAllText(Path.Combine(plainDirectory, "d.dbdf.meta")),
                File.ReadAllText(Path.Combine(durableDirectory, "d.dbdf.meta")));
            Assert.ArrayEqual(new[] { "d.dbdf", "d.dbdf.meta", "m.dbdf" }, NamesIn(durableDirectory));
        }

        [Test]
        public void HandlesKeepTheirOwnCopyOfTheOptions()
        {
            ReaderOptions readerOptions = new ReaderOptions { Threads = 2 };
            WriterOptions writerOptions = new WriterOptions { Durable = true, Threads = 1 };
            using (Reader reader = Reader.FromBytes(OneThreadBytes, readerOptions))
            using (Writer writer = Writer.ToFile(temporary.File("m.dbdf"), writerOptions))
            {
                readerOptions.Threads = 5;
                writerOptions.Durable = false;
                writerOptions.Threads = 0;
                Assert.Equal(2, reader.Threads);
                Assert.True(writer.Durable, "Durable");
                Assert.Equal(1, writer.Threads);
            }
            // The file writer disposed without Finish() left neither its target nor its temporary file.
            Assert.ArrayEqual(new string[0], NamesIn(temporary.Path));

            using (Reader reader = Reader.Open(WriteFile("n.dbdf")))
            {
                Assert.Equal(0, reader.Threads);
            }
            using (Writer writer = Writer.ToFile(temporary.File("d.dbdf"), Dialect.Daphne, false))
            {
                Assert.False(writer.Durable, "Durable");
                Assert.Equal(0, writer.Threads);
            }
            Reader disposed = Reader.FromBytes(OneThreadBytes);
            disposed.Dispose();
            Assert.Throws<ObjectDisposedException>(() => { int unused = disposed.Threads; });
            Writer disposedWriter = Writer.ToMemory();
            disposedWriter.Dispose();
            Assert.Throws<ObjectDisposedException>(() => { bool unused = disposedWriter.Durable; });
            Assert.Throws<ObjectDisposedException>(() => { int unused = disposedWriter.Threads; });
        }

        private string WriteFile(string name)
        {
            string file = temporary.File(name);
            File.WriteAllBytes(file, OneThreadBytes);
            return file;
        }
    }
}
