package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.dbdf.arrow.DbdfArrow;
import org.junit.jupiter.api.Test;

/** Arrow import: VectorSchemaRoot -> dbdf -> VectorSchemaRoot for every numeric type, and the refusals. */
class ArrowImportTest extends ArrowAllocatorTest {
    private static final int ROWS = 1000;

    /** A root with one column per numeric Arrow type dbdf has, holding each type's extremes and a ramp. */
    private VectorSchemaRoot everyNumericType() {
        List<FieldVector> vectors = List.of(new UInt1Vector("u8", allocator), new UInt2Vector("u16", allocator),
                new UInt4Vector("u32", allocator), new UInt8Vector("u64", allocator),
                new TinyIntVector("i8", allocator), new SmallIntVector("i16", allocator),
                new IntVector("i32", allocator), new BigIntVector("i64", allocator),
                new Float4Vector("f32", allocator), new Float8Vector("f64", allocator));
        for (int row = 0; row < ROWS; row++) {
            long ramp = row * 2654435761L;
            ((UInt1Vector) vectors.get(0)).setSafe(row, (int) (row == 0 ? 255 : ramp & 0xFF));
            ((UInt2Vector) vectors.get(1)).setSafe(row, (int) (row == 0 ? 65535 : ramp & 0xFFFF));
            ((UInt4Vector) vectors.get(2)).setSafe(row, (int) (row == 0 ? -1 : ramp));
            ((UInt8Vector) vectors.get(3)).setSafe(row, row == 0 ? -1L : ramp * 0x9E3779B97F4A7C15L);
            ((TinyIntVector) vectors.get(4)).setSafe(row, (byte) (row == 0 ? Byte.MIN_VALUE : ramp));
            ((SmallIntVector) vectors.get(5)).setSafe(row, (short) (row == 0 ? Short.MIN_VALUE : ramp));
            ((IntVector) vectors.get(6)).setSafe(row, row == 0 ? Integer.MIN_VALUE : (int) ramp);
            ((BigIntVector) vectors.get(7)).setSafe(row, row == 0 ? Long.MIN_VALUE : -ramp);
            ((Float4Vector) vectors.get(8)).setSafe(row,
                    row == 0 ? Float.intBitsToFloat(0x7fc00123) : row == 1 ? -0.0f : row / 7.0f);
            ((Float8Vector) vectors.get(9)).setSafe(row,
                    row == 0 ? Double.longBitsToDouble(0x7ff8000000000abcL) : row == 1 ? -0.0 : row / 3.0);
        }
        VectorSchemaRoot root = new VectorSchemaRoot(vectors);
        root.setRowCount(ROWS);
        return root;
    }

    /** The root as an ArrowReader, in batches of {@code batchRows} rows (Arrow's IPC stream, in memory). */
    private ArrowReader readerOf(VectorSchemaRoot root, int batchRows) throws IOException {
        ByteArrayOutputStream ipc = new ByteArrayOutputStream();
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(root.getSchema(), allocator);
                ArrowStreamWriter writer = new ArrowStreamWriter(batch, null, ipc)) {
            writer.start();
            int rows = root.getRowCount();
            for (int first = 0; first < rows; first += batchRows) {
                try (VectorSchemaRoot slice = root.slice(first, Math.min(batchRows, rows - first));
                        ArrowRecordBatch record = new VectorUnloader(slice).getRecordBatch()) {
                    new VectorLoader(batch).load(record);
                    writer.writeBatch();
                }
            }
            writer.end();
        }
        return new ArrowStreamReader(new ByteArrayInputStream(ipc.toByteArray()), allocator);
    }

    private byte[] written(ArrowReader source, long rows, boolean asMatrix, boolean booleansAsU8) {
        try (Writer writer = Writer.toMemory()) {
            DbdfArrow.write(writer, source, rows, allocator, asMatrix, booleansAsU8);
            writer.finish();
            return writer.toByteArray();
        }
    }

    @Test
    void everyNumericTypeRoundTripsBitForBit() throws IOException {
        try (VectorSchemaRoot original = everyNumericType()) {
            byte[] file = written(readerOf(original, 300), ROWS, false, false);
            try (Reader reader = Reader.fromBytes(file)) {
                assertEquals(DataType.FRAME, reader.info().dataType());
                assertEquals(ROWS, reader.info().rows());
                ValueType[] expectedTypes = {ValueType.U8, ValueType.U16, ValueType.U32, ValueType.U64,
                        ValueType.I8, ValueType.I16, ValueType.I32, ValueType.I64, ValueType.F32, ValueType.F64};
                for (int column = 0; column < expectedTypes.length; column++) {
                    assertEquals(expectedTypes[column], reader.columnType(column), "type of column " + column);
                    assertEquals(original.getVector(column).getName(), reader.columnLabel(column));
                }
                try (ArrowReader back = DbdfArrow.toArrow(reader, allocator)) {
                    VectorSchemaRoot root = back.getVectorSchemaRoot();
                    int offset = 0;
                    while (back.loadNextBatch()) {
                        for (int column = 0; column < expectedTypes.length; column++) {
                            FieldVector exported = root.getVector(column);
                            assertEquals(original.getVector(column).getField().getType(),
                                    exported.getField().getType());
                            try (VectorSchemaRoot expected = original.slice(offset, root.getRowCount())) {
                                assertArrayEquals(ArrowExportTest.valueBytes(expected.getVector(column)),
                                        ArrowExportTest.valueBytes(exported), exported.getName());
                            }
                        }
                        offset += root.getRowCount();
                    }
                    assertEquals(ROWS, offset);
                }
            }
        }
    }

    @Test
    void aMatrixOfOneTypeImportsAsDenseMatrix() throws IOException {
        try (Float8Vector first = new Float8Vector("a", allocator);
                Float8Vector second = new Float8Vector("b", allocator)) {
            for (int row = 0; row < 3; row++) {
                first.setSafe(row, row + 0.5);
                second.setSafe(row, -row);
            }
            VectorSchemaRoot root = new VectorSchemaRoot(List.of(first, second));
            root.setRowCount(3);
            byte[] file = written(readerOf(root, 3), 3, true, false);
            try (Reader reader = Reader.fromBytes(file)) {
                assertEquals(DataType.DENSE, reader.info().dataType());
                double[] values = new double[6];
                reader.readDense(values);
                assertArrayEquals(new double[] {0.5, 0, 1.5, -1, 2.5, -2}, values);
            }
        }
    }

    /** Writing {@code root} fails with {@code status} and a message naming the column as the library does. */
    private void assertRefused(VectorSchemaRoot root, Status status, String column) throws IOException {
        ArrowReader source = readerOf(root, root.getRowCount());
        DbdfException error = assertThrows(DbdfException.class,
                () -> written(source, root.getRowCount(), false, false));
        assertEquals(status, error.status());
        assertTrue(error.getMessage().contains(column), error.getMessage());
    }

    @Test
    void stringsAreRefusedNamingTheColumn() throws IOException {
        try (IntVector numbers = new IntVector("n", allocator);
                VarCharVector names = new VarCharVector("name", allocator)) {
            numbers.setSafe(0, 1);
            names.setSafe(0, "x".getBytes(StandardCharsets.UTF_8));
            VectorSchemaRoot root = new VectorSchemaRoot(List.of(numbers, names));
            root.setRowCount(1);
            assertRefused(root, Status.UNSUPPORTED, "column 1 ('name')");
        }
    }

    @Test
    void aNullIsRefusedNamingTheColumn() throws IOException {
        try (IntVector numbers = new IntVector("with_gap", allocator)) {
            numbers.setSafe(0, 1);
            numbers.setNull(1);
            numbers.setValueCount(2);
            VectorSchemaRoot root = new VectorSchemaRoot(List.of(numbers));
            root.setRowCount(2);
            assertRefused(root, Status.FORMAT, "column 0 ('with_gap') holds a null (row 1");
        }
    }

    @Test
    void booleansNeedTheOption() throws IOException {
        try (BitVector flags = new BitVector("flag", allocator)) {
            flags.setSafe(0, 1);
            flags.setSafe(1, 0);
            flags.setSafe(2, 1);
            flags.setValueCount(3);
            VectorSchemaRoot root = new VectorSchemaRoot(List.of(flags));
            root.setRowCount(3);
            assertRefused(root, Status.UNSUPPORTED, "column 0 ('flag')");

            byte[] file = written(readerOf(root, 3), 3, false, true);
            try (Reader reader = Reader.fromBytes(file)) {
                assertEquals(ValueType.U8, reader.columnType(0));
                byte[] values = new byte[3];
                reader.readColumn(0, ValueType.U8, values);
                assertArrayEquals(new byte[] {1, 0, 1}, values);
            }
        }
    }
}
