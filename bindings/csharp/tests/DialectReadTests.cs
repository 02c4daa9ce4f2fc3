using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;

namespace Dbdf.Tests
{
    /// <summary>
    /// Reading the daphne dialect: every file DAPHNE's runtime wrote (tests/vectors/daphne-runtime) reads with the
    /// values corpus.json lists, from the file and from memory; the files it refuses fail with their status.
    /// </summary>
    public sealed class DialectReadTests
    {
        private delegate Reader Opening(string path);

        /// <summary>The ways a file is opened in the daphne dialect, each checked against the same values.</summary>
        private static readonly KeyValuePair<string, Opening>[] Openings =
        {
            new KeyValuePair<string, Opening>("file", path => Reader.Open(path, Dialect.Daphne)),
            new KeyValuePair<string, Opening>("bytes", path => Reader.FromBytes(File.ReadAllBytes(path), Dialect.Daphne))
        };

        [TestCases]
        public IEnumerable<TestCase> RuntimeFilesReadWithTheirValues()
        {
            foreach (Dictionary<string, object> entry in DaphneCorpus.Readable())
            {
                foreach (KeyValuePair<string, Opening> opening in Openings)
                {
                    Dictionary<string, object> file = entry;
                    Opening open = opening.Value;
                    yield return new TestCase(DaphneCorpus.FileOf(entry) + ", " + opening.Key, () =>
                    {
                        using (Reader reader = open(DaphneCorpus.PathOf(DaphneCorpus.FileOf(file))))
                        {
                            CheckObject(file, reader);
                        }
                    });
                }
            }
        }

        [TestCases]
        public IEnumerable<TestCase> RefusedFilesFailWithTheirStatus()
        {
            foreach (Dictionary<string, object> entry in DaphneCorpus.Refused())
            {
                Dictionary<string, object> file = entry;
                yield return new TestCase(DaphneCorpus.FileOf(entry), () =>
                {
                    Status expected = GoldenVectorsTests.StatusNamed((string)file["refused"]);
                    string path = DaphneCorpus.PathOf(DaphneCorpus.FileOf(file));
                    foreach (KeyValuePair<string, Opening> opening in Openings)
                    {
                        DbdfException error = Assert.Throws<DbdfException>(() => opening.Value(path).Dispose(),
                            opening.Key);
                        Assert.Equal(expected, error.Status, opening.Key + ": " + error.Message);
                        Assert.True(error.NativeMessage.Length > 0, "the library says why");
                    }
                });
            }
        }

        /// <summary>
        /// corpus.json's "invalid" files open, but reading their values fails with the status it names, and validation
        /// finds exactly the violation it names (rule and byte offset).
        /// </summary>
        [TestCases]
        public IEnumerable<TestCase> InvalidFilesAreRefusedWithTheirRule()
        {
            foreach (Dictionary<string, object> entry in DaphneCorpus.Invalid())
            {
                Dictionary<string, object> file = entry;
                yield return new TestCase(DaphneCorpus.FileOf(entry), () =>
                {
                    Status expected = GoldenVectorsTests.StatusNamed((string)file["status"]);
                    string path = DaphneCorpus.PathOf(DaphneCorpus.FileOf(file));
                    foreach (KeyValuePair<string, Opening> opening in Openings)
                    {
                        using (Reader reader = opening.Value(path))
                        {
                            DbdfException error = Assert.Throws<DbdfException>(() => reader.ReadDoubles(), opening.Key);
                            Assert.Equal(expected, error.Status, opening.Key + ": " + error.Message);
                            IReadOnlyList<Violation> violations = reader.Violations();
                            Assert.Equal(1, violations.Count, opening.Key + ": violations");
                            Assert.Equal(DaphneCorpus.Integer(file, "rule"), (long)violations[0].Rule, "rule");
                            Assert.Equal(DaphneCorpus.Integer(file, "offset"), violations[0].Offset, "offset");
                        }
                    }
                });
            }
        }

        private static void CheckObject(Dictionary<string, object> entry, Reader reader)
        {
            DataType dataType = DaphneCorpus.DataTypeOf(entry);
            long rows = DaphneCorpus.Integer(entry, "rows");
            long cols = DaphneCorpus.Integer(entry, "cols");
            Assert.Equal(Dialect.Daphne, reader.Dialect);
            Assert.Equal(dataType, reader.Info.DataType, "data type");
            Assert.Equal(rows, reader.Info.Rows, "rows");
            Assert.Equal(cols, reader.Info.Cols, "cols");
            switch (dataType)
            {
                case DataType.Dense:
                case DataType.Scalar:
                    CheckDense(entry, reader);
                    break;
                case DataType.Csr:
                    CheckCsr(entry, reader);
                    break;
                case DataType.Frame:
                    CheckFrame(entry, reader);
                    break;
                default:
                    throw new AssertionException("corpus data type " + dataType + " is not covered");
            }
            reader.Validate();
        }

        private static void CheckDense(Dictionary<string, object> entry, Reader reader)
        {
            ValueType type = DaphneCorpus.ValueTypeOf(entry);
            Assert.Equal(type, reader.Info.ValueType, "value type");
            Assert.True(reader.LabelsRecoverable, "a matrix has no labels to lose");
            Array values = TestData.NewArray(type, reader.Info.Rows * reader.Info.Cols);
            TestData.Call(reader, "ReadDense", values, 0L);
            DaphneCorpus.AssertSameValues(DaphneCorpus.Values(entry, "values", type), values, "values");
            // One block at (0, 0) covering the object, as the runtime writes it.
            Assert.Equal(1L, reader.BuildIndex(), "blocks");
            BlockInfo block = reader.IndexEntry(0);
            Assert.Equal(0L, block.Row);
            Assert.Equal(0L, block.Col);
            Assert.Equal(reader.Info.Rows, block.Rows);
            Assert.Equal(reader.Info.Cols, block.Cols);
            Assert.Equal(BlockType.Dense, block.BlockType);
        }

        private static void CheckCsr(Dictionary<string, object> entry, Reader reader)
        {
            ValueType type = DaphneCorpus.ValueTypeOf(entry);
            Assert.Equal(type, reader.Info.ValueType, "value type");
            Assert.True(reader.LabelsRecoverable, "a matrix has no labels to lose");
            Array expectedValues = DaphneCorpus.Values(entry, "values", type);
            long entries = reader.CountEntries();
            Assert.Equal((long)expectedValues.Length, entries, "entries");
            ulong[] rowOffsets = new ulong[reader.Info.Rows + 1];
            ulong[] colIndices = new ulong[entries];
            Array values = TestData.NewArray(type, entries);
            Assert.Equal(entries, (long)TestData.Call(reader, "ReadCsr", rowOffsets, colIndices, values));
            Assert.ArrayEqual(DaphneCorpus.RowOffsets(entry), rowOffsets, "row offsets");
            Assert.ArrayEqual(DaphneCorpus.ColIndices(entry), colIndices, "column indices");
            DaphneCorpus.AssertSameValues(expectedValues, values, "values");
            Assert.Equal(1L, reader.BuildIndex(), "blocks");
            Assert.Equal(BlockType.Csr, reader.IndexEntry(0).BlockType);
        }

        private static void CheckFrame(Dictionary<string, object> entry, Reader reader)
        {
            Assert.Equal(DaphneCorpus.IsTrue(entry, "labels_recoverable"), reader.LabelsRecoverable,
                "labels recoverable");
            List<Dictionary<string, object>> columns = DaphneCorpus.Columns(entry);
            Assert.Equal((long)columns.Count, reader.Info.Cols, "columns");
            for (int column = 0; column < columns.Count; column++)
            {
                string where = "column " + column;
                ValueType type = DaphneCorpus.ValueTypeOf(columns[column]);
                Assert.Equal((string)columns[column]["label"], reader.ColumnLabel(column), where + " label");
                Assert.Equal(type, reader.ColumnType(column), where + " type");
                Array values = TestData.NewArray(type, reader.Info.Rows);
                TestData.Call(reader, "ReadColumn", (long)column, values);
                DaphneCorpus.AssertSameValues(DaphneCorpus.Values(columns[column], "values", type), values, where);
            }
        }

        [Test]
        public void FramesReportDefaultLabelsAsNotRecoverable()
        {
            using (Reader frame = Reader.Open(DaphneCorpus.PathOf("frame_mixed.dbdf"), Dialect.Daphne))
            {
                Assert.False(frame.LabelsRecoverable);
                Assert.Equal("col_0", frame.ColumnLabel(0));
                Assert.Equal("col_2", frame.ColumnLabel(2));
                Assert.Equal(ValueType.F32, frame.ColumnType(2));
                long[] ids = new long[4];
                frame.ReadColumn(0, ids);
                Assert.ArrayEqual(new long[] { 1000, 1001, 1002, 1003 }, ids);
            }
        }

        [Test]
        public void CallerMemoryReadsInTheDaphneDialect()
        {
            byte[] bytes = File.ReadAllBytes(DaphneCorpus.PathOf("csr_f64_6x5.dbdf"));
            IntPtr memory = Marshal.AllocHGlobal(bytes.Length);
            try
            {
                Marshal.Copy(bytes, 0, memory, bytes.Length);
                using (Reader reader = Reader.FromMemory(memory, bytes.Length, Dialect.Daphne))
                {
                    Assert.Equal(Dialect.Daphne, reader.Dialect);
                    Assert.Equal(DataType.Csr, reader.Info.DataType);
                    Assert.Equal(7L, reader.CountEntries());
                    double[] dense = reader.ReadDoubles();
                    Assert.Equal(-2.25, dense[0 * 5 + 4]);
                    Assert.Equal(7.125, dense[4 * 5 + 1]);
                }
            }
            finally
            {
                Marshal.FreeHGlobal(memory);
            }
        }

        /// <summary>Nothing guesses the dialect: the runtime's bytes are not a spec file.</summary>
        [Test]
        public void TheSpecDialectDoesNotAcceptTheRuntimesLayout()
        {
            foreach (string file in new[] { "csr_f64_6x5.dbdf", "dense_f64_3x4.dbdf" })
            {
                byte[] bytes = File.ReadAllBytes(DaphneCorpus.PathOf(file));
                DbdfException error = Assert.Throws<DbdfException>(() =>
                {
                    using (Reader spec = Reader.FromBytes(bytes))
                    {
                        Assert.Equal(Dialect.Spec, spec.Dialect);
                        spec.Validate();
                    }
                }, file);
                Assert.True(error.Status.IsInvalidData(), file + ": " + error.Message);
                using (Reader daphne = Reader.FromBytes(bytes, Dialect.Daphne))
                {
                    daphne.Validate();
                }
            }
            using (Reader spec = Reader.FromBytes(CrossLanguageMatrix.Bytes()))
            {
                Assert.Equal(Dialect.Spec, spec.Dialect);
                Assert.True(spec.LabelsRecoverable);
            }
        }

        [Test]
        public void UnknownDialectsAreRejected()
        {
            string path = DaphneCorpus.PathOf("dense_f64_3x4.dbdf");
            DbdfException error = Assert.Throws<DbdfException>(() => Reader.Open(path, (Dialect)7));
            Assert.Equal(Status.InvalidArgument, error.Status, error.Message);
            Assert.True(error.NativeMessage.Contains("dialect"), error.NativeMessage);
            Assert.Equal(Status.InvalidArgument, Assert.Throws<DbdfException>(
                () => Reader.FromBytes(File.ReadAllBytes(path), (Dialect)(-1))).Status);
            Assert.Throws<ArgumentNullException>(() => Reader.Open(null, Dialect.Daphne));
            Assert.Throws<ArgumentNullException>(() => Reader.FromBytes(null, Dialect.Daphne));
        }
    }
}
