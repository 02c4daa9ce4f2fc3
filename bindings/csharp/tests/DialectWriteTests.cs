using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace Dbdf.Tests
{
    /// <summary>
    /// Writing the daphne dialect: the output is byte for byte the file DAPHNE's runtime wrote for the same object,
    /// and a file writer puts DaphneDSL's .meta sidecar next to it unless told not to.
    /// </summary>
    public sealed class DialectWriteTests : IDisposable
    {
        private readonly TemporaryDirectory temporary = new TemporaryDirectory();

        public void Dispose()
        {
            temporary.Dispose();
        }

        /// <summary>
        /// Writes the matrix or scalar a corpus entry describes: write_dense for dense (and for a scalar, whose value
        /// goes in as a 1 x 1 matrix's), one covering CSR block for CSR.
        /// </summary>
        private static void WriteMatrix(Writer writer, Dictionary<string, object> entry)
        {
            ValueType type = DaphneCorpus.ValueTypeOf(entry);
            long rows = DaphneCorpus.Integer(entry, "rows");
            long cols = DaphneCorpus.Integer(entry, "cols");
            Array values = DaphneCorpus.Values(entry, "values", type);
            writer.BeginMatrix(DaphneCorpus.DataTypeOf(entry), type, rows, cols);
            if (rows == 0 || cols == 0)
            {
                // A matrix without cells takes no block (rule 4): Finish writes its empty body.
            }
            else if (DaphneCorpus.DataTypeOf(entry) == DataType.Csr)
            {
                uint[] colIndices = DaphneCorpus.ColIndices(entry).Select(index => checked((uint)index)).ToArray();
                TestData.Call(writer, "AddCsr", 0L, 0L, rows, cols, DaphneCorpus.RowOffsets(entry), colIndices, values,
                    Encoding.Auto);
            }
            else
            {
                TestData.Call(writer, "WriteDense", values, 0L, Encoding.Auto, 0L, 0L);
            }
            writer.Finish();
        }

        [TestCases]
        public IEnumerable<TestCase> MemoryOutputIsTheRuntimesFile()
        {
            foreach (Dictionary<string, object> entry in DaphneCorpus.ReproducibleMatricesAndScalars())
            {
                Dictionary<string, object> file = entry;
                yield return new TestCase(DaphneCorpus.FileOf(entry), () =>
                {
                    using (Writer writer = Writer.ToMemory(Dialect.Daphne))
                    {
                        Assert.Equal(Dialect.Daphne, writer.Dialect);
                        WriteMatrix(writer, file);
                        Assert.ArrayEqual(File.ReadAllBytes(DaphneCorpus.PathOf(DaphneCorpus.FileOf(file))),
                            writer.ToArray());
                    }
                });
            }
        }

        [TestCases]
        public IEnumerable<TestCase> FileOutputIsTheRuntimesFileWithItsMeta()
        {
            foreach (Dictionary<string, object> entry in DaphneCorpus.ReproducibleMatricesAndScalars())
            {
                Dictionary<string, object> file = entry;
                yield return new TestCase(DaphneCorpus.FileOf(entry), () =>
                {
                    // A directory per case: the instance that listed the cases is disposed before they run.
                    using (TemporaryDirectory directory = new TemporaryDirectory())
                    {
                        string target = directory.File(DaphneCorpus.FileOf(file));
                        using (Writer writer = Writer.ToFile(target, Dialect.Daphne))
                        {
                            Assert.Equal(Dialect.Daphne, writer.Dialect);
                            WriteMatrix(writer, file);
                        }
                        Assert.ArrayEqual(File.ReadAllBytes(DaphneCorpus.PathOf(DaphneCorpus.FileOf(file))),
                            File.ReadAllBytes(target));
                        if (DaphneCorpus.DataTypeOf(file) == DataType.Scalar)
                        {
                            // The runtime writes no .meta for a scalar, so neither does dbdf.
                            Assert.False(File.Exists(target + ".meta"), "no .meta sidecar for a scalar");
                            return;
                        }
                        Assert.True(File.Exists(target + ".meta"), "the .meta sidecar is written next to the file");
                        Assert.Equal(ExpectedMeta(file), File.ReadAllText(target + ".meta"), ".meta");
                    }
                });
            }
        }

        /// <summary>
        /// The .meta DAPHNE's MetaDataParser writes for a matrix (keys sorted, no spaces; CSR with its entry count).
        /// Where the corpus holds the runtime's own .meta, the text must be exactly that, which checks this oracle;
        /// the files without one (views, CSR) were written by the runtime's C++ API, which writes no sidecar.
        /// </summary>
        private static string ExpectedMeta(Dictionary<string, object> entry)
        {
            string nonZeros = DaphneCorpus.DataTypeOf(entry) == DataType.Csr
                ? "\"numNonZeros\":" + ((List<object>)entry["values"]).Count + ","
                : "";
            string meta = "{\"numCols\":" + DaphneCorpus.Integer(entry, "cols") + "," + nonZeros + "\"numRows\":"
                + DaphneCorpus.Integer(entry, "rows") + ",\"valueType\":\""
                + DaphneTypeName(DaphneCorpus.ValueTypeOf(entry)) + "\"}";
            if (entry.ContainsKey("meta"))
            {
                Assert.Equal(File.ReadAllText(DaphneCorpus.PathOf((string)entry["meta"])), meta, "the runtime's .meta");
            }
            return meta;
        }

        /// <summary>DAPHNE's name of a value type in .meta files (si64, ui8, f64, ...).</summary>
        private static string DaphneTypeName(ValueType type)
        {
            if (type.IsFloatingPoint())
            {
                return type.Name();
            }
            return (type.IsUnsigned() ? "ui" : "si") + (8 * type.Size());
        }

        [Test]
        public void MetaIsLeftOutWhenNotWanted()
        {
            Dictionary<string, object> entry = DaphneCorpus.Entry("dense_f64_3x4.dbdf");
            string target = temporary.File("no-meta.dbdf");
            using (Writer writer = Writer.ToFile(target, Dialect.Daphne, writeMeta: false))
            {
                WriteMatrix(writer, entry);
            }
            Assert.ArrayEqual(File.ReadAllBytes(DaphneCorpus.PathOf("dense_f64_3x4.dbdf")), File.ReadAllBytes(target));
            Assert.False(File.Exists(target + ".meta"), "no .meta with writeMeta false");

            // The spec dialect has no sidecar, whatever writeMeta says.
            string spec = temporary.File("spec.dbdf");
            using (Writer writer = Writer.ToFile(spec, Dialect.Spec, writeMeta: true))
            {
                Assert.Equal(Dialect.Spec, writer.Dialect);
                writer.BeginMatrix(DataType.Dense, ValueType.F64, 1, 1);
                writer.WriteDense(new[] { 1.0 });
                writer.Finish();
            }
            Assert.False(File.Exists(spec + ".meta"), "no .meta in the spec dialect");
            Assert.Equal(2, Directory.GetFiles(temporary.Path).Length, "only the two data files");
        }

        /// <summary>
        /// The runtime wrote memory bytes instead of frame_mixed's labels; written with the labels it was given, the
        /// file is the runtime's with those label bytes replaced by the text.
        /// </summary>
        [Test]
        public void FrameIsTheRuntimesFileWithItsLabelsAsText()
        {
            Dictionary<string, object> entry = DaphneCorpus.Entry("frame_mixed.dbdf");
            Assert.True(DaphneCorpus.IsTrue(entry, "reproducible_with_labels_replaced"), "the corpus says so");
            List<Dictionary<string, object>> columns = DaphneCorpus.Columns(entry);
            ValueType[] types = columns.Select(DaphneCorpus.ValueTypeOf).ToArray();
            string[] labels = columns.Select(column => (string)column["written_label"]).ToArray();
            string target = temporary.File("frame.dbdf");
            using (Writer writer = Writer.ToFile(target, Dialect.Daphne))
            {
                writer.BeginFrame(DaphneCorpus.Integer(entry, "rows"), types, labels);
                for (int column = 0; column < columns.Count; column++)
                {
                    TestData.Call(writer, "WriteColumn", (long)column,
                        DaphneCorpus.Values(columns[column], "values", types[column]), Encoding.Auto, 0L);
                }
                writer.Finish();
            }
            byte[] expected = File.ReadAllBytes(DaphneCorpus.PathOf("frame_mixed.dbdf"));
            ReplaceFrameLabels(expected, labels);
            Assert.ArrayEqual(expected, File.ReadAllBytes(target));
            Assert.Equal("{\"numCols\":3,\"numRows\":4,\"schema\":[{\"label\":\"id\",\"valueType\":\"si64\"},"
                + "{\"label\":\"score\",\"valueType\":\"f64\"},{\"label\":\"w\",\"valueType\":\"f32\"}]}",
                File.ReadAllText(target + ".meta"));
        }

        /// <summary>
        /// Overwrites the label bytes of a daphne frame file: after the 18-byte header and one type code per column,
        /// each label is a little-endian uint16 length and that many bytes.
        /// </summary>
        private static void ReplaceFrameLabels(byte[] file, string[] labels)
        {
            int offset = 18 + labels.Length;
            foreach (string label in labels)
            {
                byte[] text = System.Text.Encoding.UTF8.GetBytes(label);
                int length = file[offset] | (file[offset + 1] << 8);
                Assert.Equal(text.Length, length, "label length in the runtime's file");
                Array.Copy(text, 0, file, offset + 2, length);
                offset += 2 + length;
            }
        }

        [Test]
        public void WhatTheRuntimeCannotHoldIsRefused()
        {
            using (Writer writer = Writer.ToMemory(Dialect.Daphne))
            {
                // i16 has no DAPHNE value type code.
                DbdfException error = Assert.Throws<DbdfException>(
                    () => writer.BeginMatrix(DataType.Dense, ValueType.I16, 2, 2));
                Assert.Equal(Status.InvalidArgument, error.Status, error.Message);
            }
            using (Writer writer = Writer.ToMemory(Dialect.Daphne))
            {
                writer.BeginMatrix(DataType.Dense, ValueType.F64, 2, 2);
                // One block covers the whole matrix, or full-width row bands do in order: a narrower block is refused.
                DbdfException error = Assert.Throws<DbdfException>(
                    () => writer.AddDense(0, 0, 2, 1, new[] { 1.0, 2.0 }));
                Assert.Equal(Status.InvalidArgument, error.Status, error.Message);
                // The writer stays usable: the covering block goes in, converted exactly from int.
                writer.AddDense(0, 0, 2, 2, new[] { 1, 2, 3, 4 });
                writer.Finish();
                using (Reader reader = Reader.FromBytes(writer.ToArray(), Dialect.Daphne))
                {
                    Assert.ArrayEqual(new[] { 1.0, 2.0, 3.0, 4.0 }, reader.ReadDoubles());
                }
            }
            Assert.Equal(Status.InvalidArgument,
                Assert.Throws<DbdfException>(() => Writer.ToMemory((Dialect)7)).Status);
            Assert.Equal(Status.InvalidArgument,
                Assert.Throws<DbdfException>(() => Writer.ToFile(temporary.File("x.dbdf"), (Dialect)7)).Status);
            Assert.Throws<ArgumentNullException>(() => Writer.ToFile(null, Dialect.Daphne));
            Assert.Equal(0, Directory.GetFiles(temporary.Path).Length, "refused writers leave no file behind");
        }
    }
}
