package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Bad input, wrong call order, closed handles and too-small buffers: exceptions with the right status, no crash. */
class ErrorHandlingTest {
    @TempDir
    Path temporary;

    private static DbdfException assertStatus(Status expected, Executable call) {
        DbdfException error = assertThrows(DbdfException.class, call);
        assertEquals(expected, error.status(), error.getMessage());
        assertEquals(expected.code(), error.statusCode());
        assertFalse(error.nativeMessage().isEmpty(), "the library explains the failure");
        return error;
    }

    /** An IllegalArgumentException whose message says which check refused the buffer. */
    private static void assertRejected(String reason, Executable call) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, call);
        assertTrue(error.getMessage().contains(reason), error.getMessage());
    }

    @Test
    void missingFileIsAnIoError() {
        Path absent = temporary.resolve("absent.dbdf");
        DbdfException error = assertStatus(Status.IO, () -> Reader.open(absent));
        assertTrue(error.status().isIoError());
        assertFalse(error.status().isInvalidData());
        // What Java code catches for a missing file: an UncheckedIOException whose cause is NoSuchFileException.
        assertTrue(error instanceof UncheckedIOException);
        NoSuchFileException cause = assertInstanceOf(NoSuchFileException.class, error.getCause());
        assertEquals(absent.toString(), cause.getFile());
        assertTrue(cause.getMessage().contains(error.nativeMessage()), cause.getMessage());
    }

    @Test
    void writingIntoAMissingFolderIsAnIoErrorCausedByNoSuchFileException() {
        Path intoMissingFolder = temporary.resolve("no-such-folder").resolve("m.dbdf");
        DbdfException error = assertStatus(Status.IO, () -> Writer.toFile(intoMissingFolder, Dialect.SPEC, false));
        // As Files.newOutputStream reports it: a NoSuchFileException naming the file to write.
        NoSuchFileException cause = assertInstanceOf(NoSuchFileException.class, error.getCause());
        assertEquals(intoMissingFolder.toString(), cause.getFile());
        assertTrue(cause.getMessage().contains(error.nativeMessage()), cause.getMessage());
        assertFalse(Files.exists(intoMissingFolder.getParent()));
    }

    @Test
    void unreadableExistingPathIsAnIoErrorWithAPlainIoExceptionCause() {
        // A directory exists: the failure is I/O but not a missing file.
        DbdfException error = assertStatus(Status.IO, () -> Reader.open(temporary));
        assertEquals(IOException.class, error.getCause().getClass());
        assertEquals(error.getMessage(), error.getCause().getMessage());
    }

    @Test
    void formatErrorsAreUncheckedIoExceptionsWithTheirRuleAndOffset() {
        byte[] header = new byte[19];
        header[0] = 2; // version 2 does not exist
        header[1] = 1;
        header[18] = 10;
        UncheckedIOException caught = assertThrows(UncheckedIOException.class, () -> Reader.fromBytes(header));
        DbdfException error = assertInstanceOf(DbdfException.class, caught);
        assertEquals(Status.FORMAT, error.status());
        assertEquals(0L, error.offset().getAsLong());
        assertInstanceOf(IOException.class, error.getCause());
    }

    @Test
    void malformedHeadersAreInvalidData() {
        DbdfException truncated = assertStatus(Status.TRUNCATED, () -> Reader.fromBytes(new byte[] {1, 1, 0, 0}));
        assertTrue(truncated.status().isInvalidData());
        byte[] header = new byte[19];
        header[0] = 2; // version 2 does not exist
        header[1] = 1;
        header[18] = 10;
        assertStatus(Status.FORMAT, () -> Reader.fromBytes(header));
        header[0] = 1;
        header[1] = 0; // data type 0 is reserved
        assertStatus(Status.FORMAT, () -> Reader.fromBytes(header));
    }

    @Test
    void truncatedBodyFailsOnTheBlockAndKeepsFailing() {
        byte[] bytes = CrossLanguageMatrix.bytes();
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 3);
        try (Reader reader = Reader.fromBytes(cut)) {
            DbdfException error = null;
            int blocks = 0;
            try {
                while (reader.nextBlock()) {
                    blocks++;
                }
            } catch (DbdfException thrown) {
                error = thrown;
            }
            assertTrue(error != null && error.status() == Status.TRUNCATED, "truncated last block is reported");
            assertEquals(3, blocks);
            assertStatus(Status.TRUNCATED, reader::nextBlock);
            assertStatus(Status.TRUNCATED, reader::validate);
        }
    }

    /**
     * A 1 x 2 u8 matrix whose two 1 x 1 dense blocks store the u16 values 256 and 300: each block breaks rule 8
     * (every stored value representable in the object's value type), at its value.
     */
    private static byte[] twoUnrepresentableBlocks() {
        try (Writer writer = Writer.toMemory()) {
            writer.beginMatrix(DataType.DENSE, ValueType.U16, 1, 2);
            writer.addDense(0, 0, 1, 1, ValueType.U16, new short[] {256}, 0, Encoding.AS_GIVEN);
            writer.addDense(0, 1, 1, 1, ValueType.U16, new short[] {300}, 0, Encoding.AS_GIVEN);
            writer.finish();
            byte[] bytes = writer.toByteArray();
            // Made u8 only now (the header's last byte): the writer refuses values that u8 cannot hold.
            bytes[18] = (byte) ValueType.U8.code();
            return bytes;
        }
    }

    @Test
    void violationsListEveryBrokenRuleInFileOrder() {
        try (Reader reader = Reader.fromBytes(twoUnrepresentableBlocks())) {
            List<Violation> violations = reader.violations();
            // Each value follows its block's 26-byte record header: block 0 starts at byte 19, block 1 at byte 47.
            assertEquals(List.of(8, 8), violations.stream().map(Violation::rule).toList(), violations.toString());
            assertEquals(List.of(45L, 73L), violations.stream().map(Violation::offset).toList(),
                    violations.toString());
            assertTrue(violations.get(0).message().contains("value 256"), violations.get(0).message());
            assertTrue(violations.get(1).message().contains("value 300"), violations.get(1).message());
            for (Violation violation : violations) {
                assertTrue(violation.message().endsWith("at byte " + violation.offset() + " (rule 8)"),
                        violation.message());
            }
            assertThrows(UnsupportedOperationException.class, violations::clear, "the list is unmodifiable");
            // validate() fails on the first violation, with the same message; checking leaves the reader as it was.
            DbdfException error = assertStatus(Status.RANGE, reader::validate);
            assertEquals(violations.get(0).message(), error.nativeMessage());
            assertEquals(violations, reader.violations());
            assertTrue(reader.nextBlock());
            assertEquals(0, reader.block().index());
        }
    }

    @Test
    void violationIsAValue() {
        Violation violation = new Violation(12, 57, "row 0 has column index 2 at byte 57 (rule 12)");
        assertEquals(12, violation.rule());
        assertEquals(57, violation.offset());
        assertEquals("row 0 has column index 2 at byte 57 (rule 12)", violation.message());
        assertEquals(new Violation(12, 57, violation.message()), violation);
        assertTrue(violation.toString().contains(violation.message()), violation.toString());
        assertThrows(NullPointerException.class, () -> new Violation(0, 0, null));
    }

    @Test
    void writerCallOrderIsChecked() {
        try (Writer writer = Writer.toMemory()) {
            assertStatus(Status.CALL_ORDER, () -> writer.addDense(0, 0, 1, 1, new double[] {1}));
            assertStatus(Status.CALL_ORDER, writer::finish);
            assertStatus(Status.CALL_ORDER, writer::toByteArray);
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 2, 2);
            assertStatus(Status.CALL_ORDER, () -> writer.beginMatrix(DataType.DENSE, ValueType.F64, 2, 2));
            writer.addDense(0, 0, 1, 2, new double[] {1, 2});
            // Cells of row 1 are not covered yet: finish fails and the writer stays usable.
            assertStatus(Status.FORMAT, writer::finish);
            assertStatus(Status.CALL_ORDER, writer::toByteArray);
            writer.addDense(1, 0, 1, 2, new double[] {3, 4});
            writer.finish();
            assertStatus(Status.CALL_ORDER, () -> writer.addEmpty(0, 0, 1, 1));
            try (Reader reader = Reader.fromBytes(writer.toByteArray())) {
                assertArrayEquals(new double[] {1, 2, 3, 4}, reader.readDoubles());
            }
        }
    }

    @Test
    void writerRejectsBadBlocks() {
        try (Writer writer = Writer.toMemory()) {
            writer.beginMatrix(DataType.DENSE, ValueType.U8, 3, 3);
            // Outside the object.
            assertStatus(Status.INVALID_ARGUMENT, () -> writer.addDense(2, 2, 2, 2, ValueType.U8, new byte[4]));
            writer.addDense(0, 0, 2, 2, ValueType.U8, new byte[] {1, 2, 3, 4});
            // Overlapping the first block.
            assertStatus(Status.INVALID_ARGUMENT, () -> writer.addEmpty(1, 1, 2, 2));
            // 300 is not a u8 (rule 8).
            assertStatus(Status.RANGE, () -> writer.addDense(0, 2, 1, 1, ValueType.I32, new int[] {300}));
            // Fewer values than the block needs.
            assertStatus(Status.INVALID_ARGUMENT, () -> writer.addDense(0, 2, 3, 1, ValueType.U8, new byte[2]));
            // CSR arrays shorter than the block needs: checked before any native access.
            assertStatus(Status.INVALID_ARGUMENT, () -> writer.addCsr(2, 0, 1, 3, ValueType.U8, new long[] {0},
                    new int[0], new byte[0]));
            assertStatus(Status.INVALID_ARGUMENT, () -> writer.addCsr(2, 0, 1, 3, ValueType.U8,
                    new long[] {0, 2}, new int[] {0}, new byte[] {1, 2}));
            assertStatus(Status.INVALID_ARGUMENT, () -> writer.addCoo(2, 0, 1, 3, ValueType.U8, new int[] {0, 0},
                    new int[] {1}, new byte[] {1, 2}));
            // Unsorted column indices.
            assertStatus(Status.INVALID_ARGUMENT, () -> writer.addCsr(2, 0, 1, 3, ValueType.U8,
                    new long[] {0, 2}, new int[] {2, 1}, new byte[] {1, 2}));
        }
    }

    @Test
    void frameHeadersAreChecked() {
        try (Writer writer = Writer.toMemory()) {
            assertStatus(Status.INVALID_ARGUMENT, () -> writer.beginFrame(2,
                    new ValueType[] {ValueType.I32, ValueType.F64}, new String[] {"same", "same"}));
        }
        try (Writer writer = Writer.toMemory()) {
            assertThrows(IllegalArgumentException.class,
                    () -> writer.beginFrame(2, new ValueType[] {ValueType.I32}, new String[] {"a", "b"}));
            assertStatus(Status.INVALID_ARGUMENT,
                    () -> writer.beginFrame(2, new ValueType[] {ValueType.NONE}, new String[] {"a"}));
        }
    }

    @Test
    void readerCallOrderAndStaleBlocks() {
        try (Reader reader = Reader.fromBytes(CrossLanguageMatrix.bytes())) {
            assertThrows(IllegalStateException.class, reader::block);
            assertTrue(reader.nextBlock());
            Block first = reader.block();
            assertTrue(reader.nextBlock());
            IllegalStateException stale = assertThrows(IllegalStateException.class, first::toDoubleArray);
            assertTrue(stale.getMessage().contains("no longer the current block"));
            assertThrows(IllegalStateException.class, first::payload);
            assertEquals(0, first.index(), "the description stays readable");
            while (reader.nextBlock()) {
                // Walk to the end.
            }
            assertThrows(IllegalStateException.class, reader::block);
            assertStatus(Status.INVALID_ARGUMENT, () -> reader.indexEntry(4));
            assertStatus(Status.INVALID_ARGUMENT, () -> reader.seekBlock(4));
            // A negative index is refused in Java: it would reach the library as 2^64 - 1.
            assertThrows(IllegalArgumentException.class, () -> reader.seekBlock(-1));
            assertStatus(Status.INVALID_ARGUMENT, () -> reader.columnType(5));
            assertStatus(Status.INVALID_ARGUMENT, () -> reader.columnLabel(0));
            assertStatus(Status.INVALID_ARGUMENT,
                    () -> reader.readWindow(ValueType.F64, 5, 0, 2, 1, new double[2], 0));
        }
    }

    @Test
    void tooSmallBuffersThrow() {
        try (Reader reader = Reader.fromBytes(CrossLanguageMatrix.bytes())) {
            assertStatus(Status.BUFFER_TOO_SMALL, () -> reader.readDense(ValueType.F64, new double[29], 0));
            assertStatus(Status.BUFFER_TOO_SMALL, () -> reader.readDense(ValueType.F64,
                    ByteBuffer.allocateDirect(29 * 8).order(ByteOrder.nativeOrder()), 0));
            assertStatus(Status.BUFFER_TOO_SMALL, () -> reader.readColumn(0, ValueType.F64, new double[5]));
            long entries = reader.countEntries();
            assertStatus(Status.BUFFER_TOO_SMALL, () -> reader.readCsr(ValueType.F64, new long[7],
                    new long[(int) entries - 1], new double[(int) entries]));
            assertStatus(Status.BUFFER_TOO_SMALL, () -> reader.readCsr(ValueType.F64, new long[6],
                    new long[(int) entries], new double[(int) entries]));
            assertTrue(reader.nextBlock());
            Block block = reader.block();
            assertStatus(Status.BUFFER_TOO_SMALL, () -> block.decodeDense(new double[11]));
            // A wider stride needs more room.
            assertStatus(Status.BUFFER_TOO_SMALL, () -> block.decodeDense(ValueType.F64, new double[12], 4));
            assertStatus(Status.INVALID_ARGUMENT, () -> block.decodeDense(ValueType.F64, new double[12], 2));
            long blockEntries = block.countEntries();
            assertStatus(Status.BUFFER_TOO_SMALL, () -> block.decodeCsr(ValueType.F64, new long[5],
                    new int[(int) blockEntries - 1], new double[(int) blockEntries]));
            assertStatus(Status.BUFFER_TOO_SMALL, () -> block.decodeCoo(ValueType.F64, new int[(int) blockEntries],
                    new int[(int) blockEntries], new double[(int) blockEntries - 1]));
            // The reader is still fine after all that.
            assertEquals(12, block.toDoubleArray().length);
        }
    }

    @Test
    void mismatchedBuffersAreRejectedInJava() {
        try (Reader reader = Reader.fromBytes(CrossLanguageMatrix.bytes())) {
            assertThrows(IllegalArgumentException.class, () -> reader.readDense(ValueType.F64, new long[30], 0));
            assertThrows(IllegalArgumentException.class, () -> reader.readDense(ValueType.U8, new short[30], 0));
            assertRejected("must be direct", () -> reader.readDense(ValueType.F64,
                    ByteBuffer.allocate(240).order(ByteOrder.nativeOrder()), 0));
            assertRejected("read-only", () -> reader.readDense(ValueType.F64,
                    ByteBuffer.allocateDirect(240).order(ByteOrder.nativeOrder()).asReadOnlyBuffer(), 0));
            assertRejected("not aligned", () -> reader.readDense(ValueType.F64,
                    ByteBuffer.allocateDirect(248).order(ByteOrder.nativeOrder()).position(3), 0));
            assertRejected("NONE", () -> reader.readDense(ValueType.NONE, new byte[30], 0));
            assertThrows(NullPointerException.class, () -> reader.readDense(ValueType.F64, (double[]) null, 0));
            assertThrows(IllegalArgumentException.class, () -> Reader.fromBuffer(ByteBuffer.allocate(4)));
        }
        try (Writer writer = Writer.toMemory()) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 1, 1);
            assertThrows(IllegalArgumentException.class, () -> writer.addDense(0, 0, -1, 1, new double[1]));
            assertThrows(IllegalArgumentException.class, () -> writer.addDense(0, 0, 1L << 32, 1, new double[1]));
            assertThrows(NullPointerException.class, () -> writer.addCoo(0, 0, 1, 1, ValueType.F64, null,
                    new int[1], new double[1]));
        }
    }

    @Test
    void closedHandlesThrowIllegalState() {
        Reader reader = Reader.fromBytes(CrossLanguageMatrix.bytes());
        assertTrue(reader.nextBlock());
        Block block = reader.block();
        reader.close();
        assertDoesNotThrow(reader::close, "close is idempotent");
        assertTrue(reader.isClosed());
        List<Executable> readerCalls = List.of(reader::info, reader::nextBlock, reader::block, reader::rewind,
                reader::buildIndex, () -> reader.indexEntry(0), () -> reader.seekBlock(0), reader::readDoubles,
                () -> reader.readDense(new double[30]), reader::countEntries, reader::validate, reader::violations,
                () -> reader.columnType(0), () -> reader.blocks().iterator(), block::toDoubleArray, block::payload,
                block::countEntries);
        for (Executable call : readerCalls) {
            assertThrows(IllegalStateException.class, call);
        }

        Writer writer = Writer.toMemory();
        writer.beginMatrix(DataType.DENSE, ValueType.F64, 1, 1);
        writer.close();
        writer.close();
        assertTrue(writer.isClosed());
        List<Executable> writerCalls = List.of(() -> writer.addDense(0, 0, 1, 1, new double[1]),
                () -> writer.addEmpty(0, 0, 1, 1), writer::finish, writer::bytesWritten, writer::toByteArray,
                () -> writer.beginMatrix(DataType.DENSE, ValueType.F64, 1, 1));
        for (Executable call : writerCalls) {
            assertThrows(IllegalStateException.class, call);
        }
    }

    @Test
    void abandonedFileWriterLeavesTheTargetUntouched() throws Exception {
        Path target = temporary.resolve("kept.dbdf");
        Files.write(target, new byte[] {42});
        try (Writer writer = Writer.toFile(target)) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 2, 2);
            writer.addEmpty(0, 0, 2, 2);
            // No finish: closing discards everything.
        }
        assertArrayEquals(new byte[] {42}, Files.readAllBytes(target));
        try (var entries = Files.list(temporary)) {
            assertEquals(1, entries.count(), "no temporary file is left behind");
        }
        assertStatus(Status.IO, () -> Writer.toFile(temporary.resolve("no-such-dir").resolve("x.dbdf")));
    }

    /** The generated layer alone must not crash either: a freed handle is a NULL handle to the library. */
    @Test
    void generatedClassesSurviveMisuse() {
        NativeWriter writer = new NativeWriter();
        writer.delete();
        writer.delete();
        assertStatus(Status.INVALID_ARGUMENT, writer::finish_object);
        assertStatus(Status.INVALID_ARGUMENT, () -> writer.put_dense(0, 0, 1, 1, ValueType.F64.code(),
                new double[1], 0, 0));
        NativeWriter fresh = new NativeWriter();
        try {
            assertThrows(IllegalArgumentException.class, () -> fresh.put_dense(0, 0, 1, 1, ValueType.F64.code(),
                    "text", 0, 0));
        } finally {
            fresh.delete();
        }

        byte[] bytes = CrossLanguageMatrix.bytes();
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
        direct.put(bytes).flip();
        NativeReader reader = new NativeReader(direct);
        NativeBlockInfo info = new NativeBlockInfo();
        assertTrue(reader.move_next(info));
        // A value buffer whose width does not match the type is bounded by its size in bytes: 12 ints hold 6 doubles.
        assertStatus(Status.BUFFER_TOO_SMALL, () -> reader.decode_dense(ValueType.F64.code(), new int[12], 0));
        assertStatus(Status.INVALID_ARGUMENT, () -> reader.decode_dense(99, new double[12], 0));
        assertStatus(Status.INVALID_ARGUMENT, () -> reader.current_block(null));
        NativeViolations found = reader.find_violations();
        assertEquals(0, found.count());
        assertStatus(Status.INVALID_ARGUMENT, () -> found.rule(0));
        assertStatus(Status.INVALID_ARGUMENT, () -> found.message_bytes(-1));
        found.delete();
        found.delete();
        assertStatus(Status.INVALID_ARGUMENT, found::count);
        assertStatus(Status.INVALID_ARGUMENT, () -> found.offset(0));
        reader.delete();
        assertStatus(Status.INVALID_ARGUMENT, () -> reader.move_next(info));
        assertStatus(Status.INVALID_ARGUMENT, reader::payload);
        assertStatus(Status.INVALID_ARGUMENT, reader::find_violations);
        info.delete();
        // The native reader read `direct` in place until it was freed.
        Reference.reachabilityFence(direct);
    }
}
