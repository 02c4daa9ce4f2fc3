using System;
using System.IO;

namespace Dbdf.Tests
{
    /// <summary>
    /// What a DbdfException tells besides its status: the rule and byte offset as numbers, the whole message however
    /// long (the native glue once cut it at 1,024 bytes), and the same "status: message" text as every binding.
    /// </summary>
    public sealed class ErrorDetailsTests : IDisposable
    {
        private readonly TemporaryDirectory temporary = new TemporaryDirectory();

        public void Dispose()
        {
            temporary.Dispose();
        }

        private static byte[] Vector(string name)
        {
            return File.ReadAllBytes(Path.Combine(GoldenVectorsTests.VectorsDirectory, name));
        }

        private static void DecodeEveryBlock(Reader reader)
        {
            while (reader.NextBlock())
            {
                reader.CurrentBlock.ToDoubleArray();
            }
        }

        [Test]
        public void AChangedByteGivesItsRuleAndOffset()
        {
            byte[] bytes = Vector("dense_f64.dbdf");
            bytes[18] = 0; // the object's value type: 0 is reserved (rule 6)
            DbdfException reserved = Assert.Throws<DbdfException>(() => Reader.FromBytes(bytes));
            Assert.Equal(Status.Format, reserved.Status);
            Assert.Equal((int?)6, reserved.Rule);
            Assert.Equal((long?)18, reserved.Offset);
            Assert.Equal("format: object value type 0 is reserved at byte 18 (rule 6)", reserved.Message);

            bytes[18] = 10;
            bytes[1] = 9; // data type 9 does not exist: the spec's layout itself, no numbered rule
            DbdfException unknown = Assert.Throws<DbdfException>(() => Reader.FromBytes(bytes));
            Assert.Equal(null, unknown.Rule);
            Assert.Equal((long?)1, unknown.Offset);
            Assert.True(unknown.Message.EndsWith(" at byte 1 (spec layout)", StringComparison.Ordinal),
                unknown.Message);
        }

        [Test]
        public void ABrokenPayloadGivesItsRuleAndOffsetWhenDecoded()
        {
            using (Reader reader = Reader.FromBytes(Vector("invalid/csr_unsorted_columns.dbdf")))
            {
                DbdfException error = Assert.Throws<DbdfException>(() => DecodeEveryBlock(reader));
                Assert.Equal(Status.Format, error.Status);
                Assert.Equal((int?)12, error.Rule);
                Assert.Equal((long?)69, error.Offset);
            }
        }

        [Test]
        public void ATruncatedFileGivesWhereItEnds()
        {
            byte[] whole = Vector("dense_f64.dbdf");
            byte[] cut = new byte[whole.Length - 1];
            Array.Copy(whole, cut, cut.Length);
            using (Reader reader = Reader.FromBytes(cut))
            {
                DbdfException error = Assert.Throws<DbdfException>(() => DecodeEveryBlock(reader));
                Assert.Equal(Status.Truncated, error.Status);
                Assert.Equal((int?)5, error.Rule, error.Message);
                Assert.Equal((long?)19, error.Offset, error.Message);
            }
        }

        [Test]
        public void FailuresOfOtherKindsHaveNoRuleAndNoOffset()
        {
            // A missing file is a FileNotFoundException wrapping the library's failure.
            DbdfException missing = (DbdfException)Assert.Throws<FileNotFoundException>(
                () => Reader.Open(temporary.File("absent.dbdf"))).InnerException;
            Assert.Equal(Status.Io, missing.Status);
            Assert.Equal(null, missing.Rule);
            Assert.Equal(null, missing.Offset);
            Assert.True(missing.Message.StartsWith("io: cannot open '", StringComparison.Ordinal), missing.Message);

            using (Writer writer = Writer.ToMemory())
            {
                DbdfException callOrder = Assert.Throws<DbdfException>(() => writer.Finish());
                Assert.Equal(Status.CallOrder, callOrder.Status);
                Assert.Equal(null, callOrder.Rule);
                Assert.Equal(null, callOrder.Offset);
                Assert.Equal("call_order: " + callOrder.NativeMessage, callOrder.Message);
            }

            DbdfException made = new DbdfException(Status.NoMemory, "made by hand");
            Assert.Equal("nomem: made by hand", made.Message);
            Assert.Equal(null, made.Rule);
            Assert.Equal(null, made.Offset);
        }

        /// <summary>The message starts with the library's own name of the status, lower case, as in Java, Rust and
        /// Python; for a code this binding does not know too.</summary>
        [Test]
        public void MessagesStartWithTheLibrarysNameOfTheStatus()
        {
            foreach (Status status in Enum.GetValues(typeof(Status)))
            {
                Assert.Equal(DbdfLibrary.StatusName(status), status.LibraryName(), status.ToString());
                Assert.Equal(DbdfLibrary.StatusName(status) + ": text", new DbdfException(status, "text").Message);
            }
            Assert.Equal("unknown", DbdfLibrary.StatusName(Status.Unknown));
        }

        [Test]
        public void TextIsNotADbdfFile()
        {
            byte[] csv = System.Text.Encoding.ASCII.GetBytes("id,price\n1,2.5\n");
            DbdfException error = Assert.Throws<DbdfException>(() => Reader.FromBytes(csv));
            Assert.Equal("format: not a .dbdf file: it starts with \"id,price\\x0A1,2.5\\x0A\" (text) instead of "
                + "format version 1 at byte 0 (rule 6)", error.Message);
            Assert.Equal((int?)6, error.Rule);
            Assert.Equal((long?)0, error.Offset);
        }

        /// <summary>A repeated label is quoted whole in the message: 3,000 bytes, past the glue's old cut.</summary>
        [Test]
        public void ALongMessageArrivesWhole()
        {
            string label = new string('x', 2990) + "-\u00e9\U0001D11E"; // two- and four-byte UTF-8 at its very end
            using (Writer writer = Writer.ToMemory())
            {
                DbdfException error = Assert.Throws<DbdfException>(() => writer.BeginFrame(1,
                    new[] { ValueType.I32, ValueType.F64 }, new[] { label, label }));
                Assert.Equal(Status.InvalidArgument, error.Status);
                Assert.Equal("label \"" + label + "\" of frame column 1 repeats an earlier label; frame labels must be "
                    + "unique (rule 16)", error.NativeMessage);
                Assert.Equal("invalid_argument: " + error.NativeMessage, error.Message);
                int bytes = System.Text.Encoding.UTF8.GetByteCount(error.NativeMessage);
                Assert.True(bytes > 3000, "longer than 3,000 bytes: " + bytes);
            }
        }
    }
}
