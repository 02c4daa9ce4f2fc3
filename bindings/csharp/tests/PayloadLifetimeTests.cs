using System;
using System.IO;
using System.Linq;
using System.Runtime.CompilerServices;

namespace Dbdf.Tests
{
    /// <summary>
    /// A payload stream of a reader over memory points into the reader's input: it keeps that input alive, so it
    /// stays readable after the reader is disposed, and the input is freed once the reader and every stream are gone.
    /// A file's payload stream is a copy.
    /// </summary>
    public sealed class PayloadLifetimeTests : IDisposable
    {
        private const int Rows = 3;
        private const int Cols = 4;
        private readonly TemporaryDirectory temporary = new TemporaryDirectory();

        public void Dispose()
        {
            temporary.Dispose();
        }

        /// <summary>A 3 x 4 f64 matrix in one dense block: its payload is the values, little-endian.</summary>
        private string WriteDenseFile(string name)
        {
            string path = temporary.File(name);
            using (Writer writer = Writer.ToFile(path))
            {
                writer.BeginMatrix(DataType.Dense, ValueType.F64, Rows, Cols);
                writer.AddDense(0, 0, Rows, Cols, Values(), 0, Encoding.AsGiven);
                writer.Finish();
            }
            return path;
        }

        private static double[] Values()
        {
            return Enumerable.Range(0, Rows * Cols).Select(index => index * 1.25 - 3).ToArray();
        }

        private static byte[] ValueBytes()
        {
            return Values().SelectMany(value => BitConverter.GetBytes(value)).ToArray();
        }

        private static byte[] ReadAll(Stream stream)
        {
            using (MemoryStream copy = new MemoryStream())
            {
                stream.CopyTo(copy);
                return copy.ToArray();
            }
        }

        private static void CollectGarbage()
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
        }

        [Test]
        public void PayloadStaysReadableAfterTheReaderIsDisposed()
        {
            string path = WriteDenseFile("m.dbdf");
            Func<Reader>[] openings = { () => Reader.Open(path), () => Reader.FromBytes(File.ReadAllBytes(path)) };
            foreach (Func<Reader> open in openings)
            {
                Stream payload;
                using (Reader reader = open())
                {
                    Assert.True(reader.NextBlock());
                    payload = reader.CurrentBlock.OpenPayload();
                    Assert.False(reader.NextBlock(), "one block only");
                }
                // The native copy would be gone by now if the stream did not hold it (a file's stream is a copy).
                CollectGarbage();
                using (payload)
                {
                    Assert.Equal((long)Rows * Cols * 8, payload.Length);
                    Assert.ArrayEqual(ValueBytes(), ReadAll(payload));
                    payload.Position = 8;
                    Assert.Equal(BitConverter.GetBytes(Values()[1])[0], (byte)payload.ReadByte());
                }
                Assert.Throws<ObjectDisposedException>(() => payload.ReadByte(), "a disposed stream");
                Assert.Throws<ObjectDisposedException>(() => payload.Read(new byte[8], 0, 8), "a disposed stream");
            }
        }

        [Test]
        public void PayloadStreamsAreReadOnly()
        {
            using (Reader reader = Reader.Open(WriteDenseFile("m.dbdf")))
            using (Stream payload = reader.First().OpenPayload())
            {
                Assert.False(payload.CanWrite);
                Assert.Throws<NotSupportedException>(() => payload.WriteByte(0));
            }
        }

        /// <summary>
        /// A file is read, never mapped (so another process truncating it cannot kill this one with SIGBUS): its
        /// payload streams are copies, readable after the reader is disposed, dropped or disposed in any order.
        /// </summary>
        [Test]
        public void AFilesPayloadStreamsAreCopiesAndTheFileIsNeverMapped()
        {
            string path = Path.GetFullPath(WriteDenseFile("read.dbdf"));
            Reader reader = Reader.Open(path);
            Stream first = reader.First().OpenPayload();
            Stream second = reader.First().OpenPayload();
            if (File.Exists("/proc/self/maps"))
            {
                Assert.False(IsMapped(path), "the reader reads its file with positioned reads");
            }
            reader.Dispose();
            Assert.ArrayEqual(ValueBytes(), ReadAll(first));
            first.Dispose();
            Assert.ArrayEqual(ValueBytes(), ReadAll(second));
            second.Dispose();

            reader = Reader.Open(path);
            OpenAndDropPayload(reader);
            reader.Dispose();
            CollectGarbage();
        }

        // Not inlined, so that the stream is unreachable once the method returns.
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void OpenAndDropPayload(Reader reader)
        {
            Stream dropped = reader.First().OpenPayload();
            Assert.Equal((long)Rows * Cols * 8, dropped.Length);
        }

        private static bool IsMapped(string path)
        {
            return File.ReadAllLines("/proc/self/maps").Any(line => line.EndsWith(" " + path, StringComparison.Ordinal));
        }
    }
}
