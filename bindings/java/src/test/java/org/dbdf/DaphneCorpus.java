package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The files DAPHNE's runtime wrote (tests/vectors/daphne-runtime) as corpus.json describes them: per file the data
 * type, value type, shape and values (dense row-major; CSR as row_offsets, col_indices, values; frames per column),
 * whether dbdf's daphne writer reproduces it, its .meta file, or the status it is refused with.
 */
final class DaphneCorpus {
    static final Path DIRECTORY =
            Path.of(System.getProperty("dbdf.vectors.dir", "../../tests/vectors")).resolve("daphne-runtime");

    private DaphneCorpus() {
    }

    static Path pathOf(String file) {
        return DIRECTORY.resolve(file);
    }

    static Path pathOf(Map<String, Object> entry) {
        return pathOf(fileOf(entry));
    }

    /** The whole of corpus.json. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> description() {
        Path manifest = pathOf("corpus.json");
        assertTrue(Files.isRegularFile(manifest), "corpus " + manifest.toAbsolutePath() + " exists");
        try {
            return (Map<String, Object>) MiniJson.parse(Files.readString(manifest, StandardCharsets.UTF_8));
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /** Every entry of corpus.json's "files". */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> entries() {
        return (List<Map<String, Object>>) description().get("files");
    }

    static List<Map<String, Object>> readable() {
        return entries().stream().filter(entry -> !entry.containsKey("refused")).toList();
    }

    static List<Map<String, Object>> refused() {
        return entries().stream().filter(entry -> entry.containsKey("refused")).toList();
    }

    /** The dense and CSR matrices and the scalars dbdf's daphne writer must reproduce byte for byte. */
    static List<Map<String, Object>> reproducibleMatricesAndScalars() {
        return readable().stream()
                .filter(entry -> isTrue(entry, "reproducible"))
                .filter(entry -> Set.of(DataType.DENSE, DataType.CSR, DataType.SCALAR).contains(dataTypeOf(entry)))
                .toList();
    }

    static Map<String, Object> entry(String file) {
        List<Map<String, Object>> matching = entries().stream().filter(entry -> fileOf(entry).equals(file)).toList();
        assertTrue(matching.size() == 1, file + " is described once in corpus.json");
        return matching.get(0);
    }

    static boolean isTrue(Map<String, Object> entry, String key) {
        return Boolean.TRUE.equals(entry.get(key));
    }

    static String fileOf(Map<String, Object> entry) {
        return (String) entry.get("file");
    }

    static DataType dataTypeOf(Map<String, Object> entry) {
        return DataType.valueOf(((String) entry.get("data_type")).toUpperCase(Locale.ROOT));
    }

    static ValueType valueTypeOf(Map<String, Object> entry) {
        return ValueType.valueOf(((String) entry.get("value_type")).toUpperCase(Locale.ROOT));
    }

    /** The status a refused entry names ("unsupported", "truncated", ...). */
    static Status refusalOf(Map<String, Object> entry) {
        return Status.valueOf(((String) entry.get("refused")).toUpperCase(Locale.ROOT));
    }

    static long integer(Map<String, Object> entry, String key) {
        return (Long) entry.get(key);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> columns(Map<String, Object> entry) {
        return (List<Map<String, Object>>) entry.get("columns");
    }

    /** How many JSON numbers are listed under {@code key}. */
    static int count(Map<String, Object> entry, String key) {
        return ((List<?>) entry.get(key)).size();
    }

    /**
     * The JSON numbers under {@code key} as values of {@code type} in the Java array that holds it (unsigned types
     * bit for bit in the signed array of their width). Checked: a number the type cannot hold exactly is a corpus
     * error, not something to wrap or round.
     */
    static Object values(Map<String, Object> entry, String key, ValueType type) {
        List<?> numbers = (List<?>) entry.get(key);
        long[] bits = new long[numbers.size()];
        for (int index = 0; index < bits.length; index++) {
            bits[index] = bitsOf(type, numbers.get(index), key + "[" + index + "]");
        }
        return TestData.fromBits(type, bits);
    }

    /** The CSR row offsets of an entry. */
    static long[] rowOffsets(Map<String, Object> entry) {
        return (long[]) values(entry, "row_offsets", ValueType.U64);
    }

    /** The CSR column indices of an entry. */
    static long[] colIndices(Map<String, Object> entry) {
        return (long[]) values(entry, "col_indices", ValueType.U64);
    }

    /** Asserts that two value buffers of {@code type} hold the same bit patterns (so -0.0 and NaN payloads count). */
    static void assertSameValues(ValueType type, Object expected, Object actual, String what) {
        assertArrayEquals(TestData.toBits(type, expected), TestData.toBits(type, actual), what);
    }

    /**
     * The .meta DAPHNE's MetaDataParser writes for a matrix: keys sorted, no spaces; a CSR matrix with its entry
     * count. The runtime's own sidecars in the corpus (all dense) check this form.
     */
    static String matrixMeta(DataType dataType, long rows, long cols, ValueType type, long nonZeros) {
        String counted = dataType == DataType.CSR ? "\"numNonZeros\":" + nonZeros + "," : "";
        return "{\"numCols\":" + cols + "," + counted + "\"numRows\":" + rows + ",\"valueType\":\""
                + daphneTypeName(type) + "\"}";
    }

    /** DAPHNE's name of a value type in .meta files (si64, ui8, f64, ...). */
    static String daphneTypeName(ValueType type) {
        if (type.isFloatingPoint()) {
            return type.name().toLowerCase(Locale.ROOT);
        }
        return (type.isUnsigned() ? "ui" : "si") + (8 * type.size());
    }

    /** Every entry of corpus.json's "invalid": files that open but break a rule in their payload. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> invalid() {
        return (List<Map<String, Object>>) description().get("invalid");
    }

    /**
     * The bit pattern of a JSON number as a value of {@code type}, zero-extended to 64 bits. A float may also be a
     * string "0x..." of its bits (8 hex digits for f32, 16 for f64): NaN payloads, infinities and -0.0.
     */
    private static long bitsOf(ValueType type, Object number, String where) {
        if (type.isFloatingPoint() && number instanceof String bits) {
            assertTrue(bits.startsWith("0x") && bits.length() == 2 + 2 * type.size(),
                    where + ": " + bits + " is the bit pattern of a " + type + " value");
            return Long.parseUnsignedLong(bits.substring(2), 16);
        }
        if (type.isFloatingPoint()) {
            double value = exactDouble(number, where);
            if (type == ValueType.F64) {
                return Double.doubleToRawLongBits(value);
            }
            float narrowed = (float) value;
            assertTrue(narrowed == value, where + ": " + number + " is an f32 value");
            return Float.floatToRawIntBits(narrowed) & 0xFFFF_FFFFL;
        }
        assertTrue(number instanceof Long || number instanceof BigInteger, where + ": " + number + " is an integer");
        BigInteger value = number instanceof Long small ? BigInteger.valueOf(small) : (BigInteger) number;
        int width = 8 * type.size();
        BigInteger lowest = type.isUnsigned() ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(width - 1).negate();
        BigInteger highest = type.isUnsigned() ? BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(width - 1).subtract(BigInteger.ONE);
        assertTrue(value.compareTo(lowest) >= 0 && value.compareTo(highest) <= 0,
                where + ": " + value + " is a " + type + " value");
        return TestData.masked(type, new long[] {value.longValue()})[0];
    }

    private static double exactDouble(Object number, String where) {
        if (number instanceof Double value) {
            return value;
        }
        assertTrue(number instanceof Long, where + ": " + number + " is a number an f64 holds");
        long integer = (Long) number;
        double value = integer;
        assertTrue((long) value == integer, where + ": " + integer + " is exact as an f64");
        return value;
    }
}
