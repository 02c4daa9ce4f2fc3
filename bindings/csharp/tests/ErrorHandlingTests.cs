using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Dbdf.Internal;

namespace Dbdf.Tests
{
    /// <summary>Bad input, wrong call order, disposed handles and too-small arrays: the right exception, no crash.</summary>
    public sealed class ErrorHandlingTests : IDisposable
    {
        private readonly TemporaryDirectory temporary = new TemporaryDirectory();
        private readonly UnmanagedBuffers unmanaged = new UnmanagedBuffers();

        public void Dispose()
        {
            temporary.Dispose();
            unmanaged.Dispose();
        }

        private static DbdfException AssertStatus(Status expected, Action call)
        {
            DbdfException error = Assert.Throws<DbdfException>(call, "expected " + expected);
            Assert.Equal(expected, error.Status, error.Message);
            Assert.Equal((int)expected, error.StatusCode);
            Assert.True(error.NativeMessage.Length > 0, "the library explains the failure");
            Assert.True(error.Message.Contains(error.NativeMessage), "the message carries the native message");
            return error;
        }

        [Test]
        public void MissingFileIsAFileNotFoundExceptionWrappingTheIoError()
        {
            string absent = temporary.File("absent.dbdf");
            FileNotFoundException missing = Assert.Throws<FileNotFoundException>(() => Reader.Open(absent));
            Assert.Equal(absent, missing.FileName);
            DbdfException error = missing.InnerException as DbdfException;
            Assert.True(error != null, "the library's failure is the inner exception");
            Assert.Equal(Status.Io, error.Status);
            Assert.False(error.Status.IsInvalidData());
            Assert.True(error.NativeMessage.Contains("absent.dbdf"), error.NativeMessage);
            Assert.Equal(error.Message, missing.Message);
        }

        [Test]
        public void WritingIntoAMissingFolderIsADirectoryNotFoundExceptionWrappingTheIoError()
        {
            string missingFolder = temporary.File("no-such-folder");
            string intoMissingFolder = Path.Combine(missingFolder, "m.dbdf");
            DirectoryNotFoundException missing =
                Assert.Throws<DirectoryNotFoundException>(() => Writer.ToFile(intoMissingFolder));
            DbdfException error = missing.InnerException as DbdfException;
            Assert.True(error != null, "the library's failure is the inner exception");
            Assert.Equal(Status.Io, error.Status);
            Assert.Equal(error.Message, missing.Message);
            Assert.False(Directory.Exists(missingFolder), "nothing was created");
        }

        [Test]
        public void UnreadableExistingPathIsAnIoException()
        {
            // A directory exists: an I/O failure, but not a missing file.
            DbdfException error = AssertStatus(Status.Io, () => Reader.Open(temporary.Path));
            Assert.True(error is IOException, "every failure of the library is an IOException");
        }

        [Test]
        public void MalformedHeadersAreInvalidData()
        {
            DbdfException truncated = AssertStatus(Status.Truncated, () => Reader.FromBytes(new byte[] { 1, 1, 0, 0 }));
            Assert.True(truncated.Status.IsInvalidData());
            AssertStatus(Status.Truncated, () => Reader.FromBytes(new byte[0]));
            byte[] header = new byte[19];
            header[0] = 2; // version 2 does not exist
            header[1] = 1;
            header[18] = 10;
            AssertStatus(Status.Format, () => Reader.FromBytes(header));
            header[0] = 1;
            header[1] = 0; // data type 0 is reserved
            AssertStatus(Status.Format, () => Reader.FromBytes(header));
        }

        [Test]
        public void TruncatedBodyFailsOnTheBlockAndKeepsFailing()
        {
            byte[] bytes = CrossLanguageMatrix.Bytes();
            byte[] cut = new byte[bytes.Length - 3];
            Array.Copy(bytes, cut, cut.Length);
            using (Reader reader = Reader.FromBytes(cut))
            {
                int blocks = 0;
                DbdfException error = Assert.Throws<DbdfException>(() =>
                {
                    while (reader.NextBlock())
                    {
                        blocks++;
                    }
                });
                Assert.Equal(Status.Truncated, error.Status, error.Message);
                Assert.Equal(3, blocks);
                Assert.Throws<InvalidOperationException>(() => { Block unused = reader.CurrentBlock; },
                    "no current block after a failed step");
                AssertStatus(Status.Truncated, () => reader.NextBlock());
                AssertStatus(Status.Truncated, () => reader.Validate());
            }
        }

        [Test]
        public void WriterCallOrderIsChecked()
        {
            using (Writer writer = Writer.ToMemory())
            {
                AssertStatus(Status.CallOrder, () => writer.AddDense(0, 0, 1, 1, new double[] { 1 }));
                AssertStatus(Status.CallOrder, () => writer.Finish());
                AssertStatus(Status.CallOrder, () => writer.ToArray());
                writer.BeginMatrix(DataType.Dense, ValueType.F64, 2, 2);
                AssertStatus(Status.CallOrder, () => writer.BeginMatrix(DataType.Dense, ValueType.F64, 2, 2));
                writer.AddDense(0, 0, 1, 2, new double[] { 1, 2 });
                // Cells of row 1 are not covered yet: finish fails and the writer stays usable.
                AssertStatus(Status.Format, () => writer.Finish());
                AssertStatus(Status.CallOrder, () => writer.ToArray());
                writer.AddDense(1, 0, 1, 2, new double[] { 3, 4 });
                writer.Finish();
                AssertStatus(Status.CallOrder, () => writer.AddEmpty(0, 0, 1, 1));
                using (Reader reader = Reader.FromBytes(writer.ToArray()))
                {
                    Assert.ArrayEqual(new double[] { 1, 2, 3, 4 }, reader.ReadDoubles());
                }
            }
        }

        [Test]
        public void WriterRejectsBadBlocks()
        {
            using (Writer writer = Writer.ToMemory())
            {
                writer.BeginMatrix(DataType.Dense, ValueType.U8, 3, 3);
                // Outside the object.
                AssertStatus(Status.InvalidArgument, () => writer.AddDense(2, 2, 2, 2, new byte[4]));
                writer.AddDense(0, 0, 2, 2, new byte[] { 1, 2, 3, 4 });
                // Overlapping the first block.
                AssertStatus(Status.InvalidArgument, () => writer.AddEmpty(1, 1, 2, 2));
                // 300 is not a u8 (rule 8).
                AssertStatus(Status.Range, () => writer.AddDense(0, 2, 1, 1, new[] { 300 }));
                // -1 is not a u8 either, and 0.5 is not an integer.
                AssertStatus(Status.Range, () => writer.AddDense(0, 2, 1, 1, new sbyte[] { -1 }));
                AssertStatus(Status.Range, () => writer.AddDense(0, 2, 1, 1, new[] { 0.5 }));
                // Fewer values than the block needs.
                AssertStatus(Status.InvalidArgument, () => writer.AddDense(0, 2, 3, 1, new byte[2]));
                // CSR and COO arrays shorter than the block needs: checked before the library reads them.
                AssertStatus(Status.InvalidArgument, () => writer.AddCsr(2, 0, 1, 3, new ulong[] { 0 }, new uint[0],
                    new byte[0]));
                AssertStatus(Status.InvalidArgument, () => writer.AddCsr(2, 0, 1, 3, new ulong[] { 0, 2 },
                    new uint[] { 0 }, new byte[] { 1, 2 }));
                AssertStatus(Status.InvalidArgument, () => writer.AddCoo(2, 0, 1, 3, new uint[] { 0, 0 },
                    new uint[] { 1 }, new byte[] { 1, 2 }));
                AssertStatus(Status.InvalidArgument, () => writer.AddCoo(2, 0, 1, 3, new uint[] { 0, 0 },
                    new uint[] { 1, 2 }, new byte[] { 1 }));
                // Unsorted column indices.
                AssertStatus(Status.InvalidArgument, () => writer.AddCsr(2, 0, 1, 3, new ulong[] { 0, 2 },
                    new uint[] { 2, 1 }, new byte[] { 1, 2 }));
                // The writer is still usable after all that.
                writer.AddDense(0, 2, 2, 1, new byte[] { 5, 6 });
                writer.AddCoo(2, 0, 1, 3, new uint[] { 0 }, new uint[] { 1 }, new byte[] { 7 });
                writer.Finish();
                using (Reader reader = Reader.FromBytes(writer.ToArray()))
                {
                    Assert.ArrayEqual(new byte[] { 1, 2, 5, 3, 4, 6, 0, 7, 0 }, reader.ReadDense<byte>());
                }
            }
        }

        [Test]
        public void FrameHeadersAreChecked()
        {
            using (Writer writer = Writer.ToMemory())
            {
                AssertStatus(Status.InvalidArgument, () => writer.BeginFrame(2, new[] { ValueType.I32, ValueType.F64 },
                    new[] { "same", "same" }));
            }
            using (Writer writer = Writer.ToMemory())
            {
                Assert.Throws<ArgumentException>(() => writer.BeginFrame(2, new[] { ValueType.I32 }, new[] { "a", "b" }));
                Assert.Throws<ArgumentNullException>(() => writer.BeginFrame(2, new[] { ValueType.I32 }, new string[1]));
                AssertStatus(Status.InvalidArgument, () => writer.BeginFrame(2, new[] { ValueType.None }, new[] { "a" }));
                AssertStatus(Status.InvalidArgument, () => writer.BeginFrame(2, new[] { ValueType.I32 },
                    new[] { new string('x', 65536) }));
            }
            using (Writer writer = Writer.ToMemory())
            {
                AssertStatus(Status.InvalidArgument, () => writer.BeginMatrix(DataType.Frame, ValueType.F64, 1, 1));
                AssertStatus(Status.InvalidArgument, () => writer.BeginMatrix(DataType.Dense, ValueType.None, 1, 1));
                AssertStatus(Status.InvalidArgument, () => writer.BeginMatrix(DataType.Dense, (ValueType)11, 1, 1));
            }
        }

        [Test]
        public void ReaderCallOrderAndStaleBlocks()
        {
            using (Reader reader = Reader.FromBytes(CrossLanguageMatrix.Bytes()))
            {
                Assert.Throws<InvalidOperationException>(() => { Block unused = reader.CurrentBlock; });
                Assert.True(reader.NextBlock());
                Block first = reader.CurrentBlock;
                Assert.True(reader.NextBlock());
                InvalidOperationException stale = Assert.Throws<InvalidOperationException>(() => first.ToDoubleArray());
                Assert.True(stale.Message.Contains("no longer the current block"), stale.Message);
                Assert.Throws<InvalidOperationException>(() => first.OpenPayload());
                Assert.Throws<InvalidOperationException>(() => first.CountEntries());
                Assert.Equal(0L, first.Index, "the description stays readable");
                while (reader.NextBlock())
                {
                    // Walk to the end.
                }
                Assert.Throws<InvalidOperationException>(() => { Block unused = reader.CurrentBlock; });
                Assert.False(reader.NextBlock(), "past the end stays past the end");
                AssertStatus(Status.InvalidArgument, () => reader.IndexEntry(4));
                AssertStatus(Status.InvalidArgument, () => reader.SeekBlock(4));
                Assert.Throws<ArgumentOutOfRangeException>(() => reader.SeekBlock(-1));
                AssertStatus(Status.InvalidArgument, () => reader.ColumnType(5));
                AssertStatus(Status.InvalidArgument, () => reader.ColumnLabel(0));
                AssertStatus(Status.InvalidArgument, () => reader.ReadWindow(5, 0, 2, 1, new double[2]));
            }
        }

        [Test]
        public void TooSmallArraysThrow()
        {
            using (Reader reader = Reader.FromBytes(CrossLanguageMatrix.Bytes()))
            {
                AssertStatus(Status.BufferTooSmall, () => reader.ReadDense(new double[29]));
                AssertStatus(Status.BufferTooSmall, () => reader.ReadDense(new double[30], 6));
                AssertStatus(Status.InvalidArgument, () => reader.ReadDense(new double[30], 4));
                AssertStatus(Status.BufferTooSmall, () => reader.ReadColumn(0, new double[5]));
                AssertStatus(Status.BufferTooSmall, () => reader.ReadWindow(0, 0, 2, 2, new double[3]));
                long entries = reader.CountEntries();
                AssertStatus(Status.BufferTooSmall, () => reader.ReadCsr(new ulong[7], new ulong[entries - 1],
                    new double[entries]));
                AssertStatus(Status.BufferTooSmall, () => reader.ReadCsr(new ulong[6], new ulong[entries],
                    new double[entries]));
                Assert.True(reader.NextBlock());
                Block block = reader.CurrentBlock;
                AssertStatus(Status.BufferTooSmall, () => block.DecodeDense(new double[11]));
                // A wider stride needs more room; a narrower one is invalid.
                AssertStatus(Status.BufferTooSmall, () => block.DecodeDense(new double[12], 4));
                AssertStatus(Status.InvalidArgument, () => block.DecodeDense(new double[12], 2));
                long blockEntries = block.CountEntries();
                AssertStatus(Status.BufferTooSmall, () => block.DecodeCsr(new ulong[5], new uint[blockEntries - 1],
                    new double[blockEntries]));
                AssertStatus(Status.BufferTooSmall, () => block.DecodeCsr(new ulong[4], new uint[blockEntries],
                    new double[blockEntries]));
                AssertStatus(Status.BufferTooSmall, () => block.DecodeCoo(new uint[blockEntries],
                    new uint[blockEntries], new double[blockEntries - 1]));
                // Conversion is exact or fails: 0.5 is no integer.
                AssertStatus(Status.Range, () => block.DecodeDense(new int[12]));
                // The reader is still fine after all that.
                Assert.Equal(12, block.ToDoubleArray().Length);
            }
        }

        [Test]
        public void MisusedArgumentsAreRejectedInCSharp()
        {
            using (Reader reader = Reader.FromBytes(CrossLanguageMatrix.Bytes()))
            {
                Assert.Throws<ArgumentNullException>(() => reader.ReadDense((double[])null));
                Assert.Throws<ArgumentOutOfRangeException>(() => reader.ReadDense(new double[30], -1));
                Assert.Throws<ArgumentNullException>(() => reader.ReadDense(ValueType.F64, IntPtr.Zero, 30));
                Assert.Throws<ArgumentException>(() => reader.ReadDense(ValueType.None, new IntPtr(8), 30));
                Assert.Throws<ArgumentOutOfRangeException>(() => reader.ReadDense(ValueType.F64, new IntPtr(8), -1));
                Assert.Throws<ArgumentException>(() => reader.ReadDense<decimal>());
                Assert.Throws<ArgumentNullException>(() => reader.ReadCsr(null, new ulong[1], new double[1]));
                Assert.Throws<ArgumentOutOfRangeException>(() => reader.ColumnType(-1));
                Assert.Throws<ArgumentOutOfRangeException>(() => Reader.FromMemory(new IntPtr(8), -1));
                Assert.Throws<ArgumentNullException>(() => Reader.FromMemory(IntPtr.Zero, 10));
            }
            Assert.Throws<ArgumentNullException>(() => Reader.Open(null));
            Assert.Throws<ArgumentNullException>(() => Reader.FromBytes(null));
            Assert.Throws<ArgumentNullException>(() => Writer.ToFile(null));
            using (Writer writer = Writer.ToMemory())
            {
                writer.BeginMatrix(DataType.Dense, ValueType.F64, 1, 1);
                Assert.Throws<ArgumentOutOfRangeException>(() => writer.AddDense(0, 0, -1, 1, new double[1]));
                Assert.Throws<ArgumentOutOfRangeException>(() => writer.AddDense(0, 0, 1L << 32, 1, new double[1]));
                Assert.Throws<ArgumentOutOfRangeException>(() => writer.AddEmpty(-1, 0, 1, 1));
                Assert.Throws<ArgumentNullException>(() => writer.AddCoo(0, 0, 1, 1, null, new uint[1], new double[1]));
                Assert.Throws<ArgumentNullException>(() => writer.WriteDense((float[])null));
                Assert.Throws<ArgumentNullException>(() => writer.BeginFrame(1, null, new[] { "a" }));
                // Nothing above reached the writer: it still accepts the block.
                writer.AddDense(0, 0, 1, 1, new double[] { 2.5 });
                writer.Finish();
            }
        }

        [Test]
        public void TooSmallRawSparseBuffersThrowAndAreLeftAlone()
        {
            using (Reader reader = Reader.FromBytes(CrossLanguageMatrix.Bytes()))
            {
                long entries = reader.CountEntries();
                IntPtr offsets = unmanaged.Filled(7, 8);
                IntPtr columns = unmanaged.Filled(entries, 8);
                IntPtr values = unmanaged.Filled(entries, 8);
                AssertStatus(Status.BufferTooSmall, () => reader.ReadCsr(ValueType.F64, offsets, 6, columns, entries,
                    values, entries));
                AssertStatus(Status.BufferTooSmall, () => reader.ReadCsr(ValueType.F64, offsets, 7, columns,
                    entries - 1, values, entries));
                AssertStatus(Status.BufferTooSmall, () => reader.ReadCsr(ValueType.F64, offsets, 7, columns, entries,
                    values, entries - 1));
                Assert.True(UnmanagedBuffers.Untouched(offsets, 7, 8), "object row offsets untouched");
                Assert.True(UnmanagedBuffers.Untouched(columns, entries, 8), "object column indices untouched");
                Assert.True(UnmanagedBuffers.Untouched(values, entries, 8), "object values untouched");
                Assert.Equal(entries, reader.ReadCsr(ValueType.F64, offsets, 7, columns, entries, values, entries),
                    "exactly enough room");

                Assert.True(reader.NextBlock());
                Block block = reader.CurrentBlock;
                long blockEntries = block.CountEntries();
                IntPtr blockOffsets = unmanaged.Filled(5, 8);
                IntPtr blockRows = unmanaged.Filled(blockEntries, 4);
                IntPtr blockColumns = unmanaged.Filled(blockEntries, 4);
                IntPtr blockValues = unmanaged.Filled(blockEntries, 8);
                AssertStatus(Status.BufferTooSmall, () => block.DecodeCsr(ValueType.F64, blockOffsets, 4, blockColumns,
                    blockEntries, blockValues, blockEntries));
                AssertStatus(Status.BufferTooSmall, () => block.DecodeCsr(ValueType.F64, blockOffsets, 5, blockColumns,
                    blockEntries - 1, blockValues, blockEntries));
                AssertStatus(Status.BufferTooSmall, () => block.DecodeCsr(ValueType.F64, blockOffsets, 5, blockColumns,
                    blockEntries, blockValues, blockEntries - 1));
                AssertStatus(Status.BufferTooSmall, () => block.DecodeCoo(ValueType.F64, blockRows, blockEntries - 1,
                    blockColumns, blockEntries, blockValues, blockEntries));
                AssertStatus(Status.BufferTooSmall, () => block.DecodeCoo(ValueType.F64, blockRows, blockEntries,
                    blockColumns, blockEntries - 1, blockValues, blockEntries));
                AssertStatus(Status.BufferTooSmall, () => block.DecodeCoo(ValueType.F64, blockRows, blockEntries,
                    blockColumns, blockEntries, blockValues, blockEntries - 1));
                Assert.True(UnmanagedBuffers.Untouched(blockOffsets, 5, 8), "block row offsets untouched");
                Assert.True(UnmanagedBuffers.Untouched(blockRows, blockEntries, 4), "block row indices untouched");
                Assert.True(UnmanagedBuffers.Untouched(blockColumns, blockEntries, 4),
                    "block column indices untouched");
                Assert.True(UnmanagedBuffers.Untouched(blockValues, blockEntries, 8), "block values untouched");
                // Capacities count elements of the value type, not bytes: room for blockEntries f32 values is half the
                // bytes that as many f64 values need, and enough.
                Assert.Equal(blockEntries, block.DecodeCoo(ValueType.F32, blockRows, blockEntries, blockColumns,
                    blockEntries, blockValues, blockEntries));
                Assert.True(UnmanagedBuffers.Untouched(blockValues + (int)(4 * blockEntries), blockEntries, 4),
                    "f32 values fill only their own bytes");
            }

            // Input counts below what the arrays claim are refused by the library, and no block is added.
            double[] expected = { 1.5, 0, -2, 0, 4, 0 };
            using (Writer writer = Writer.ToMemory())
            {
                IntPtr rowOffsets = unmanaged.CopyOf(new ulong[] { 0, 2, 3 });
                IntPtr rowIndices = unmanaged.CopyOf(new uint[] { 0, 0, 1 });
                IntPtr colIndices = unmanaged.CopyOf(new uint[] { 0, 2, 1 });
                IntPtr values = unmanaged.CopyOf(new[] { 1.5, -2, 4 });
                writer.BeginMatrix(DataType.Dense, ValueType.F64, 2, 3);
                AssertStatus(Status.InvalidArgument, () => writer.AddCsr(0, 0, 2, 3, ValueType.F64, rowOffsets, 2,
                    colIndices, 3, values, 3));
                AssertStatus(Status.InvalidArgument, () => writer.AddCsr(0, 0, 2, 3, ValueType.F64, rowOffsets, 3,
                    colIndices, 2, values, 3));
                AssertStatus(Status.InvalidArgument, () => writer.AddCsr(0, 0, 2, 3, ValueType.F64, rowOffsets, 3,
                    colIndices, 3, values, 2));
                AssertStatus(Status.InvalidArgument, () => writer.AddCoo(0, 0, 2, 3, ValueType.F64, rowIndices, 3,
                    colIndices, 2, values, 3));
                AssertStatus(Status.InvalidArgument, () => writer.AddCoo(0, 0, 2, 3, ValueType.F64, rowIndices, 3,
                    colIndices, 3, values, 2));
                AssertStatus(Status.Format, () => writer.Finish());
                writer.AddCsr(0, 0, 2, 3, ValueType.F64, rowOffsets, 3, colIndices, 3, values, 3);
                writer.Finish();
                using (Reader reader = Reader.FromBytes(writer.ToArray()))
                {
                    Assert.ArrayEqual(expected, reader.ReadDoubles());
                }
            }
        }

        private static void AssertRejected<T>(string parameter, Action call) where T : ArgumentException
        {
            T error = Assert.Throws<T>(call, parameter);
            Assert.Equal(parameter, error.ParamName);
        }

        [Test]
        public void MisusedRawSparseAddressesAreRejectedInCSharp()
        {
            IntPtr memory = unmanaged.Filled(64, 8);
            IntPtr none = IntPtr.Zero;
            const ValueType F64 = ValueType.F64;
            using (Reader reader = Reader.FromBytes(CrossLanguageMatrix.Bytes()))
            {
                AssertRejected<ArgumentNullException>("rowOffsets",
                    () => reader.ReadCsr(F64, none, 7, memory, 30, memory, 30));
                AssertRejected<ArgumentNullException>("colIndices",
                    () => reader.ReadCsr(F64, memory, 7, none, 30, memory, 30));
                AssertRejected<ArgumentNullException>("values",
                    () => reader.ReadCsr(F64, memory, 7, memory, 30, none, 30));
                AssertRejected<ArgumentOutOfRangeException>("rowOffsetsCapacity",
                    () => reader.ReadCsr(F64, memory, -1, memory, 30, memory, 30));
                AssertRejected<ArgumentOutOfRangeException>("colIndicesCapacity",
                    () => reader.ReadCsr(F64, memory, 7, memory, -1, memory, 30));
                AssertRejected<ArgumentOutOfRangeException>("valuesCapacity",
                    () => reader.ReadCsr(F64, memory, 7, memory, 30, memory, -1));
                AssertRejected<ArgumentException>("type",
                    () => reader.ReadCsr(ValueType.None, memory, 7, memory, 30, memory, 30));
                // A zero address with a zero capacity is no misuse: the library answers that it is too small.
                AssertStatus(Status.BufferTooSmall, () => reader.ReadCsr(F64, memory, 7, none, 0, none, 0));

                Assert.True(reader.NextBlock());
                Block block = reader.CurrentBlock;
                AssertRejected<ArgumentNullException>("rowOffsets",
                    () => block.DecodeCsr(F64, none, 5, memory, 12, memory, 12));
                AssertRejected<ArgumentNullException>("colIndices",
                    () => block.DecodeCsr(F64, memory, 5, none, 12, memory, 12));
                AssertRejected<ArgumentNullException>("values",
                    () => block.DecodeCsr(F64, memory, 5, memory, 12, none, 12));
                AssertRejected<ArgumentOutOfRangeException>("rowOffsetsCapacity",
                    () => block.DecodeCsr(F64, memory, -5, memory, 12, memory, 12));
                AssertRejected<ArgumentOutOfRangeException>("colIndicesCapacity",
                    () => block.DecodeCsr(F64, memory, 5, memory, -12, memory, 12));
                AssertRejected<ArgumentOutOfRangeException>("valuesCapacity",
                    () => block.DecodeCsr(F64, memory, 5, memory, 12, memory, -12));
                AssertRejected<ArgumentException>("type",
                    () => block.DecodeCsr((ValueType)11, memory, 5, memory, 12, memory, 12));
                AssertRejected<ArgumentNullException>("rowIndices",
                    () => block.DecodeCoo(F64, none, 12, memory, 12, memory, 12));
                AssertRejected<ArgumentNullException>("colIndices",
                    () => block.DecodeCoo(F64, memory, 12, none, 12, memory, 12));
                AssertRejected<ArgumentNullException>("values",
                    () => block.DecodeCoo(F64, memory, 12, memory, 12, none, 12));
                AssertRejected<ArgumentOutOfRangeException>("rowIndicesCapacity",
                    () => block.DecodeCoo(F64, memory, -1, memory, 12, memory, 12));
                AssertRejected<ArgumentOutOfRangeException>("colIndicesCapacity",
                    () => block.DecodeCoo(F64, memory, 12, memory, -1, memory, 12));
                AssertRejected<ArgumentOutOfRangeException>("valuesCapacity",
                    () => block.DecodeCoo(F64, memory, 12, memory, 12, memory, -1));
                AssertRejected<ArgumentException>("type",
                    () => block.DecodeCoo(ValueType.None, memory, 12, memory, 12, memory, 12));
                AssertStatus(Status.BufferTooSmall, () => block.DecodeCoo(F64, none, 0, none, 0, none, 0));
                // Nothing above reached the library's output: the block still decodes.
                Assert.Equal(12, block.ToDoubleArray().Length);
            }
            using (Writer writer = Writer.ToMemory())
            {
                writer.BeginMatrix(DataType.Dense, ValueType.F64, 2, 2);
                AssertRejected<ArgumentNullException>("rowOffsets",
                    () => writer.AddCsr(0, 0, 2, 2, F64, none, 3, memory, 1, memory, 1));
                AssertRejected<ArgumentNullException>("colIndices",
                    () => writer.AddCsr(0, 0, 2, 2, F64, memory, 3, none, 1, memory, 1));
                AssertRejected<ArgumentNullException>("values",
                    () => writer.AddCsr(0, 0, 2, 2, F64, memory, 3, memory, 1, none, 1));
                AssertRejected<ArgumentOutOfRangeException>("rowOffsetsCount",
                    () => writer.AddCsr(0, 0, 2, 2, F64, memory, -3, memory, 1, memory, 1));
                AssertRejected<ArgumentOutOfRangeException>("colIndicesCount",
                    () => writer.AddCsr(0, 0, 2, 2, F64, memory, 3, memory, -1, memory, 1));
                AssertRejected<ArgumentOutOfRangeException>("valuesCount",
                    () => writer.AddCsr(0, 0, 2, 2, F64, memory, 3, memory, 1, memory, -1));
                AssertRejected<ArgumentException>("type",
                    () => writer.AddCsr(0, 0, 2, 2, ValueType.None, memory, 3, memory, 1, memory, 1));
                AssertRejected<ArgumentOutOfRangeException>("rows",
                    () => writer.AddCsr(0, 0, -2, 2, F64, memory, 3, memory, 1, memory, 1));
                AssertRejected<ArgumentNullException>("rowIndices",
                    () => writer.AddCoo(0, 0, 2, 2, F64, none, 1, memory, 1, memory, 1));
                AssertRejected<ArgumentNullException>("colIndices",
                    () => writer.AddCoo(0, 0, 2, 2, F64, memory, 1, none, 1, memory, 1));
                AssertRejected<ArgumentNullException>("values",
                    () => writer.AddCoo(0, 0, 2, 2, F64, memory, 1, memory, 1, none, 1));
                AssertRejected<ArgumentOutOfRangeException>("rowIndicesCount",
                    () => writer.AddCoo(0, 0, 2, 2, F64, memory, -1, memory, 1, memory, 1));
                AssertRejected<ArgumentOutOfRangeException>("colIndicesCount",
                    () => writer.AddCoo(0, 0, 2, 2, F64, memory, 1, memory, -1, memory, 1));
                AssertRejected<ArgumentOutOfRangeException>("valuesCount",
                    () => writer.AddCoo(0, 0, 2, 2, F64, memory, 1, memory, 1, memory, -1));
                AssertRejected<ArgumentException>("type",
                    () => writer.AddCoo(0, 0, 2, 2, (ValueType)0, memory, 1, memory, 1, memory, 1));
                AssertRejected<ArgumentOutOfRangeException>("cols",
                    () => writer.AddCoo(0, 0, 2, 1L << 32, F64, memory, 1, memory, 1, memory, 1));
                // Zero addresses with zero counts are no misuse: blocks without entries, as from empty arrays.
                writer.AddCoo(0, 0, 1, 2, F64, none, 0, none, 0, none, 0);
                writer.AddCsr(1, 0, 1, 2, F64, unmanaged.CopyOf(new ulong[] { 0, 0 }), 2, none, 0, none, 0);
                writer.Finish();
                using (Reader reader = Reader.FromBytes(writer.ToArray()))
                {
                    Assert.ArrayEqual(new double[4], reader.ReadDoubles());
                }
            }
        }

        /// <summary>
        /// A 1 x 2 u8 matrix whose two 1 x 1 dense blocks store the u16 values 256 and 300: each block breaks rule 8
        /// (every stored value representable in the object's value type), at its value.
        /// </summary>
        private static byte[] TwoUnrepresentableBlocks()
        {
            using (Writer writer = Writer.ToMemory())
            {
                writer.BeginMatrix(DataType.Dense, ValueType.U16, 1, 2);
                writer.AddDense(0, 0, 1, 1, new ushort[] { 256 }, 0, Encoding.AsGiven);
                writer.AddDense(0, 1, 1, 1, new ushort[] { 300 }, 0, Encoding.AsGiven);
                writer.Finish();
                byte[] bytes = writer.ToArray();
                // Made u8 only now (the header's last byte): the writer refuses values that u8 cannot hold.
                bytes[18] = (byte)ValueType.U8;
                return bytes;
            }
        }

        [Test]
        public void ViolationsListEveryBrokenRuleInFileOrder()
        {
            using (Reader reader = Reader.FromBytes(TwoUnrepresentableBlocks()))
            {
                IReadOnlyList<Violation> violations = reader.Violations();
                string all = string.Join(" | ", violations);
                // Each value follows its block's 26-byte record header: block 0 starts at byte 19, block 1 at byte 47.
                Assert.Equal(2, violations.Count, all);
                Assert.Equal(8, violations[0].Rule, all);
                Assert.Equal(45L, violations[0].Offset, all);
                Assert.Equal(8, violations[1].Rule, all);
                Assert.Equal(73L, violations[1].Offset, all);
                Assert.True(violations[0].Message.Contains("value 256"), violations[0].Message);
                Assert.True(violations[1].Message.Contains("value 300"), violations[1].Message);
                foreach (Violation violation in violations)
                {
                    Assert.True(violation.Message.EndsWith("at byte " + violation.Offset + " (rule 8)",
                        StringComparison.Ordinal), violation.Message);
                }
                Assert.Throws<NotSupportedException>(() => ((IList<Violation>)violations).Clear(),
                    "the list is read-only");
                // Validate() fails on the first violation, with the same message; checking leaves the reader as it was.
                DbdfException error = AssertStatus(Status.Range, () => reader.Validate());
                Assert.Equal(violations[0].Message, error.NativeMessage);
                Assert.SequenceEqual(violations, reader.Violations(), "violations found again");
                Assert.True(reader.NextBlock());
                Assert.Equal(0L, reader.CurrentBlock.Index);
            }
        }

        [Test]
        public void ViolationIsAValue()
        {
            Violation violation = new Violation(12, 57, "row 0 has column index 2 at byte 57 (rule 12)");
            Assert.Equal(12, violation.Rule);
            Assert.Equal(57L, violation.Offset);
            Assert.Equal("row 0 has column index 2 at byte 57 (rule 12)", violation.Message);
            Assert.Equal("row 0 has column index 2 at byte 57 (rule 12)", violation.ToString());
            Assert.True(violation.Equals(new Violation(12, 57, violation.Message)), "equal to the same violation");
            Assert.Equal(new Violation(12, 57, violation.Message).GetHashCode(), violation.GetHashCode());
            Assert.False(violation.Equals(new Violation(12, 58, violation.Message)), "another offset");
            Assert.False(violation.Equals(null), "not null");
            Assert.Throws<ArgumentNullException>(() => new Violation(0, 0, null));
        }

        [Test]
        public void DisposedHandlesThrowObjectDisposed()
        {
            // Raw addresses of real memory, so that only the disposed handle is wrong.
            IntPtr memory = unmanaged.Filled(64, 8);
            IntPtr offsets = unmanaged.CopyOf(new ulong[] { 0, 1 });
            Reader reader = Reader.FromBytes(CrossLanguageMatrix.Bytes());
            Assert.True(reader.NextBlock());
            Block block = reader.CurrentBlock;
            reader.Dispose();
            reader.Dispose(); // idempotent
            Assert.True(reader.IsDisposed);
            List<Action> readerCalls = new List<Action>
            {
                () => { ObjectInfo unused = reader.Info; }, () => reader.NextBlock(),
                () => { Block unused = reader.CurrentBlock; }, () => reader.Rewind(), () => reader.BuildIndex(),
                () => reader.IndexEntry(0), () => reader.SeekBlock(0), () => reader.ReadDoubles(),
                () => reader.ReadDense(new double[30]), () => reader.CountEntries(), () => reader.Validate(),
                () => reader.Violations(), () => reader.ColumnType(0), () => reader.Blocks(),
                () => reader.GetEnumerator(),
                () => block.ToDoubleArray(), () => block.OpenPayload(), () => block.CountEntries(),
                () => block.DecodeCoo(new uint[9], new uint[9], new double[9]),
                () => reader.ReadCsr(ValueType.F64, memory, 7, memory, 30, memory, 30),
                () => block.DecodeCsr(ValueType.F64, memory, 5, memory, 12, memory, 12),
                () => block.DecodeCoo(ValueType.F64, memory, 12, memory, 12, memory, 12)
            };
            foreach (Action call in readerCalls)
            {
                Assert.Throws<ObjectDisposedException>(call);
            }

            Writer writer = Writer.ToMemory();
            writer.BeginMatrix(DataType.Dense, ValueType.F64, 1, 1);
            writer.Dispose();
            writer.Dispose();
            Assert.True(writer.IsDisposed);
            List<Action> writerCalls = new List<Action>
            {
                () => writer.AddDense(0, 0, 1, 1, new double[1]), () => writer.AddEmpty(0, 0, 1, 1),
                () => writer.Finish(), () => { long unused = writer.BytesWritten; }, () => writer.ToArray(),
                () => writer.BeginMatrix(DataType.Dense, ValueType.F64, 1, 1), () => writer.WriteColumn(0, new int[1]),
                () => writer.AddCsr(0, 0, 1, 1, ValueType.F64, offsets, 2, memory, 1, memory, 1),
                () => writer.AddCoo(0, 0, 1, 1, ValueType.F64, memory, 1, memory, 1, memory, 1)
            };
            foreach (Action call in writerCalls)
            {
                Assert.Throws<ObjectDisposedException>(call);
            }
        }

        [Test]
        public void AbandonedFileWriterLeavesTheTargetUntouched()
        {
            string target = temporary.File("kept.dbdf");
            File.WriteAllBytes(target, new byte[] { 42 });
            using (Writer writer = Writer.ToFile(target))
            {
                writer.BeginMatrix(DataType.Dense, ValueType.F64, 2, 2);
                writer.AddEmpty(0, 0, 2, 2);
                // No Finish: disposing discards everything.
            }
            Assert.ArrayEqual(new byte[] { 42 }, File.ReadAllBytes(target));
            Assert.Equal(1, Directory.GetFiles(temporary.Path).Length, "no temporary file is left behind");
            DirectoryNotFoundException missing = Assert.Throws<DirectoryNotFoundException>(
                () => Writer.ToFile(Path.Combine(temporary.File("no-such-dir"), "x.dbdf")));
            Assert.Equal(Status.Io, ((DbdfException)missing.InnerException).Status);
        }

        [Test]
        public void FinalizerFreesHandlesThatWereNeverDisposed()
        {
            string target = temporary.File("abandoned.dbdf");
            AbandonWriter(target);
            AbandonReader();
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
            Assert.Equal(0, Directory.GetFiles(temporary.Path).Length,
                "the finalizer freed the writer, which removed its temporary file");
        }

        // Not inlined, so that the handles are unreachable once the method returns.
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void AbandonWriter(string target)
        {
            Writer writer = Writer.ToFile(target);
            writer.BeginMatrix(DataType.Dense, ValueType.F64, 1, 1);
            writer.AddDense(0, 0, 1, 1, new[] { 1.0 });
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void AbandonReader()
        {
            Reader reader = Reader.FromBytes(CrossLanguageMatrix.Bytes());
            reader.NextBlock();
        }

        /// <summary>The generated layer alone must not crash either: a freed handle is a NULL handle to the library.</summary>
        [Test]
        public void GeneratedClassesSurviveMisuse()
        {
            DbdfLibrary.Load();
            NativeWriter writer = new NativeWriter();
            writer.Dispose();
            writer.Dispose();
            AssertStatus(Status.InvalidArgument, () => writer.finish_object());
            AssertStatus(Status.InvalidArgument, () => writer.put_dense(0, 0, 1, 1, (int)ValueType.F64, IntPtr.Zero, 8,
                0, 0));

            byte[] bytes = CrossLanguageMatrix.Bytes();
            IntPtr memory = Marshal.AllocHGlobal(bytes.Length);
            Marshal.Copy(bytes, 0, memory, bytes.Length);
            NativeReader reader = new NativeReader(memory, (ulong)bytes.Length);
            NativeBlockInfo info = new NativeBlockInfo();
            try
            {
                Assert.True(reader.move_next(info));
                IntPtr output = Marshal.AllocHGlobal(12 * 8);
                try
                {
                    // Value buffers are sized in bytes: 12 * 4 bytes hold only 6 doubles.
                    AssertStatus(Status.BufferTooSmall, () => reader.decode_dense((int)ValueType.F64, output, 12 * 4, 0));
                    AssertStatus(Status.InvalidArgument, () => reader.decode_dense(99, output, 12 * 8, 0));
                    reader.decode_dense((int)ValueType.F64, output, 12 * 8, 0);
                    Assert.Equal(0.5, BitConverter.Int64BitsToDouble(Marshal.ReadInt64(output, 8)));
                }
                finally
                {
                    Marshal.FreeHGlobal(output);
                }
                AssertStatus(Status.InvalidArgument, () => reader.current_block(null));
                NativeViolations found = reader.find_violations();
                Assert.Equal(0UL, found.count());
                AssertStatus(Status.InvalidArgument, () => found.rule(0));
                AssertStatus(Status.InvalidArgument, () => found.message_bytes(ulong.MaxValue));
                found.Dispose();
                found.Dispose();
                AssertStatus(Status.InvalidArgument, () => found.count());
                AssertStatus(Status.InvalidArgument, () => found.offset(0));
                reader.Dispose();
                AssertStatus(Status.InvalidArgument, () => reader.move_next(info));
                AssertStatus(Status.InvalidArgument, () => reader.payload());
                AssertStatus(Status.InvalidArgument, () => reader.find_violations());
            }
            finally
            {
                reader.Dispose();
                info.Dispose();
                Marshal.FreeHGlobal(memory);
            }
        }
    }
}
