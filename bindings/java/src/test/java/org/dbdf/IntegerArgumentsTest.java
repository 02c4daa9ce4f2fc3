package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every public method that passes a long to a C integer checks it in Java first. Java's long is signed: without the
 * check a negative long would reach a C uint64_t as 2^64 plus the value (beginMatrix(DENSE, F64, -1, 2) would
 * announce 2^64 - 1 rows), and a long beyond 2^32 - 1 would lose its high bits in a uint32_t. Each entry point, over
 * a table, refuses the out-of-range values with IllegalArgumentException naming the parameter, the value and the
 * range, and lets the largest legal value through to the library unchanged.
 */
class IntegerArgumentsTest {
    private static final Path VECTORS = Path.of(System.getProperty("dbdf.vectors.dir", "../../tests/vectors"));
    /** A 4 x 4 frame: column and block 0 exist. */
    private static final Path FRAME = VECTORS.resolve("frame_mixed.dbdf");
    private static final long MAX_UINT32 = 0xFFFF_FFFFL;

    /** One call of an entry point with the value under test in one parameter. */
    private interface Call {
        void run(long value);
    }

    private interface ReaderCall {
        void run(Reader reader, long value);
    }

    private interface WriterCall {
        void run(Writer writer, long value);
    }

    /** An entry point, the parameter the value goes to, and the largest value that parameter takes. */
    private record EntryPoint(String name, String parameter, long maximum, Call call) {
        boolean isUint32() {
            return maximum == MAX_UINT32;
        }
    }

    private static Call onReader(ReaderCall call) {
        return value -> {
            try (Reader reader = Reader.open(FRAME)) {
                call.run(reader, value);
            }
        };
    }

    private static Call onBlock(ReaderCall call) {
        return value -> {
            try (Reader reader = Reader.open(FRAME)) {
                assertTrue(reader.nextBlock());
                call.run(reader, value);
            }
        };
    }

    /** A memory writer that has begun a 4 x 4 f64 matrix. */
    private static Call onMatrixWriter(WriterCall call) {
        return value -> {
            try (Writer writer = Writer.toMemory()) {
                writer.beginMatrix(DataType.DENSE, ValueType.F64, 4, 4);
                call.run(writer, value);
            }
        };
    }

    /** A memory writer that has begun a 4-row frame of one f64 column. */
    private static Call onFrameWriter(WriterCall call) {
        return value -> {
            try (Writer writer = Writer.toMemory()) {
                writer.beginFrame(4, new ValueType[] {ValueType.F64}, new String[] {"a"});
                call.run(writer, value);
            }
        };
    }

    private static Call onNewWriter(WriterCall call) {
        return value -> {
            try (Writer writer = Writer.toMemory()) {
                call.run(writer, value);
            }
        };
    }

    private static EntryPoint uint64(String name, String parameter, Call call) {
        return new EntryPoint(name, parameter, Long.MAX_VALUE, call);
    }

    private static EntryPoint uint32(String name, String parameter, Call call) {
        return new EntryPoint(name, parameter, MAX_UINT32, call);
    }

    private static List<EntryPoint> entryPoints() {
        double[] one = new double[1];
        long[] noRows = {0, 0};
        int[] none = new int[0];
        double[] noValues = new double[0];
        ValueType f64 = ValueType.F64;
        Encoding auto = Encoding.AUTO;
        return List.of(
                uint64("Reader.columnType", "column", onReader((r, v) -> r.columnType(v))),
                uint64("Reader.columnLabel", "column", onReader((r, v) -> r.columnLabel(v))),
                uint64("Reader.columnLabelBytes", "column", onReader((r, v) -> r.columnLabelBytes(v))),
                uint64("Reader.indexEntry", "index", onReader((r, v) -> r.indexEntry(v))),
                uint64("Reader.seekBlock", "index", onReader((r, v) -> r.seekBlock(v))),
                uint64("Reader.readDense", "rowStride", onReader((r, v) -> r.readDense(f64, new double[16], v))),
                uint64("Reader.readWindow row", "row", onReader((r, v) -> r.readWindow(f64, v, 0, 1, 1, one, 0))),
                uint64("Reader.readWindow col", "col", onReader((r, v) -> r.readWindow(f64, 0, v, 1, 1, one, 0))),
                uint64("Reader.readWindow rows", "rows", onReader((r, v) -> r.readWindow(f64, 0, 0, v, 1, one, 0))),
                uint64("Reader.readWindow cols", "cols", onReader((r, v) -> r.readWindow(f64, 0, 0, 1, v, one, 0))),
                uint64("Reader.readWindow rowStride", "rowStride",
                        onReader((r, v) -> r.readWindow(f64, 0, 0, 1, 1, one, v))),
                uint64("Reader.readColumn", "column", onReader((r, v) -> r.readColumn(v, f64, new double[4]))),
                uint64("Block.decodeDense", "rowStride",
                        onBlock((r, v) -> r.block().decodeDense(f64, new double[4], v))),
                uint64("Writer.beginMatrix rows", "rows",
                        onNewWriter((w, v) -> w.beginMatrix(DataType.DENSE, f64, v, 2))),
                uint64("Writer.beginMatrix cols", "cols",
                        onNewWriter((w, v) -> w.beginMatrix(DataType.DENSE, f64, 2, v))),
                uint64("Writer.beginFrame", "rows",
                        onNewWriter((w, v) -> w.beginFrame(v, new ValueType[] {f64}, new String[] {"a"}))),
                uint64("Writer.addDense row", "row", onMatrixWriter((w, v) -> w.addDense(v, 0, 1, 1, one))),
                uint64("Writer.addDense col", "col", onMatrixWriter((w, v) -> w.addDense(0, v, 1, 1, one))),
                uint32("Writer.addDense rows", "rows", onMatrixWriter((w, v) -> w.addDense(0, 0, v, 1, one))),
                uint32("Writer.addDense cols", "cols", onMatrixWriter((w, v) -> w.addDense(0, 0, 1, v, one))),
                uint64("Writer.addDense rowStride", "rowStride",
                        onMatrixWriter((w, v) -> w.addDense(0, 0, 1, 1, f64, one, v, auto))),
                uint64("Writer.addCsr row", "row",
                        onMatrixWriter((w, v) -> w.addCsr(v, 0, 1, 1, f64, noRows, none, noValues))),
                uint64("Writer.addCsr col", "col",
                        onMatrixWriter((w, v) -> w.addCsr(0, v, 1, 1, f64, noRows, none, noValues))),
                uint32("Writer.addCsr rows", "rows",
                        onMatrixWriter((w, v) -> w.addCsr(0, 0, v, 1, f64, noRows, none, noValues))),
                uint32("Writer.addCsr cols", "cols",
                        onMatrixWriter((w, v) -> w.addCsr(0, 0, 1, v, f64, noRows, none, noValues))),
                uint64("Writer.addCoo row", "row",
                        onMatrixWriter((w, v) -> w.addCoo(v, 0, 1, 1, f64, none, none, noValues))),
                uint64("Writer.addCoo col", "col",
                        onMatrixWriter((w, v) -> w.addCoo(0, v, 1, 1, f64, none, none, noValues))),
                uint32("Writer.addCoo rows", "rows",
                        onMatrixWriter((w, v) -> w.addCoo(0, 0, v, 1, f64, none, none, noValues))),
                uint32("Writer.addCoo cols", "cols",
                        onMatrixWriter((w, v) -> w.addCoo(0, 0, 1, v, f64, none, none, noValues))),
                uint64("Writer.addEmpty row", "row", onMatrixWriter((w, v) -> w.addEmpty(v, 0, 1, 1))),
                uint64("Writer.addEmpty col", "col", onMatrixWriter((w, v) -> w.addEmpty(0, v, 1, 1))),
                uint32("Writer.addEmpty rows", "rows", onMatrixWriter((w, v) -> w.addEmpty(0, 0, v, 1))),
                uint32("Writer.addEmpty cols", "cols", onMatrixWriter((w, v) -> w.addEmpty(0, 0, 1, v))),
                uint64("Writer.writeDense rowStride", "rowStride",
                        onMatrixWriter((w, v) -> w.writeDense(f64, new double[16], v, auto, 0, 0))),
                uint32("Writer.writeDense blockRows", "blockRows",
                        onMatrixWriter((w, v) -> w.writeDense(f64, new double[16], 0, auto, v, 0))),
                uint32("Writer.writeDense blockCols", "blockCols",
                        onMatrixWriter((w, v) -> w.writeDense(f64, new double[16], 0, auto, 0, v))),
                uint64("Writer.writeColumn column", "column",
                        onFrameWriter((w, v) -> w.writeColumn(v, f64, new double[4], auto, 0))),
                uint32("Writer.writeColumn blockRows", "blockRows",
                        onFrameWriter((w, v) -> w.writeColumn(0, f64, new double[4], auto, v))));
    }

    private static List<Long> outOfRange(EntryPoint entry) {
        List<Long> values = new ArrayList<>(List.of(-1L, -3L, Long.MIN_VALUE));
        if (entry.isUint32()) {
            values.addAll(List.of(1L << 32, (1L << 32) + 3, Long.MAX_VALUE));
        }
        return values;
    }

    @TestFactory
    Stream<DynamicTest> outOfRangeValuesAreRefusedBeforeTheNativeCall() {
        return entryPoints().stream().map(entry -> DynamicTest.dynamicTest(entry.name(), () -> {
            for (long value : outOfRange(entry)) {
                IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                        () -> entry.call().run(value), entry.name() + " took " + entry.parameter() + " = " + value);
                assertEquals(entry.parameter() + " must be in 0.." + entry.maximum() + ", not " + value,
                        error.getMessage());
            }
        }));
    }

    /**
     * The largest legal value passes the check unchanged: the library then refuses it itself (no such column,
     * block or position, a buffer too small for that stride) or takes it (a header or a tile that large).
     */
    @TestFactory
    Stream<DynamicTest> theLargestLegalValueReachesTheLibrary() {
        return entryPoints().stream().map(entry -> DynamicTest.dynamicTest(entry.name(), () -> {
            try {
                entry.call().run(entry.maximum());
            } catch (DbdfException error) {
                assertTrue(error.status().isUsageError(), error.getMessage());
            } catch (IllegalArgumentException error) {
                fail(entry.name() + " refused " + entry.parameter() + " = " + entry.maximum() + ": " + error);
            }
        }));
    }

    /** The generated layer, reached only from inside org.dbdf, refuses the same values instead of casting them. */
    @Test
    void theGeneratedLayerRefusesWhatItsCastsWouldWrap() {
        NativeWriter writer = new NativeWriter();
        try {
            writer.start_matrix(DataType.DENSE.code(), ValueType.F64.code(), 4, 4);
            IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                    () -> writer.put_empty(-1, 0, 1, 1));
            assertEquals("row must be in 0..9223372036854775807, not -1", negative.getMessage());
            IllegalArgumentException wide = assertThrows(IllegalArgumentException.class,
                    () -> writer.put_empty(0, 0, 1L << 32, 1));
            assertEquals("rows must be in 0..4294967295, not 4294967296", wide.getMessage());
            assertThrows(IllegalArgumentException.class, () -> writer.write_dense_tiled(ValueType.F64.code(),
                    new double[16], -1, Encoding.AUTO.code(), 0, 0));
            assertThrows(IllegalArgumentException.class, () -> writer.write_dense_tiled(ValueType.F64.code(),
                    new double[16], 0, Encoding.AUTO.code(), -1, 0));
            // The refusals pinned nothing and left the writer as it was.
            writer.write_dense_tiled(ValueType.F64.code(), new double[16], 0, Encoding.AUTO.code(), MAX_UINT32, 0);
            writer.finish_object();
        } finally {
            writer.delete();
        }
    }

    @Test
    void aNegativeRowCountNoLongerWritesTheLargestHeader() {
        try (Writer writer = Writer.toMemory()) {
            assertThrows(IllegalArgumentException.class, () -> writer.beginMatrix(DataType.DENSE, ValueType.F64,
                    -1, 2));
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 1, 2); // the refused call wrote nothing
            writer.writeDense(new double[] {1, 2});
            writer.finish();
            try (Reader reader = Reader.fromBytes(writer.toByteArray())) {
                assertEquals(1, reader.info().rows());
                assertEquals(2, reader.info().cols());
            }
        }
    }
}
