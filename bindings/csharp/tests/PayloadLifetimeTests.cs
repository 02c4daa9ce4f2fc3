using System;
using System.IO;
using System.Linq;
using System.Runtime.CompilerServices;

namespace Dbdf.Tests
{
    /// <summary>
    /// A payload stream points into the reader's input: it keeps that input alive, so it stays readable after the
    /// reader is disposed, and the input is freed once the reader and every stream are gone.
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
                // The file mapping or the native copy would be gone by now if the stream did not hold it.
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
        /// The file's mapping (in /proc/self/maps) outlives the reader while a payload stream is open and goes with
        /// the last stream, whether that is disposed or finalized.
        /// </summary>
        [Test]
        public void TheInputIsFreedWithItsLastUser()
        {
            if (!File.Exists("/proc/self/maps"))
            {
                Console.WriteLine("     (no /proc/self/maps here: the mapping itself is not observed)");
                return;
            }
            string path = Path.GetFullPath(WriteDenseFile("mapped.dbdf"));
            Reader reader = Reader.Open(path);
            Assert.True(IsMapped(path), "the reader maps its file");
            Stream first = reader.First().OpenPayload();
            Stream second = reader.First().OpenPayload();
            reader.Dispose();
            Assert.True(IsMapped(path), "still mapped: two payload streams are open");
            first.Dispose();
            Assert.True(IsMapped(path), "still mapped: one payload stream is open");
            second.Dispose();
            Assert.False(IsMapped(path), "unmapped with the last stream");

            reader = Reader.Open(path);
            OpenAndDropPayload(reader);
            reader.Dispose();
            CollectGarbage();
            Assert.False(IsMapped(path), "unmapped once the dropped stream was finalized");
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
