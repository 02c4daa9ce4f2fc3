package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalInt;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a DbdfException tells besides its status: the rule and byte offset as numbers, the whole message however long
 * (the native glue once cut it at 1,024 bytes), decoded from UTF-8, and the same "status: message" text as every
 * binding.
 */
class ErrorDetailsTest {
    private static final Path VECTORS = Path.of(System.getProperty("dbdf.vectors.dir", "../../tests/vectors"));

    @TempDir
    Path temporary;

    private static byte[] vector(String name) throws IOException {
        return Files.readAllBytes(VECTORS.resolve(name));
    }

    private static void decodeEveryBlock(Reader reader) {
        while (reader.nextBlock()) {
            reader.block().toDoubleArray();
        }
    }

    @Test
    void aChangedByteGivesItsRuleAndOffset() throws IOException {
        byte[] bytes = vector("dense_f64.dbdf");
        bytes[18] = 0; // the object's value type: 0 is reserved (rule 6)
        DbdfException reserved = assertThrows(DbdfException.class, () -> Reader.fromBytes(bytes));
        assertEquals(Status.FORMAT, reserved.status());
        assertEquals(OptionalInt.of(6), reserved.rule());
        assertEquals(OptionalLong.of(18), reserved.offset());
        assertEquals("format: object value type 0 is reserved at byte 18 (rule 6)", reserved.getMessage());

        bytes[18] = 10;
        bytes[1] = 9; // data type 9 does not exist: the spec's layout itself, no numbered rule
        DbdfException unknown = assertThrows(DbdfException.class, () -> Reader.fromBytes(bytes));
        assertEquals(OptionalInt.empty(), unknown.rule());
        assertEquals(OptionalLong.of(1), unknown.offset());
        assertTrue(unknown.getMessage().endsWith(" at byte 1 (spec layout)"), unknown.getMessage());
    }

    @Test
    void aMessagePassedOnAsTextGivesItsRuleAndOffsetBack() throws IOException {
        // The message a failing read gives, passed on as text alone (an Arrow stream does so): the same numbers.
        byte[] bytes = vector("dense_f64.dbdf");
        bytes[18] = 0;
        DbdfException direct = assertThrows(DbdfException.class, () -> Reader.fromBytes(bytes));
        DbdfException passedOn = DbdfException.fromLibraryMessage(direct.status(), direct.nativeMessage());
        assertEquals(direct.getMessage(), passedOn.getMessage());
        assertEquals(direct.rule(), passedOn.rule());
        assertEquals(direct.offset(), passedOn.offset());

        DbdfException specLayout = DbdfException.fromLibraryMessage(Status.TRUNCATED,
                "block 3 header ends after 7 of 26 bytes at byte 4096 (spec layout)");
        assertEquals(OptionalInt.empty(), specLayout.rule());
        assertEquals(OptionalLong.of(4096), specLayout.offset());
        DbdfException noPlace = DbdfException.fromLibraryMessage(
                Status.RANGE, "block 2 holds 300, which its value type u8 cannot (rule 8)");
        assertEquals(OptionalInt.of(8), noPlace.rule());
        assertEquals(OptionalLong.empty(), noPlace.offset());
        // Only bad input names rules: an I/O failure's text that happens to end alike (a path) names none.
        DbdfException io = DbdfException.fromLibraryMessage(Status.IO, "cannot open 'x at byte 5 (rule 3)'");
        assertEquals(OptionalInt.empty(), io.rule());
        assertEquals(OptionalLong.empty(), io.offset());
        DbdfException plain = DbdfException.fromLibraryMessage(Status.FORMAT, "the stream ended early");
        assertEquals(OptionalInt.empty(), plain.rule());
        assertEquals(OptionalLong.empty(), plain.offset());
    }

    @Test
    void aBrokenPayloadGivesItsRuleAndOffsetWhenDecoded() throws IOException {
        try (Reader reader = Reader.fromBytes(vector("invalid/csr_unsorted_columns.dbdf"))) {
            DbdfException error = assertThrows(DbdfException.class, () -> decodeEveryBlock(reader));
            assertEquals(Status.FORMAT, error.status());
            assertEquals(OptionalInt.of(12), error.rule());
            assertEquals(OptionalLong.of(69), error.offset());
        }
    }

    @Test
    void aTruncatedFileGivesWhereItEnds() throws IOException {
        byte[] whole = vector("dense_f64.dbdf");
        byte[] cut = Arrays.copyOf(whole, whole.length - 1);
        try (Reader reader = Reader.fromBytes(cut)) {
            DbdfException error = assertThrows(DbdfException.class, () -> decodeEveryBlock(reader));
            assertEquals(Status.TRUNCATED, error.status());
            assertEquals(OptionalInt.of(5), error.rule(), error.getMessage());
            assertEquals(OptionalLong.of(19), error.offset(), error.getMessage());
        }
    }

    @Test
    void failuresOfOtherKindsHaveNoRuleAndNoOffset() {
        DbdfException missing = assertThrows(DbdfException.class, () -> Reader.open(temporary.resolve("absent.dbdf")));
        assertEquals(Status.IO, missing.status());
        assertEquals(OptionalInt.empty(), missing.rule());
        assertEquals(OptionalLong.empty(), missing.offset());
        assertTrue(missing.getMessage().startsWith("io: cannot open '"), missing.getMessage());

        try (Writer writer = Writer.toMemory()) {
            DbdfException callOrder = assertThrows(DbdfException.class, writer::finish);
            assertEquals(Status.CALL_ORDER, callOrder.status());
            assertEquals(OptionalInt.empty(), callOrder.rule());
            assertEquals(OptionalLong.empty(), callOrder.offset());
            assertEquals("call_order: " + callOrder.nativeMessage(), callOrder.getMessage());
        }

        DbdfException made = new DbdfException(Status.RANGE, "made by hand");
        assertEquals("range: made by hand", made.getMessage());
        assertEquals(OptionalInt.empty(), made.rule());
        assertEquals(OptionalLong.empty(), made.offset());
    }

    @Test
    void textIsNotADbdfFile() {
        byte[] csv = "id,price\n1,2.5\n".getBytes(StandardCharsets.US_ASCII);
        DbdfException error = assertThrows(DbdfException.class, () -> Reader.fromBytes(csv));
        assertEquals("format: not a .dbdf file: it starts with \"id,price\\x0A1,2.5\\x0A\" (text) instead of format "
                + "version 1 at byte 0 (rule 6)", error.getMessage());
        assertEquals(OptionalInt.of(6), error.rule());
        assertEquals(OptionalLong.of(0), error.offset());
    }

    /** A repeated label is quoted whole in the message: 3,000 bytes, far past the glue's old 1,024-byte cut. */
    @Test
    void aLongMessageArrivesWhole() {
        String label = "x".repeat(2_990) + "-é𝄞"; // two- and four-byte UTF-8 sequences at its very end
        try (Writer writer = Writer.toMemory()) {
            DbdfException error = assertThrows(DbdfException.class, () -> writer.beginFrame(1,
                    new ValueType[] {ValueType.I32, ValueType.F64}, new String[] {label, label}));
            assertEquals(Status.INVALID_ARGUMENT, error.status());
            assertEquals("label \"" + label + "\" of frame column 1 repeats an earlier label; frame labels must be "
                    + "unique (rule 16)", error.nativeMessage());
            assertEquals("invalid_argument: " + error.nativeMessage(), error.getMessage());
            assertTrue(error.nativeMessage().getBytes(StandardCharsets.UTF_8).length > 3_000);
        }
    }

    @Test
    void aBlockPrintsAsABlock() throws IOException {
        try (Reader reader = Reader.fromBytes(vector("dense_f64.dbdf"))) {
            assertTrue(reader.nextBlock());
            assertEquals("Block[index=0, row=0, col=0, rows=2, cols=3, blockType=DENSE, valueType=F64, "
                    + "storedValues=6, offset=19, encodedBytes=74]", reader.block().toString());
        }
    }
}
