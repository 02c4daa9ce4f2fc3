using System;
using System.Collections.Generic;
using System.IO;

namespace Dbdf.Tests
{
    /// <summary>
    /// Every public method that passes a long to a C integer checks it in C# first: (ulong)-1 would reach a C
    /// uint64_t as 2^64 - 1 and (uint)(1L &lt;&lt; 32) a uint32_t as 0. Over a table of the entry points, the values out
    /// of range throw ArgumentOutOfRangeException naming the parameter, the value and the range, and the largest
    /// legal value reaches the library unchanged.
    /// </summary>
    public sealed class IntegerArgumentsTests
    {
        private const long MaxUint32 = uint.MaxValue;
        private const long MaxUint64AsLong = long.MaxValue;
        private const long MaxF64Count = long.MaxValue / 8;

        /// <summary>A 4 x 4 frame: column and block 0 exist.</summary>
        private static string Frame
        {
            get { return Path.Combine(GoldenVectorsTests.VectorsDirectory, "frame_mixed.dbdf"); }
        }

        private sealed class EntryPoint
        {
            public string Name;
            public string Parameter;
            public long Maximum;
            public Action<long> Call;
        }

        private static EntryPoint Uint64(string name, string parameter, Action<long> call)
        {
            return new EntryPoint { Name = name, Parameter = parameter, Maximum = MaxUint64AsLong, Call = call };
        }

        private static EntryPoint Uint32(string name, string parameter, Action<long> call)
        {
            return new EntryPoint { Name = name, Parameter = parameter, Maximum = MaxUint32, Call = call };
        }

        /// <summary>An element count of f64 values at a raw address: their byte size must fit a long too.</summary>
        private static EntryPoint F64Count(string name, string parameter, Action<long> call)
        {
            return new EntryPoint { Name = name, Parameter = parameter, Maximum = MaxF64Count, Call = call };
        }

        private static Action<long> OnReader(Action<Reader, long> call)
        {
            return value =>
            {
                using (Reader reader = Reader.Open(Frame))
                {
                    call(reader, value);
                }
            };
        }

        /// <summary>A reader on its first block, and unmanaged room for the raw-address overloads.</summary>
        private static Action<long> OnBlock(Action<Block, IntPtr, long> call)
        {
            return value =>
            {
                using (Reader reader = Reader.Open(Frame))
                using (UnmanagedBuffers buffers = new UnmanagedBuffers())
                {
                    Assert.True(reader.NextBlock());
                    call(reader.CurrentBlock, buffers.Filled(64, 8), value);
                }
            };
        }

        private static Action<long> OnReaderWithMemory(Action<Reader, IntPtr, long> call)
        {
            return value =>
            {
                using (Reader reader = Reader.Open(Frame))
                using (UnmanagedBuffers buffers = new UnmanagedBuffers())
                {
                    call(reader, buffers.Filled(64, 8), value);
                }
            };
        }

        private static Action<long> OnNewWriter(Action<Writer, long> call)
        {
            return value =>
            {
                using (Writer writer = Writer.ToMemory())
                {
                    call(writer, value);
                }
            };
        }

        /// <summary>A memory writer that has begun a 4 x 4 f64 matrix, and unmanaged room for 64 values.</summary>
        private static Action<long> OnMatrixWriter(Action<Writer, IntPtr, long> call)
        {
            return value =>
            {
                using (Writer writer = Writer.ToMemory())
                using (UnmanagedBuffers buffers = new UnmanagedBuffers())
                {
                    writer.BeginMatrix(DataType.Dense, ValueType.F64, 4, 4);
                    call(writer, buffers.CopyOf(new double[64]), value);
                }
            };
        }

        /// <summary>A memory writer that has begun a 4-row frame of one f64 column.</summary>
        private static Action<long> OnFrameWriter(Action<Writer, IntPtr, long> call)
        {
            return value =>
            {
                using (Writer writer = Writer.ToMemory())
                using (UnmanagedBuffers buffers = new UnmanagedBuffers())
                {
                    writer.BeginFrame(4, new[] { ValueType.F64 }, new[] { "a" });
                    call(writer, buffers.CopyOf(new double[4]), value);
                }
            };
        }

        private static List<EntryPoint> EntryPoints()
        {
            double[] one = new double[1];
            ulong[] noRows = { 0, 0 };
            uint[] none = new uint[0];
            double[] noValues = new double[0];
            ValueType f64 = ValueType.F64;
            return new List<EntryPoint>
            {
                Uint64("Reader.ColumnType", "column", OnReader((r, v) => r.ColumnType(v))),
                Uint64("Reader.ColumnLabel", "column", OnReader((r, v) => r.ColumnLabel(v))),
                Uint64("Reader.ColumnLabelBytes", "column", OnReader((r, v) => r.ColumnLabelBytes(v))),
                Uint64("Reader.IndexEntry", "index", OnReader((r, v) => r.IndexEntry(v))),
                Uint64("Reader.SeekBlock", "index", OnReader((r, v) => r.SeekBlock(v))),
                Uint64("Reader.ReadDense(array)", "rowStride", OnReader((r, v) => r.ReadDense(new double[16], v))),
                Uint64("Reader.ReadDense(address) rowStride", "rowStride",
                    OnReaderWithMemory((r, m, v) => r.ReadDense(f64, m, 64, v))),
                F64Count("Reader.ReadDense(address) capacity", "capacity",
                    OnReaderWithMemory((r, m, v) => r.ReadDense(f64, m, v))),
                Uint64("Reader.ReadWindow row", "row", OnReader((r, v) => r.ReadWindow(v, 0, 1, 1, one))),
                Uint64("Reader.ReadWindow col", "col", OnReader((r, v) => r.ReadWindow(0, v, 1, 1, one))),
                Uint64("Reader.ReadWindow rows", "rows", OnReader((r, v) => r.ReadWindow(0, 0, v, 1, one))),
                Uint64("Reader.ReadWindow cols", "cols", OnReader((r, v) => r.ReadWindow(0, 0, 1, v, one))),
                Uint64("Reader.ReadWindow rowStride", "rowStride",
                    OnReader((r, v) => r.ReadWindow(0, 0, 1, 1, one, v))),
                Uint64("Reader.ReadWindow(address) row", "row",
                    OnReaderWithMemory((r, m, v) => r.ReadWindow(v, 0, 1, 1, f64, m, 64))),
                F64Count("Reader.ReadWindow(address) capacity", "capacity",
                    OnReaderWithMemory((r, m, v) => r.ReadWindow(0, 0, 1, 1, f64, m, v))),
                Uint64("Reader.ReadColumn", "column", OnReader((r, v) => r.ReadColumn(v, new double[4]))),
                Uint64("Reader.ReadColumn(address) column", "column",
                    OnReaderWithMemory((r, m, v) => r.ReadColumn(v, f64, m, 64))),
                F64Count("Reader.ReadColumn(address) capacity", "capacity",
                    OnReaderWithMemory((r, m, v) => r.ReadColumn(0, f64, m, v))),
                Uint64("Block.DecodeDense(array)", "rowStride", OnBlock((b, m, v) => b.DecodeDense(new double[4], v))),
                Uint64("Block.DecodeDense(address) rowStride", "rowStride",
                    OnBlock((b, m, v) => b.DecodeDense(f64, m, 64, v))),
                F64Count("Block.DecodeDense(address) capacity", "capacity",
                    OnBlock((b, m, v) => b.DecodeDense(f64, m, v))),
                Uint64("Writer.BeginMatrix rows", "rows",
                    OnNewWriter((w, v) => w.BeginMatrix(DataType.Dense, f64, v, 2))),
                Uint64("Writer.BeginMatrix cols", "cols",
                    OnNewWriter((w, v) => w.BeginMatrix(DataType.Dense, f64, 2, v))),
                Uint64("Writer.BeginFrame", "rows",
                    OnNewWriter((w, v) => w.BeginFrame(v, new[] { f64 }, new[] { "a" }))),
                Uint64("Writer.AddDense row", "row", OnMatrixWriter((w, m, v) => w.AddDense(v, 0, 1, 1, one))),
                Uint64("Writer.AddDense col", "col", OnMatrixWriter((w, m, v) => w.AddDense(0, v, 1, 1, one))),
                Uint32("Writer.AddDense rows", "rows", OnMatrixWriter((w, m, v) => w.AddDense(0, 0, v, 1, one))),
                Uint32("Writer.AddDense cols", "cols", OnMatrixWriter((w, m, v) => w.AddDense(0, 0, 1, v, one))),
                Uint64("Writer.AddDense rowStride", "rowStride",
                    OnMatrixWriter((w, m, v) => w.AddDense(0, 0, 1, 1, one, v))),
                F64Count("Writer.AddDense(address) count", "count",
                    OnMatrixWriter((w, m, v) => w.AddDense(0, 0, 1, 1, f64, m, v))),
                Uint64("Writer.AddCsr row", "row",
                    OnMatrixWriter((w, m, v) => w.AddCsr(v, 0, 1, 1, noRows, none, noValues))),
                Uint64("Writer.AddCsr col", "col",
                    OnMatrixWriter((w, m, v) => w.AddCsr(0, v, 1, 1, noRows, none, noValues))),
                Uint32("Writer.AddCsr rows", "rows",
                    OnMatrixWriter((w, m, v) => w.AddCsr(0, 0, v, 1, noRows, none, noValues))),
                Uint32("Writer.AddCsr cols", "cols",
                    OnMatrixWriter((w, m, v) => w.AddCsr(0, 0, 1, v, noRows, none, noValues))),
                Uint64("Writer.AddCoo row", "row",
                    OnMatrixWriter((w, m, v) => w.AddCoo(v, 0, 1, 1, none, none, noValues))),
                Uint64("Writer.AddCoo col", "col",
                    OnMatrixWriter((w, m, v) => w.AddCoo(0, v, 1, 1, none, none, noValues))),
                Uint32("Writer.AddCoo rows", "rows",
                    OnMatrixWriter((w, m, v) => w.AddCoo(0, 0, v, 1, none, none, noValues))),
                Uint32("Writer.AddCoo cols", "cols",
                    OnMatrixWriter((w, m, v) => w.AddCoo(0, 0, 1, v, none, none, noValues))),
                Uint64("Writer.AddEmpty row", "row", OnMatrixWriter((w, m, v) => w.AddEmpty(v, 0, 1, 1))),
                Uint64("Writer.AddEmpty col", "col", OnMatrixWriter((w, m, v) => w.AddEmpty(0, v, 1, 1))),
                Uint32("Writer.AddEmpty rows", "rows", OnMatrixWriter((w, m, v) => w.AddEmpty(0, 0, v, 1))),
                Uint32("Writer.AddEmpty cols", "cols", OnMatrixWriter((w, m, v) => w.AddEmpty(0, 0, 1, v))),
                Uint64("Writer.WriteDense rowStride", "rowStride",
                    OnMatrixWriter((w, m, v) => w.WriteDense(new double[16], v))),
                Uint32("Writer.WriteDense blockRows", "blockRows",
                    OnMatrixWriter((w, m, v) => w.WriteDense(new double[16], 0, Encoding.Auto, v, 0))),
                Uint32("Writer.WriteDense blockCols", "blockCols",
                    OnMatrixWriter((w, m, v) => w.WriteDense(new double[16], 0, Encoding.Auto, 0, v))),
                F64Count("Writer.WriteDense(address) count", "count",
                    OnMatrixWriter((w, m, v) => w.WriteDense(f64, m, v))),
                Uint64("Writer.WriteColumn column", "column",
                    OnFrameWriter((w, m, v) => w.WriteColumn(v, new double[4]))),
                Uint32("Writer.WriteColumn blockRows", "blockRows",
                    OnFrameWriter((w, m, v) => w.WriteColumn(0, new double[4], Encoding.Auto, v))),
                F64Count("Writer.WriteColumn(address) count", "count",
                    OnFrameWriter((w, m, v) => w.WriteColumn(0, f64, m, v))),
            };
        }

        private static List<long> OutOfRange(EntryPoint entry)
        {
            List<long> values = new List<long> { -1, -3, long.MinValue };
            if (entry.Maximum < long.MaxValue)
            {
                // For 32-bit parameters: 2^32 and 2^32 + 3.
                values.AddRange(new[] { entry.Maximum + 1, entry.Maximum + 4, long.MaxValue });
            }
            return values;
        }

        [TestCases]
        public IEnumerable<TestCase> OutOfRangeValuesAreRefusedBeforeTheNativeCall()
        {
            foreach (EntryPoint entry in EntryPoints())
            {
                EntryPoint tested = entry;
                yield return new TestCase(tested.Name, () =>
                {
                    foreach (long value in OutOfRange(tested))
                    {
                        ArgumentOutOfRangeException error = Assert.Throws<ArgumentOutOfRangeException>(
                            () => tested.Call(value), tested.Name + " with " + tested.Parameter + " = " + value);
                        Assert.Equal(tested.Parameter, error.ParamName);
                        Assert.Equal((object)value, error.ActualValue);
                        string expected = tested.Parameter + " must be in 0.." + tested.Maximum + ", not " + value;
                        Assert.True(error.Message.StartsWith(expected), error.Message);
                    }
                });
            }
        }

        /// <summary>
        /// The largest legal value passes the check unchanged: the library then refuses it itself (no such column,
        /// block or position, a buffer too small) or takes it (a header or a tile that large).
        /// </summary>
        [TestCases]
        public IEnumerable<TestCase> TheLargestLegalValueReachesTheLibrary()
        {
            foreach (EntryPoint entry in EntryPoints())
            {
                EntryPoint tested = entry;
                yield return new TestCase(tested.Name, () =>
                {
                    try
                    {
                        tested.Call(tested.Maximum);
                    }
                    catch (DbdfException error)
                    {
                        Assert.True(error.Status.IsUsageError(), tested.Name + ": " + error.Message);
                    }
                });
            }
        }
    }
}
