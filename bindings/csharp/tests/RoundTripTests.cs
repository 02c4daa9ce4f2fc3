using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Threading;

namespace Dbdf.Tests
{
    /// <summary>Objects written through the binding and read back, for every value type and block type.</summary>
    public sealed class RoundTripTests : IDisposable
    {
        private const int Rows = 5;
        private const int Cols = 7;
        /// <summary>Tiles of at most 3 x 4: (row, col, rows, cols).</summary>
        private static readonly int[][] Tiles =
        {
            new[] { 0, 0, 3, 4 }, new[] { 0, 4, 3, 3 }, new[] { 3, 0, 2, 4 }, new[] { 3, 4, 2, 3 }
        };

        private readonly TemporaryDirectory temporary = new TemporaryDirectory();

        public void Dispose()
        {
            temporary.Dispose();
        }

        /// <summary>Adds one tile as the given block type, as given (no re-encoding).</summary>
        private static void AddTile(Writer writer, ValueType type, BlockType blockType, ulong[] tileBits, int[] tile)
        {
            long row = tile[0], col = tile[1], rows = tile[2], cols = tile[3];
            switch (blockType)
            {
                case BlockType.Empty:
                    writer.AddEmpty(row, col, rows, cols);
                    break;
                case BlockType.Dense:
                    TestData.Call(writer, "AddDense", row, col, rows, cols, TestData.FromBits(type, tileBits), 0L,
                        Encoding.AsGiven);
                    break;
                case BlockType.Csr:
                {
                    SparseTile sparse = new SparseTile(tileBits, (int)rows, (int)cols);
                    TestData.Call(writer, "AddCsr", row, col, rows, cols, sparse.RowOffsets, sparse.ColIndices,
                        TestData.FromBits(type, sparse.ValueBits), Encoding.AsGiven);
                    break;
                }
                case BlockType.Coo:
                {
                    SparseTile sparse = new SparseTile(tileBits, (int)rows, (int)cols);
                    TestData.Call(writer, "AddCoo", row, col, rows, cols, sparse.RowIndices, sparse.ColIndices,
                        TestData.FromBits(type, sparse.ValueBits), Encoding.AsGiven);
                    break;
                }
            }
        }

        /// <summary>The non-zero cells of a row-major tile, row by row, as CSR row offsets and COO row indices.</summary>
        private sealed class SparseTile
        {
            public readonly ulong[] RowOffsets;
            public readonly uint[] RowIndices;
            public readonly uint[] ColIndices;
            public readonly ulong[] ValueBits;

            public SparseTile(ulong[] tileBits, int rows, int cols)
            {
                RowOffsets = new ulong[rows + 1];
                List<uint> rowIndices = new List<uint>();
                List<uint> colIndices = new List<uint>();
                List<ulong> values = new List<ulong>();
                for (int i = 0; i < rows; i++)
                {
                    for (int j = 0; j < cols; j++)
                    {
                        if (tileBits[i * cols + j] != 0)
                        {
                            rowIndices.Add((uint)i);
                            colIndices.Add((uint)j);
                            values.Add(tileBits[i * cols + j]);
                        }
                    }
                    RowOffsets[i + 1] = (ulong)colIndices.Count;
                }
                RowIndices = rowIndices.ToArray();
                ColIndices = colIndices.ToArray();
                ValueBits = values.ToArray();
            }
        }

        private static void CheckBlockByBlock(Reader reader, ValueType type, BlockType blockType, ulong[] matrixBits)
        {
            int seen = 0;
            foreach (Block block in reader.Blocks())
            {
                int[] tile = Tiles[seen];
                string where = "block " + seen + " of " + type + " as " + blockType;
                Assert.Equal((long)seen, block.Index, where);
                Assert.Equal((long)tile[0], block.Row, where);
                Assert.Equal((long)tile[1], block.Col, where);
                Assert.Equal((long)tile[2], block.Rows, where);
                Assert.Equal((long)tile[3], block.Cols, where);
                Assert.Equal(blockType, block.BlockType, where);
                Assert.Equal(blockType == BlockType.Empty ? ValueType.None : type, block.ValueType, where);
                ulong[] expected = TestData.Tile(matrixBits, Cols, tile[0], tile[1], tile[2], tile[3]);
                Array decoded = TestData.NewArray(type, tile[2] * tile[3]);
                TestData.Call(block, "DecodeDense", decoded, 0L);
                Assert.ArrayEqual(expected, TestData.ToBits(decoded), where);

                long nonZeros = expected.Count(bits => bits != 0);
                long entries = block.CountEntries();
                Assert.Equal(nonZeros, entries, where + " entries");
                ulong[] rowOffsets = new ulong[tile[2] + 1];
                uint[] colIndices = new uint[entries];
                Array values = TestData.NewArray(type, entries);
                Assert.Equal(entries, (long)TestData.Call(block, "DecodeCsr", rowOffsets, colIndices, values));
                ulong[] valueBits = TestData.ToBits(values);
                int entry = 0;
                for (int i = 0; i < tile[2]; i++)
                {
                    Assert.Equal((ulong)entry, rowOffsets[i], where + " row offset " + i);
                    for (int j = 0; j < tile[3]; j++)
                    {
                        if (expected[i * tile[3] + j] != 0)
                        {
                            Assert.Equal((uint)j, colIndices[entry], where + " column of entry " + entry);
                            Assert.Equal(expected[i * tile[3] + j], valueBits[entry], where + " value of entry " + entry);
                            entry++;
                        }
                    }
                }
                Assert.Equal((ulong)entry, rowOffsets[tile[2]], where + " last row offset");

                uint[] cooRows = new uint[entries];
                uint[] cooCols = new uint[entries];
                Array cooValues = TestData.NewArray(type, entries);
                Assert.Equal(entries, (long)TestData.Call(block, "DecodeCoo", cooRows, cooCols, cooValues));
                Assert.ArrayEqual(valueBits, TestData.ToBits(cooValues), where + " COO values");
                for (int k = 0; k < entries; k++)
                {
                    Assert.Equal(expected[cooRows[k] * tile[3] + cooCols[k]], valueBits[k], where + " COO entry " + k);
                }
                seen++;
            }
            Assert.Equal(Tiles.Length, seen, "blocks");

            Array whole = TestData.NewArray(type, Rows * Cols);
            TestData.Call(reader, "ReadDense", whole, 0L);
            Assert.ArrayEqual(matrixBits, TestData.ToBits(whole), "whole object");
        }

        [TestCases]
        public IEnumerable<TestCase> EveryBlockTypeRoundTripsForEveryValueType()
        {
            foreach (ValueType type in TestData.DataTypes)
            {
                foreach (BlockType blockType in Enum.GetValues(typeof(BlockType)))
                {
                    ValueType valueType = type;
                    BlockType storedAs = blockType;
                    yield return new TestCase(type + " as " + blockType, () => RoundTrip(valueType, storedAs));
                }
            }
        }

        private static void RoundTrip(ValueType type, BlockType blockType)
        {
            ulong[] matrixBits = blockType == BlockType.Empty ? new ulong[Rows * Cols]
                : TestData.SampleBits(type, Rows, Cols);
            byte[] bytes;
            using (Writer writer = Writer.ToMemory())
            {
                writer.BeginMatrix(DataType.Dense, type, Rows, Cols);
                foreach (int[] tile in Tiles)
                {
                    AddTile(writer, type, blockType, TestData.Tile(matrixBits, Cols, tile[0], tile[1], tile[2], tile[3]),
                        tile);
                }
                writer.Finish();
                Assert.True(writer.BytesWritten > 19, "bytes written");
                bytes = writer.ToArray();
                Assert.Equal(writer.BytesWritten, (long)bytes.Length, "memory output size");
            }
            using (Reader reader = Reader.FromBytes(bytes))
            {
                Assert.Equal(new ObjectInfo(DataType.Dense, type, Rows, Cols, 19, bytes.Length), reader.Info);
                reader.Validate();
                CheckBlockByBlock(reader, type, blockType, matrixBits);
            }
        }

        [TestCases]
        public IEnumerable<TestCase> SparseRawAddressesMatchTheArrayOverloads()
        {
            foreach (ValueType type in TestData.DataTypes)
            {
                ValueType valueType = type;
                yield return new TestCase(type.ToString(), () => SparseThroughRawAddresses(valueType));
            }
        }

        /// <summary>
        /// CSR and COO blocks added from unmanaged memory give the bytes the array overloads give; CSR and COO decoded
        /// into unmanaged memory, block by block and object-wide, are the bytes the array overloads decode.
        /// </summary>
        private static void SparseThroughRawAddresses(ValueType type)
        {
            ulong[] matrixBits = TestData.SampleBits(type, Rows, Cols);
            foreach (BlockType blockType in new[] { BlockType.Csr, BlockType.Coo })
            {
                string where = type + " as " + blockType;
                byte[] bytes = WriteSparseTiles(type, blockType, matrixBits, true);
                Assert.ArrayEqual(WriteSparseTiles(type, blockType, matrixBits, false), bytes,
                    where + ": the same bytes");
                using (Reader reader = Reader.FromBytes(bytes))
                using (UnmanagedBuffers unmanaged = new UnmanagedBuffers())
                {
                    int size = type.Size();
                    foreach (Block block in reader.Blocks())
                    {
                        string blockWhere = where + ", block " + block.Index;
                        Assert.Equal(blockType, block.BlockType, blockWhere);
                        long entries = block.CountEntries();
                        Assert.True(entries > 0, blockWhere + " has entries");

                        ulong[] rowOffsets = new ulong[block.Rows + 1];
                        uint[] colIndices = new uint[entries];
                        Array values = TestData.NewArray(type, entries);
                        Assert.Equal(entries, (long)TestData.Call(block, "DecodeCsr", rowOffsets, colIndices, values));
                        IntPtr rawOffsets = unmanaged.Filled(rowOffsets.Length, 8);
                        IntPtr rawColumns = unmanaged.Filled(entries, 4);
                        IntPtr rawValues = unmanaged.Filled(entries, size);
                        Assert.Equal(entries, block.DecodeCsr(type, rawOffsets, rowOffsets.Length, rawColumns, entries,
                            rawValues, entries), blockWhere + " CSR entries");
                        AssertSameBytes(rowOffsets, rawOffsets, blockWhere + " CSR row offsets");
                        AssertSameBytes(colIndices, rawColumns, blockWhere + " CSR column indices");
                        AssertSameBytes(values, rawValues, blockWhere + " CSR values");

                        uint[] cooRows = new uint[entries];
                        uint[] cooCols = new uint[entries];
                        Array cooValues = TestData.NewArray(type, entries);
                        Assert.Equal(entries, (long)TestData.Call(block, "DecodeCoo", cooRows, cooCols, cooValues));
                        IntPtr rawRows = unmanaged.Filled(entries, 4);
                        rawColumns = unmanaged.Filled(entries, 4);
                        rawValues = unmanaged.Filled(entries, size);
                        Assert.Equal(entries, block.DecodeCoo(type, rawRows, entries, rawColumns, entries, rawValues,
                            entries), blockWhere + " COO entries");
                        AssertSameBytes(cooRows, rawRows, blockWhere + " COO row indices");
                        AssertSameBytes(cooCols, rawColumns, blockWhere + " COO column indices");
                        AssertSameBytes(cooValues, rawValues, blockWhere + " COO values");
                    }

                    long objectEntries = reader.CountEntries();
                    ulong[] objectOffsets = new ulong[Rows + 1];
                    ulong[] objectColumns = new ulong[objectEntries];
                    Array objectValues = TestData.NewArray(type, objectEntries);
                    Assert.Equal(objectEntries,
                        (long)TestData.Call(reader, "ReadCsr", objectOffsets, objectColumns, objectValues));
                    IntPtr rawObjectOffsets = unmanaged.Filled(objectOffsets.Length, 8);
                    IntPtr rawObjectColumns = unmanaged.Filled(objectEntries, 8);
                    IntPtr rawObjectValues = unmanaged.Filled(objectEntries, size);
                    Assert.Equal(objectEntries, reader.ReadCsr(type, rawObjectOffsets, objectOffsets.Length,
                        rawObjectColumns, objectEntries, rawObjectValues, objectEntries), where + " object entries");
                    AssertSameBytes(objectOffsets, rawObjectOffsets, where + " object row offsets");
                    AssertSameBytes(objectColumns, rawObjectColumns, where + " object column indices");
                    AssertSameBytes(objectValues, rawObjectValues, where + " object values");
                }
            }
        }

        /// <summary>
        /// The sample matrix in <see cref="Tiles"/>, each tile a CSR or COO block as given: from arrays, or from
        /// unmanaged copies of the same arrays.
        /// </summary>
        private static byte[] WriteSparseTiles(ValueType type, BlockType blockType, ulong[] matrixBits,
                                               bool fromAddresses)
        {
            using (Writer writer = Writer.ToMemory())
            using (UnmanagedBuffers unmanaged = new UnmanagedBuffers())
            {
                writer.BeginMatrix(DataType.Dense, type, Rows, Cols);
                foreach (int[] tile in Tiles)
                {
                    ulong[] tileBits = TestData.Tile(matrixBits, Cols, tile[0], tile[1], tile[2], tile[3]);
                    if (!fromAddresses)
                    {
                        AddTile(writer, type, blockType, tileBits, tile);
                        continue;
                    }
                    SparseTile sparse = new SparseTile(tileBits, tile[2], tile[3]);
                    Array values = TestData.FromBits(type, sparse.ValueBits);
                    IntPtr rawColumns = unmanaged.CopyOf(sparse.ColIndices);
                    IntPtr rawValues = unmanaged.CopyOf(values);
                    if (blockType == BlockType.Csr)
                    {
                        writer.AddCsr(tile[0], tile[1], tile[2], tile[3], type, unmanaged.CopyOf(sparse.RowOffsets),
                            sparse.RowOffsets.Length, rawColumns, sparse.ColIndices.Length, rawValues, values.Length,
                            Encoding.AsGiven);
                    }
                    else
                    {
                        writer.AddCoo(tile[0], tile[1], tile[2], tile[3], type, unmanaged.CopyOf(sparse.RowIndices),
                            sparse.RowIndices.Length, rawColumns, sparse.ColIndices.Length, rawValues, values.Length,
                            Encoding.AsGiven);
                    }
                }
                writer.Finish();
                return writer.ToArray();
            }
        }

        /// <summary>The bytes at <paramref name="actual"/> are those of the array, bit for bit.</summary>
        private static void AssertSameBytes(Array expected, IntPtr actual, string message)
        {
            byte[] bytes = UnmanagedBuffers.BytesOf(expected);
            Assert.ArrayEqual(bytes, UnmanagedBuffers.Read(actual, bytes.Length, 1), message);
        }

        [TestCases]
        public IEnumerable<TestCase> AutomaticEncodingRoundTripsExactly()
        {
            foreach (ValueType type in TestData.DataTypes)
            {
                ValueType valueType = type;
                yield return new TestCase(type.ToString(), () =>
                {
                    using (TemporaryDirectory directory = new TemporaryDirectory())
                    {
                        ulong[] matrixBits = TestData.SampleBits(valueType, Rows, Cols);
                        string file = directory.File("auto-" + valueType + ".dbdf");
                        using (Writer writer = Writer.ToFile(file))
                        {
                            writer.BeginMatrix(DataType.Csr, valueType, Rows, Cols);
                            TestData.Call(writer, "WriteDense", TestData.FromBits(valueType, matrixBits), 0L,
                                Encoding.Auto, 3L, 4L);
                            writer.Finish();
                        }
                        using (Reader reader = Reader.Open(file))
                        {
                            Assert.Equal(DataType.Csr, reader.Info.DataType);
                            Assert.Equal(valueType, reader.Info.ValueType);
                            Assert.Equal(4L, reader.BuildIndex());
                            Array whole = TestData.NewArray(valueType, Rows * Cols);
                            TestData.Call(reader, "ReadDense", whole, 0L);
                            Assert.ArrayEqual(matrixBits, TestData.ToBits(whole), "bits survive automatic encoding");
                        }
                    }
                });
            }
        }

        [Test]
        public void AutomaticEncodingNarrowsAndDropsZeros()
        {
            // Left tile (4 x 3): small non-negative integers; right tile (4 x 3): all zero; both given as f64.
            double[] values = new double[4 * 6];
            for (int row = 0; row < 4; row++)
            {
                for (int col = 0; col < 3; col++)
                {
                    values[row * 6 + col] = row * 3 + col + 1;
                }
            }
            byte[] bytes;
            using (Writer writer = Writer.ToMemory())
            {
                writer.BeginMatrix(DataType.Dense, ValueType.F64, 4, 6);
                writer.WriteDense(values, 0, Encoding.Auto, 4, 3);
                writer.Finish();
                bytes = writer.ToArray();
            }
            using (Reader reader = Reader.FromBytes(bytes))
            {
                Assert.True(reader.NextBlock());
                Block left = reader.CurrentBlock;
                Assert.Equal(BlockType.Dense, left.BlockType);
                Assert.Equal(ValueType.U8, left.ValueType, "values 1..12 fit in u8 exactly");
                // Zero-copy view of the stored payload: 12 u8 values, row-major.
                using (UnmanagedMemoryStream payload = left.OpenPayload())
                {
                    Assert.False(payload.CanWrite, "the payload is read-only");
                    Assert.Equal(12L, payload.Length);
                    for (int index = 0; index < 12; index++)
                    {
                        Assert.Equal(index + 1, payload.ReadByte());
                    }
                }
                Assert.ArrayEqual(Enumerable.Range(1, 12).Select(value => (byte)value).ToArray(), left.PayloadToArray());
                Assert.ArrayEqual(new double[] { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }, left.ToDoubleArray());
                Assert.True(reader.NextBlock());
                Assert.Equal(BlockType.Empty, reader.CurrentBlock.BlockType);
                Assert.Equal(0, reader.CurrentBlock.PayloadToArray().Length);
                Assert.ArrayEqual(new double[12], reader.CurrentBlock.ToDoubleArray());
                Assert.False(reader.NextBlock());
                Assert.ArrayEqual(values, reader.ReadDoubles());
            }
        }

        [Test]
        public void NegativeZeroAndNanPayloadsSurviveAutomaticEncoding()
        {
            double[] values = { TestData.NegativeZero, BitConverter.Int64BitsToDouble(0x7FF800000000BEEF), 0.0, 1.0 };
            float[] singles = { TestData.NegativeZeroSingle, BitConverter.ToSingle(BitConverter.GetBytes(0x7FC01234), 0), 0.0f, 2.5f };
            byte[] bytes;
            using (Writer writer = Writer.ToMemory())
            {
                writer.BeginMatrix(DataType.Dense, ValueType.F64, 2, 4);
                writer.AddDense(0, 0, 1, 4, values);
                writer.AddDense(1, 0, 1, 4, singles);
                writer.Finish();
                bytes = writer.ToArray();
            }
            using (Reader reader = Reader.FromBytes(bytes))
            {
                Assert.True(reader.NextBlock());
                // A NaN with a 64-bit payload does not fit f32 exactly: the block stays f64.
                Assert.Equal(ValueType.F64, reader.CurrentBlock.ValueType);
                Assert.True(reader.NextBlock());
                Assert.Equal(ValueType.F32, reader.CurrentBlock.ValueType, "f32 values stay f32");
                double[] read = reader.ReadDoubles();
                Assert.Equal(0x8000000000000000UL, TestData.DoubleBits(read[0]), "-0.0");
                Assert.Equal(0x7FF800000000BEEFUL, TestData.DoubleBits(read[1]), "NaN payload");
                Assert.Equal(0x8000000000000000UL, TestData.DoubleBits(read[4]), "-0.0 from f32");
                float[] readSingles = new float[4];
                reader.ReadWindow(1, 0, 1, 4, readSingles);
                Assert.Equal(0x7FC01234UL, TestData.FloatBits(readSingles[1]), "f32 NaN payload");
                Assert.Equal(2.5f, readSingles[3]);
            }
        }

        [Test]
        public void SingleColumnBlocksOfEveryKind()
        {
            foreach (BlockType blockType in Enum.GetValues(typeof(BlockType)))
            {
                byte[] bytes;
                uint[] cooRows = { 1, 3 };
                uint[] cooCols = { 0, 0 };
                int[] values = { -7, 42 };
                using (Writer writer = Writer.ToMemory())
                {
                    writer.BeginMatrix(DataType.Dense, ValueType.I32, 4, 1);
                    switch (blockType)
                    {
                        case BlockType.Empty:
                            writer.AddEmpty(0, 0, 4, 1);
                            break;
                        case BlockType.Dense:
                            writer.AddDense(0, 0, 4, 1, new[] { 0, -7, 0, 42 }, 0, Encoding.AsGiven);
                            break;
                        case BlockType.Csr:
                            writer.AddCsr(0, 0, 4, 1, new ulong[] { 0, 0, 1, 1, 2 }, new uint[] { 0, 0 }, values,
                                Encoding.AsGiven);
                            break;
                        case BlockType.Coo:
                            writer.AddCoo(0, 0, 4, 1, cooRows, cooCols, values, Encoding.AsGiven);
                            break;
                    }
                    writer.Finish();
                    bytes = writer.ToArray();
                }
                using (Reader reader = Reader.FromBytes(bytes))
                {
                    Assert.True(reader.NextBlock());
                    Assert.Equal(blockType, reader.CurrentBlock.BlockType);
                    int[] decoded = new int[4];
                    reader.CurrentBlock.DecodeDense(decoded);
                    int[] expected = blockType == BlockType.Empty ? new int[4] : new[] { 0, -7, 0, 42 };
                    Assert.ArrayEqual(expected, decoded, blockType.ToString());
                    Assert.False(reader.NextBlock());
                }
            }
        }

        [Test]
        public void FrameColumnsKeepTheirTypesAndLabels()
        {
            // A non-ASCII file name crosses as UTF-8.
            string file = temporary.File("frame-größe.dbdf");
            int[] ids = { 10, -20, 30, 0, 50 };
            double[] scores = { 0.5, double.NaN, TestData.NegativeZero, 1e-310, 7 };
            byte[] flags = { 1, 0, 0xFF, 0, 1 };
            string[] labels = { "id", "größe", "flag" };
            using (Writer writer = Writer.ToFile(file))
            {
                writer.BeginFrame(5, new[] { ValueType.I32, ValueType.F64, ValueType.U8 }, labels);
                writer.WriteColumn(0, ids);
                writer.WriteColumn(1, scores, Encoding.Auto, 2);
                writer.WriteColumn(2, flags);
                writer.Finish();
            }
            using (Reader reader = Reader.Open(file))
            {
                Assert.Equal(DataType.Frame, reader.Info.DataType);
                Assert.Equal(ValueType.None, reader.Info.ValueType);
                Assert.Equal(5L, reader.Info.Rows);
                Assert.Equal(3L, reader.Info.Cols);
                Assert.Equal(ValueType.I32, reader.ColumnType(0));
                Assert.Equal(ValueType.F64, reader.ColumnType(1));
                Assert.Equal(ValueType.U8, reader.ColumnType(2));
                for (int column = 0; column < 3; column++)
                {
                    Assert.Equal(labels[column], reader.ColumnLabel(column));
                }
                Assert.ArrayEqual(System.Text.Encoding.UTF8.GetBytes("größe"), reader.ColumnLabelBytes(1));
                int[] idsRead = new int[5];
                reader.ReadColumn(0, idsRead);
                Assert.ArrayEqual(ids, idsRead);
                double[] scoresRead = new double[5];
                reader.ReadColumn(1, scoresRead);
                Assert.ArrayEqual(scores.Select(TestData.DoubleBits).ToArray(),
                    scoresRead.Select(TestData.DoubleBits).ToArray(), "scores bit for bit");
                Assert.Equal(0x8000000000000000UL, TestData.DoubleBits(scoresRead[2]), "-0.0 survives");
                byte[] flagsRead = new byte[5];
                reader.ReadColumn(2, flagsRead);
                Assert.ArrayEqual(flags, flagsRead);
                Assert.Equal((byte)255, flagsRead[2]);
                reader.Validate();
            }
            Assert.True(File.Exists(file), "the file has the name it was given");
        }

        [Test]
        public void RawAddressesCrossWithoutCopies()
        {
            // Values from unmanaged memory, and reading into unmanaged memory.
            IntPtr input = Marshal.AllocHGlobal(6 * 8);
            IntPtr output = Marshal.AllocHGlobal(6 * 8);
            IntPtr blockOutput = Marshal.AllocHGlobal(6 * 8);
            try
            {
                for (int index = 0; index < 6; index++)
                {
                    Marshal.WriteInt64(input, index * 8, index % 2 == 0 ? 0 : -index * 1000000000000L);
                }
                byte[] bytes;
                using (Writer writer = Writer.ToMemory())
                {
                    writer.BeginMatrix(DataType.Dense, ValueType.I64, 2, 3);
                    writer.WriteDense(ValueType.I64, input, 6);
                    writer.Finish();
                    bytes = writer.ToArray();
                }
                IntPtr file = Marshal.AllocHGlobal(bytes.Length);
                try
                {
                    Marshal.Copy(bytes, 0, file, bytes.Length);
                    using (Reader reader = Reader.FromMemory(file, bytes.Length))
                    {
                        reader.ReadDense(ValueType.I64, output, 6);
                        for (int index = 0; index < 6; index++)
                        {
                            Assert.Equal(Marshal.ReadInt64(input, index * 8), Marshal.ReadInt64(output, index * 8));
                        }
                        Assert.True(reader.NextBlock());
                        reader.CurrentBlock.DecodeDense(ValueType.I64, blockOutput, 6);
                        Assert.Equal(-1000000000000L, Marshal.ReadInt64(blockOutput, 8));
                        Assert.Equal(-5000000000000L, Marshal.ReadInt64(blockOutput, 40));
                        reader.ReadColumn(1, ValueType.I64, output, 2);
                        Assert.Equal(-1000000000000L, Marshal.ReadInt64(output, 0), "column 1, row 0");
                        Assert.Equal(0L, Marshal.ReadInt64(output, 8), "column 1, row 1");
                        // The capacity given with an address bounds what the library writes.
                        DbdfException tooSmall = Assert.Throws<DbdfException>(
                            () => reader.ReadColumn(1, ValueType.I64, output, 1));
                        Assert.Equal(Status.BufferTooSmall, tooSmall.Status);
                    }
                }
                finally
                {
                    Marshal.FreeHGlobal(file);
                }
            }
            finally
            {
                Marshal.FreeHGlobal(input);
                Marshal.FreeHGlobal(output);
                Marshal.FreeHGlobal(blockOutput);
            }
        }

        [Test]
        public void RawAddressOverloadsOfBlocksColumnsAndWindows()
        {
            IntPtr memory = Marshal.AllocHGlobal(8 * 4);
            try
            {
                for (int index = 0; index < 8; index++)
                {
                    Marshal.WriteInt32(memory, index * 4, index * 10 - 30);
                }
                byte[] matrix;
                using (Writer writer = Writer.ToMemory())
                {
                    writer.BeginMatrix(DataType.Dense, ValueType.I32, 2, 4);
                    // Two 2 x 2 blocks from the same memory: the right one starts 2 elements in, rows 4 apart.
                    writer.AddDense(0, 0, 2, 2, ValueType.I32, memory, 8, 4);
                    writer.AddDense(0, 2, 2, 2, ValueType.I32, memory + 8, 6, 4, Encoding.AsGiven);
                    writer.Finish();
                    matrix = writer.ToArray();
                }
                byte[] frame;
                using (Writer writer = Writer.ToMemory())
                {
                    writer.BeginFrame(8, new[] { ValueType.I16 }, new[] { "c" });
                    writer.WriteColumn(0, ValueType.I32, memory, 8, Encoding.Auto, 3);
                    writer.Finish();
                    frame = writer.ToArray();
                }
                using (Reader reader = Reader.FromBytes(matrix))
                {
                    Assert.ArrayEqual(new[] { -30, -20, -10, 0, 10, 20, 30, 40 }, reader.ReadDense<int>());
                    reader.ReadWindow(0, 1, 2, 2, ValueType.I32, memory, 4);
                    Assert.Equal(-20, Marshal.ReadInt32(memory, 0));
                    Assert.Equal(-10, Marshal.ReadInt32(memory, 4));
                    Assert.Equal(20, Marshal.ReadInt32(memory, 8));
                    Assert.Equal(30, Marshal.ReadInt32(memory, 12));
                    AssertTooSmall(() => reader.ReadWindow(0, 1, 2, 2, ValueType.I32, memory, 3));
                }
                using (Reader reader = Reader.FromBytes(frame))
                {
                    Assert.Equal(3L, reader.BuildIndex(), "blocks of 3 rows");
                    Assert.ArrayEqual(new short[] { -30, -20, -10, 0, 10, 20, 30, 40 }, reader.ReadDense<short>());
                }
            }
            finally
            {
                Marshal.FreeHGlobal(memory);
            }
        }

        private static void AssertTooSmall(Action call)
        {
            Assert.Equal(Status.BufferTooSmall, Assert.Throws<DbdfException>(call).Status);
        }

        [Test]
        public void IndexWindowAndObjectCsr()
        {
            double[] values = CrossLanguageMatrix.Values();
            string file = temporary.File("cross.dbdf");
            CrossLanguageMatrix.Write(file);
            Assert.True(File.Exists(file));
            Assert.Equal(null, CrossLanguageMatrix.Mismatch(file));
            using (Reader reader = Reader.Open(file))
            {
                Assert.Equal(4L, reader.BuildIndex());
                BlockInfo last = reader.IndexEntry(3);
                Assert.Equal(4L, last.Row);
                Assert.Equal(3L, last.Col);
                Assert.Equal(2L, last.Rows);
                Assert.Equal(2L, last.Cols);
                Block block = reader.SeekBlock(3);
                Assert.ArrayEqual(new[] { 11.5, 12, 14, 0 }, block.ToDoubleArray());
                Assert.False(reader.NextBlock(), "SeekBlock(3) makes the next block the end");

                double[] window = new double[2 * 3];
                reader.ReadWindow(1, 1, 2, 3, window);
                Assert.ArrayEqual(new[] { 3, 0, 4, 0, 6, 6.5 }, window);

                long entries = reader.CountEntries();
                Assert.Equal((long)values.Count(value => value != 0), entries);
                ulong[] rowOffsets = new ulong[CrossLanguageMatrix.Rows + 1];
                ulong[] colIndices = new ulong[entries];
                double[] csrValues = new double[entries];
                Assert.Equal(entries, reader.ReadCsr(rowOffsets, colIndices, csrValues));
                int entry = 0;
                for (int row = 0; row < CrossLanguageMatrix.Rows; row++)
                {
                    Assert.Equal((ulong)entry, rowOffsets[row]);
                    for (int col = 0; col < CrossLanguageMatrix.Cols; col++)
                    {
                        if (CrossLanguageMatrix.Value(row, col) != 0)
                        {
                            Assert.Equal((ulong)col, colIndices[entry]);
                            Assert.Equal(CrossLanguageMatrix.Value(row, col), csrValues[entry]);
                            entry++;
                        }
                    }
                }
            }
        }

        [Test]
        public void WhileLoopForeachAndRewindSeeTheSameBlocks()
        {
            using (Reader reader = Reader.FromBytes(CrossLanguageMatrix.Bytes()))
            {
                List<BlockInfo> first = new List<BlockInfo>();
                while (reader.NextBlock())
                {
                    first.Add(reader.CurrentBlock.Info);
                }
                List<BlockInfo> second = reader.Blocks().Select(block => block.Info).ToList();
                List<BlockInfo> third = new List<BlockInfo>();
                foreach (Block block in reader)
                {
                    third.Add(block.Info);
                }
                Assert.Equal(4, first.Count);
                Assert.SequenceEqual(first, second);
                Assert.SequenceEqual(first, third);
            }
        }

        [Test]
        public void UnsignedValuesKeepTheirFullRange()
        {
            ulong[] values = { ulong.MaxValue, 0, 1UL << 63, 1 };
            byte[] bytes;
            using (Writer writer = Writer.ToMemory())
            {
                writer.BeginMatrix(DataType.Dense, ValueType.U64, 2, 2);
                writer.AddDense(0, 0, 2, 2, values);
                writer.Finish();
                bytes = writer.ToArray();
            }
            using (Reader reader = Reader.FromBytes(bytes))
            {
                Assert.ArrayEqual(values, reader.ReadDense<ulong>());
                // 2^64 - 1 is not an i64: exact conversion fails instead of wrapping.
                DbdfException error = Assert.Throws<DbdfException>(() => reader.ReadDense(new long[4]));
                Assert.Equal(Status.Range, error.Status);
            }
        }

        [Test]
        public void EveryElementTypeHasItsOverloads()
        {
            // The typed overloads exist for all ten element types and pick the matching value type.
            foreach (ValueType type in TestData.DataTypes)
            {
                byte[] bytes;
                Array input = TestData.FromBits(type, new ulong[] { 1, 0, 2, 3 });
                using (Writer writer = Writer.ToMemory())
                {
                    writer.BeginMatrix(DataType.Dense, type, 2, 2);
                    TestData.Call(writer, "AddDense", 0L, 0L, 2L, 2L, input, 0L, Encoding.AsGiven);
                    writer.Finish();
                    bytes = writer.ToArray();
                }
                using (Reader reader = Reader.FromBytes(bytes))
                {
                    Assert.True(reader.NextBlock());
                    Assert.Equal(type, reader.CurrentBlock.ValueType, "the array's element type is the value type");
                    Array column = TestData.NewArray(type, 2);
                    TestData.Call(reader, "ReadColumn", 1L, column);
                    Assert.ArrayEqual(new ulong[] { 0, 3 }, TestData.ToBits(column), type + " column");
                }
            }
        }

        [Test]
        public void ReadersOnSeveralThreadsAreIndependent()
        {
            string file = temporary.File("shared.dbdf");
            CrossLanguageMatrix.Write(file);
            double[] expected = CrossLanguageMatrix.Values();
            List<Exception> failures = new List<Exception>();
            List<Thread> threads = new List<Thread>();
            for (int thread = 0; thread < 4; thread++)
            {
                threads.Add(new Thread(() =>
                {
                    try
                    {
                        for (int round = 0; round < 50; round++)
                        {
                            using (Reader reader = Reader.Open(file))
                            {
                                Assert.ArrayEqual(expected, reader.ReadDoubles());
                                // Errors are per thread: a failure here must not leak into another thread.
                                DbdfException error = Assert.Throws<DbdfException>(() => reader.IndexEntry(99));
                                Assert.Equal(Status.InvalidArgument, error.Status);
                            }
                        }
                    }
                    catch (Exception failure)
                    {
                        lock (failures)
                        {
                            failures.Add(failure);
                        }
                    }
                }));
            }
            threads.ForEach(thread => thread.Start());
            threads.ForEach(thread => thread.Join());
            Assert.Equal(0, failures.Count, failures.Count > 0 ? failures[0].ToString() : "failures");
        }

        [Test]
        public void VersionIsReported()
        {
            Assert.Equal(200L, DbdfLibrary.VersionNumber);
            Assert.Equal("0.2.0", DbdfLibrary.Version);
            Assert.Equal("format", DbdfLibrary.StatusName(Status.Format));
        }
    }
}
