using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;

namespace Dbdf.Tests
{
    /// <summary>
    /// Every golden file of tests/vectors, as listed in vectors.json: valid files must read back with exactly the
    /// listed header, blocks and values (bit patterns) and have no violations; invalid files must fail with the
    /// listed status at the listed step, naming the listed rule and byte offset, and list that violation first.
    /// </summary>
    public sealed class GoldenVectorsTests
    {
        /// <summary>Set by Program from --vectors.</summary>
        internal static string VectorsDirectory = Path.Combine("..", "..", "tests", "vectors");

        private static Dictionary<string, object> Manifest()
        {
            string manifest = Path.Combine(VectorsDirectory, "vectors.json");
            Assert.True(File.Exists(manifest), "golden manifest " + Path.GetFullPath(manifest) + " exists");
            return (Dictionary<string, object>)MiniJson.Parse(File.ReadAllText(manifest, System.Text.Encoding.UTF8));
        }

        private static List<Dictionary<string, object>> Entries(string kind)
        {
            return ((List<object>)Manifest()[kind]).Cast<Dictionary<string, object>>().ToList();
        }

        private static T Parse<T>(object name)
        {
            return (T)Enum.Parse(typeof(T), (string)name, true);
        }

        private static ValueType ValueTypeNamed(object name)
        {
            return name == null ? ValueType.None : Parse<ValueType>(name);
        }

        private static long Integer(Dictionary<string, object> entry, string key)
        {
            return (long)entry[key];
        }

        /// <summary>A manifest cell as a bit pattern of <paramref name="type"/>: decimal integers, "0x..." float bits.</summary>
        private static ulong CellBits(ValueType type, string cell)
        {
            if (type.IsFloatingPoint())
            {
                Assert.True(cell.StartsWith("0x", StringComparison.Ordinal), "float cells are hex bit patterns: " + cell);
                return ulong.Parse(cell.Substring(2), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            }
            if (type.IsUnsigned())
            {
                return ulong.Parse(cell, CultureInfo.InvariantCulture);
            }
            return TestData.Masked(type, unchecked((ulong)long.Parse(cell, NumberStyles.AllowLeadingSign,
                CultureInfo.InvariantCulture)));
        }

        /// <summary>The status whose library name (dbdf_status_name) is <paramref name="name"/>.</summary>
        internal static Status StatusNamed(string name)
        {
            foreach (Status status in Enum.GetValues(typeof(Status)))
            {
                if (status != Status.Unknown && DbdfLibrary.StatusName(status) == name)
                {
                    return status;
                }
            }
            throw new ArgumentException("no status is named " + name);
        }

        [Test]
        public void ManifestListsEveryFileOfTheFolder()
        {
            List<string> listed = new List<string>();
            foreach (string kind in new[] { "valid", "invalid" })
            {
                Assert.True(Entries(kind).Count > 0, "the manifest lists " + kind + " files");
                listed.AddRange(Entries(kind).Select(entry => (string)entry["file"]));
            }
            List<string> present = Directory.GetFiles(VectorsDirectory, "*.dbdf").Select(Path.GetFileName)
                .Concat(Directory.GetFiles(Path.Combine(VectorsDirectory, "invalid"), "*.dbdf")
                    .Select(file => "invalid/" + Path.GetFileName(file)))
                .ToList();
            listed.Sort(StringComparer.Ordinal);
            present.Sort(StringComparer.Ordinal);
            Assert.SequenceEqual(present, listed, "files of the folder");
        }

        [TestCases]
        public IEnumerable<TestCase> ValidFilesReadBackExactly()
        {
            return Entries("valid").Select(entry => new TestCase((string)entry["file"], () => CheckValid(entry)));
        }

        [TestCases]
        public IEnumerable<TestCase> InvalidFilesFailWithTheirStatusRuleAndOffset()
        {
            return Entries("invalid").Select(entry => new TestCase((string)entry["file"], () => CheckInvalid(entry)));
        }

        private static void CheckValid(Dictionary<string, object> entry)
        {
            string file = Path.Combine(VectorsDirectory, (string)entry["file"]);
            DataType dataType = Parse<DataType>(entry["data_type"]);
            int rows = (int)Integer(entry, "rows");
            int cols = (int)Integer(entry, "cols");
            ValueType objectType = ValueTypeNamed(entry["value_type"]);
            List<object> cells = (List<object>)entry["values"];
            Assert.Equal(rows, cells.Count, "manifest rows");

            ValueType[] columnTypes = new ValueType[cols];
            for (int column = 0; column < cols; column++)
            {
                columnTypes[column] = dataType == DataType.Frame
                    ? ValueTypeNamed(((List<object>)entry["column_types"])[column])
                    : objectType;
            }
            // Expected bit patterns, row-major, each in its column's type.
            ulong[] expected = new ulong[rows * cols];
            for (int row = 0; row < rows; row++)
            {
                List<object> rowCells = (List<object>)cells[row];
                Assert.Equal(cols, rowCells.Count, "manifest cols of row " + row);
                for (int column = 0; column < cols; column++)
                {
                    expected[row * cols + column] = CellBits(columnTypes[column], (string)rowCells[column]);
                }
            }

            long fileSize = new FileInfo(file).Length;
            using (Reader reader = Reader.Open(file))
            {
                CheckObject(reader, entry, dataType, objectType, rows, cols, columnTypes, expected, fileSize);
            }
            // The same bytes from memory must read the same.
            using (Reader reader = Reader.FromBytes(File.ReadAllBytes(file)))
            {
                CheckObject(reader, entry, dataType, objectType, rows, cols, columnTypes, expected, fileSize);
            }
        }

        private static void CheckObject(Reader reader, Dictionary<string, object> entry, DataType dataType,
                                        ValueType objectType, int rows, int cols, ValueType[] columnTypes,
                                        ulong[] expected, long totalBytes)
        {
            ObjectInfo info = reader.Info;
            Assert.Equal(dataType, info.DataType, "data type");
            Assert.Equal(objectType, info.ValueType, "value type");
            Assert.Equal((long)rows, info.Rows, "rows");
            Assert.Equal((long)cols, info.Cols, "cols");
            Assert.Equal(totalBytes, info.TotalBytes, "total bytes");
            Assert.True(info.HeaderBytes >= 19 && info.HeaderBytes <= totalBytes, "header size " + info.HeaderBytes);
            for (int column = 0; column < cols; column++)
            {
                Assert.Equal(columnTypes[column], reader.ColumnType(column), "type of column " + column);
            }
            if (dataType == DataType.Frame)
            {
                List<object> labels = (List<object>)entry["labels"];
                for (int column = 0; column < cols; column++)
                {
                    Assert.Equal((string)labels[column], reader.ColumnLabel(column), "label of column " + column);
                }
            }

            // Blocks in file order, each decoded and compared with its window of the expected values.
            List<object> blocks = (List<object>)entry["blocks"];
            int index = 0;
            foreach (Block block in reader.Blocks())
            {
                Assert.True(index < blocks.Count, "more blocks than listed");
                Dictionary<string, object> listed = (Dictionary<string, object>)blocks[index];
                string where = "block " + index;
                Assert.Equal((long)index, block.Index, where);
                Assert.Equal(Integer(listed, "row"), block.Row, where + " row");
                Assert.Equal(Integer(listed, "col"), block.Col, where + " col");
                Assert.Equal(Integer(listed, "rows"), block.Rows, where + " rows");
                Assert.Equal(Integer(listed, "cols"), block.Cols, where + " cols");
                BlockType blockType = Parse<BlockType>(listed["block_type"]);
                Assert.Equal(blockType, block.BlockType, where + " block type");
                Assert.Equal(Integer(listed, "stored_values"), block.Info.StoredValues, where + " stored values");
                // Zero-area blocks (rule 4) may sit past the last column of an object without columns.
                ValueType columnType = block.Col < cols ? columnTypes[block.Col] : objectType;
                ValueType storedType = blockType == BlockType.Empty ? ValueType.None
                    : ValueTypeNamed(listed["value_type"]);
                Assert.Equal(storedType, block.ValueType, where + " value type");

                int blockRows = (int)block.Rows;
                int blockCols = (int)block.Cols;
                if (columnType == ValueType.None)
                {
                    Assert.Equal(0, blockRows * blockCols, where + " of an object without columns has no cells");
                    index++;
                    continue;
                }
                Array decoded = TestData.NewArray(columnType, blockRows * blockCols);
                TestData.Call(block, "DecodeDense", decoded, 0L);
                ulong[] window = new ulong[blockRows * blockCols];
                for (int i = 0; i < blockRows; i++)
                {
                    for (int j = 0; j < blockCols; j++)
                    {
                        window[i * blockCols + j] = expected[(block.Row + i) * cols + block.Col + j];
                    }
                }
                Assert.ArrayEqual(window, TestData.ToBits(decoded), where + " values");
                index++;
            }
            Assert.Equal(blocks.Count, index, "number of blocks");

            // The whole object: dense for matrices, column by column for frames.
            if (dataType == DataType.Frame)
            {
                for (int column = 0; column < cols; column++)
                {
                    Array values = TestData.NewArray(columnTypes[column], rows);
                    TestData.Call(reader, "ReadColumn", (long)column, values);
                    ulong[] expectedColumn = new ulong[rows];
                    for (int row = 0; row < rows; row++)
                    {
                        expectedColumn[row] = expected[row * cols + column];
                    }
                    Assert.ArrayEqual(expectedColumn, TestData.ToBits(values), "column " + column);
                }
            }
            else if (rows > 0 && cols > 0)
            {
                Array values = TestData.NewArray(objectType, rows * cols);
                TestData.Call(reader, "ReadDense", values, 0L);
                Assert.ArrayEqual(expected, TestData.ToBits(values), "whole object");
            }
            reader.Validate();
            Assert.Equal(0, reader.Violations().Count, "violations of a valid object");
        }

        /// <summary>
        /// <paramref name="error"/> is the entry's failure: its status, its rule (null for the spec's layout, rule 0)
        /// and its byte offset as numbers, and a message naming both ("(rule N)", or "(spec" for the spec's layout).
        /// </summary>
        private static void AssertDescribes(Dictionary<string, object> entry, DbdfException error, string step)
        {
            string where = entry["file"] + " (" + step + "): " + error.Message;
            Assert.Equal(StatusNamed((string)entry["status"]), error.Status, where);
            long rule = Integer(entry, "rule");
            long offset = Integer(entry, "offset");
            Assert.Equal(rule == 0 ? (int?)null : (int)rule, error.Rule, where);
            Assert.Equal((long?)offset, error.Offset, where);
            string ruleText = rule == 0 ? "(spec" : "(rule " + rule + ")";
            Assert.True(error.NativeMessage.Contains(ruleText), where + " does not name " + ruleText);
            string offsetText = "byte " + offset;
            Assert.True(error.NativeMessage.Contains(offsetText), where + " does not name " + offsetText);
            Assert.Equal((string)entry["status"] + ": " + error.NativeMessage, error.Message);
        }

        /// <summary>
        /// The reader lists the entry's violation first, with its rule and offset, and described as Validate()
        /// describes it.
        /// </summary>
        private static void AssertListsFirst(Dictionary<string, object> entry, Reader reader)
        {
            DbdfException error = Assert.Throws<DbdfException>(() => reader.Validate());
            AssertDescribes(entry, error, "Validate");
            IReadOnlyList<Violation> violations = reader.Violations();
            string where = entry["file"] + ": " + string.Join(" | ", violations);
            Assert.True(violations.Count > 0, where);
            Assert.Equal(Integer(entry, "rule"), (long)violations[0].Rule, where);
            Assert.Equal(Integer(entry, "offset"), violations[0].Offset, where);
            Assert.Equal(error.NativeMessage, violations[0].Message, where);
        }

        private static void CheckInvalid(Dictionary<string, object> entry)
        {
            string file = Path.Combine(VectorsDirectory, (string)entry["file"]);
            Status expected = StatusNamed((string)entry["status"]);
            Assert.True(expected.IsInvalidData(), "invalid files are invalid data: " + expected);
            string failsOn = (string)entry["fails_on"];
            switch (failsOn)
            {
                case "open":
                {
                    // No reader, hence no Violations() to ask: the exception alone tells the rule and the offset.
                    AssertDescribes(entry, Assert.Throws<DbdfException>(() => Reader.Open(file).Dispose()), "open");
                    byte[] bytes = File.ReadAllBytes(file);
                    AssertDescribes(entry, Assert.Throws<DbdfException>(() => Reader.FromBytes(bytes).Dispose()),
                        "open from memory");
                    break;
                }
                case "iterate":
                    using (Reader reader = Reader.Open(file))
                    {
                        DbdfException error = Assert.Throws<DbdfException>(() =>
                        {
                            while (reader.NextBlock())
                            {
                                // Headers only: the failure must come from walking the blocks.
                            }
                        });
                        AssertDescribes(entry, error, "iterate");
                        // The reader stays usable: the same error again, and validation reports it too.
                        AssertDescribes(entry, Assert.Throws<DbdfException>(() => reader.NextBlock()), "iterate again");
                        AssertListsFirst(entry, reader);
                    }
                    break;
                case "decode":
                    using (Reader reader = Reader.Open(file))
                    {
                        ValueType decodeType = reader.Info.ValueType;
                        DbdfException firstError = null;
                        while (firstError == null && reader.NextBlock())
                        {
                            Block block = reader.CurrentBlock;
                            Array values = TestData.NewArray(decodeType, block.Rows * block.Cols);
                            try
                            {
                                TestData.Call(block, "DecodeDense", values, 0L);
                            }
                            catch (DbdfException error)
                            {
                                firstError = error;
                            }
                        }
                        Assert.True(firstError != null, "decoding some block fails");
                        AssertDescribes(entry, firstError, "decode");
                        AssertListsFirst(entry, reader);
                    }
                    break;
                default:
                    throw new AssertionException("unknown fails_on '" + failsOn + "' in the manifest");
            }
        }
    }
}
