using System;
using System.IO;
using System.Linq;

namespace Dbdf.Tests
{
    /// <summary>
    /// A file that another process shortens while a reader has it open: the reads that need the lost bytes throw
    /// DbdfException (Status.Io), where a mapped file used to kill the process with SIGBUS.
    /// </summary>
    public sealed class ChangingFileTests : IDisposable
    {
        private const int Side = 512;
        private readonly TemporaryDirectory temporary = new TemporaryDirectory();

        public void Dispose()
        {
            temporary.Dispose();
        }

        private string WriteLargeFile()
        {
            string path = temporary.File("large.dbdf");
            double[] values = Enumerable.Range(0, Side * Side).Select(index => index % 1000 + 0.5).ToArray();
            using (Writer writer = Writer.ToFile(path))
            {
                writer.BeginMatrix(DataType.Dense, ValueType.F64, Side, Side);
                writer.WriteDense(values, 0, Encoding.Dense, 128, 128);
                writer.Finish();
            }
            return path;
        }

        private static void AssertShrank(DbdfException error)
        {
            Assert.Equal(Status.Io, error.Status);
            Assert.True(error.Message.Contains("the file shrank while being read"), error.Message);
        }

        [Test]
        public void TruncatedBetweenListingAndDecodingThrows()
        {
            string path = WriteLargeFile();
            using (Reader reader = Reader.Open(path))
            {
                Assert.Equal(16L, reader.BuildIndex());
                using (FileStream shortened = new FileStream(path, FileMode.Open, FileAccess.Write))
                {
                    shortened.SetLength(100);
                }
                AssertShrank(Assert.Throws<DbdfException>(() => reader.ReadDoubles()));
                Block block = reader.SeekBlock(2);
                AssertShrank(Assert.Throws<DbdfException>(() => block.DecodeDense(new double[128 * 128])));
                AssertShrank(Assert.Throws<DbdfException>(() => block.OpenPayload()));
            }
        }
    }
}
