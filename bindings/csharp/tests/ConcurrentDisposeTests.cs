using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace Dbdf.Tests
{
    /// <summary>
    /// A Reader or Writer used by several threads while another thread disposes it: every call either works, with
    /// the right result, or throws ObjectDisposedException (or DbdfException for what the library refuses); nothing
    /// crashes, and every thread does reach the disposed state.
    /// </summary>
    public sealed class ConcurrentDisposeTests : IDisposable
    {
        private readonly TemporaryDirectory temporary = new TemporaryDirectory();

        public void Dispose()
        {
            temporary.Dispose();
        }

        [Test]
        public void ReaderDisposedWhileThreadsReadIt()
        {
            string path = temporary.File("matrix.dbdf");
            CrossLanguageMatrix.Write(path);
            double[] expected = CrossLanguageMatrix.Values();
            List<byte[]> payloads = new List<byte[]>();
            List<BlockInfo> blocks = new List<BlockInfo>();
            using (Reader reference = Reader.Open(path))
            {
                foreach (Block block in reference)
                {
                    payloads.Add(block.PayloadToArray());
                    blocks.Add(block.Info);
                }
            }
            Assert.Equal(4, blocks.Count, "blocks of the cross-language matrix");

            Reader reader = Reader.Open(path);
            // Only one worker moves the current block, so no other sees its blocks go stale.
            UnmanagedMemoryStream lastPayload = null;
            List<ConcurrentUse.Worker> workers = new ConcurrentUse()
                .Add("ReadDoubles", call => Assert.ArrayEqual(expected, reader.ReadDoubles()))
                .Add("ReadWindow", call =>
                {
                    double[] window = new double[4];
                    reader.ReadWindow(2, 1, 2, 2, window);
                    Assert.ArrayEqual(new[] { expected[11], expected[12], expected[16], expected[17] }, window);
                })
                .Add("Validate+Violations", call =>
                {
                    reader.Validate();
                    Assert.Equal(0, reader.Violations().Count);
                })
                .Add("IndexEntry", call =>
                {
                    int index = (int)(call % blocks.Count);
                    Assert.Equal(blocks[index], reader.IndexEntry(index));
                    Assert.Equal(Dialect.Spec, reader.Dialect);
                })
                .Add("SeekBlock+OpenPayload", call =>
                {
                    int index = (int)(call % blocks.Count);
                    Block block = reader.SeekBlock(index);
                    Assert.ArrayEqual(BlockValues(expected, blocks[index]), block.ToDoubleArray());
                    UnmanagedMemoryStream opened = block.OpenPayload();
                    Assert.ArrayEqual(payloads[index], ReadAll(opened), "payload of block " + index);
                    opened.Position = 0;
                    // The previous stream goes only once a new one is open, so one is left when the dispose lands.
                    if (lastPayload != null)
                    {
                        lastPayload.Dispose();
                    }
                    lastPayload = opened;
                })
                .RunAndDispose(reader.Dispose);

            ConcurrentUse.AssertEveryWorkerSawTheDispose(workers);
            Assert.True(reader.IsDisposed);
            Assert.Throws<ObjectDisposedException>(() => reader.ReadDoubles());
            // The payload stream opened last, before the dispose, still reads the right bytes.
            Assert.True(lastPayload != null, "a payload stream was opened");
            byte[] afterDispose = ReadAll(lastPayload);
            Assert.True(payloads.Any(payload => payload.SequenceEqual(afterDispose)),
                "the last payload stream still holds a block's bytes");
            lastPayload.Dispose();
        }

        [Test]
        public void WriterDisposedWhileThreadsWriteIt()
        {
            const int blockWriters = 3;
            Writer writer = Writer.ToMemory();
            // Far more rows than the workers can fill: each adds 1 x 4 blocks on rows of its own.
            writer.BeginMatrix(DataType.Dense, ValueType.U8, 1L << 40, 4);
            ConcurrentUse use = new ConcurrentUse();
            for (int worker = 0; worker < blockWriters; worker++)
            {
                long first = worker;
                use.Add("AddDense " + worker, call =>
                    writer.AddDense(first + call * blockWriters, 0, 1, 4, new byte[] { 1, 2, 3, (byte)call }));
            }
            long lastCount = 0;
            use.Add("BytesWritten", call =>
            {
                long written = writer.BytesWritten;
                Assert.True(written >= lastCount, "bytes written never go back");
                lastCount = written;
            });
            // The cells are never all covered: Finish fails with Format and leaves the writer open.
            use.Add("Finish", call =>
            {
                writer.Finish();
                throw new AssertionException("Finish succeeded on a matrix with uncovered cells");
            });
            List<ConcurrentUse.Worker> workers = use.RunAndDispose(writer.Dispose);

            ConcurrentUse.AssertEveryWorkerSawTheDispose(workers);
            foreach (ConcurrentUse.Worker worker in workers)
            {
                if (worker.Name == "Finish")
                {
                    Assert.Equal(0L, worker.Successes, "Finish never succeeds");
                    Assert.SequenceEqual(new[] { Status.Format }, worker.LibraryStatuses, "Finish's failures");
                }
                else
                {
                    Assert.Equal(0L, worker.LibraryErrors, worker.Name + " had the library refuse a valid call");
                    Assert.True(worker.Successes > 0, worker.Name + " succeeded");
                }
            }
            Assert.True(writer.IsDisposed);
            Assert.Throws<ObjectDisposedException>(() => writer.AddEmpty(0, 0, 1, 1));
        }

        /// <summary>The values of <paramref name="block"/>, row-major, cut from the whole matrix.</summary>
        private static double[] BlockValues(double[] matrix, BlockInfo block)
        {
            double[] values = new double[block.Rows * block.Cols];
            for (long row = 0; row < block.Rows; row++)
            {
                Array.Copy(matrix, (block.Row + row) * CrossLanguageMatrix.Cols + block.Col, values,
                    row * block.Cols, block.Cols);
            }
            return values;
        }

        private static byte[] ReadAll(Stream stream)
        {
            using (MemoryStream copy = new MemoryStream())
            {
                stream.CopyTo(copy);
                return copy.ToArray();
            }
        }
    }
}
