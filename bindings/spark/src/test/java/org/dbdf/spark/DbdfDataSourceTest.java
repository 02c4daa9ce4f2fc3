package org.dbdf.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.dbdf.Dialect;
import org.dbdf.Encoding;
import org.dbdf.ReaderOptions;
import org.dbdf.ValueType;
import org.dbdf.Writer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data source on a local[2] session: golden files, partitioning, pruning, writes and their commit protocol. */
class DbdfDataSourceTest {
    private static final Path VECTORS = Path.of(System.getProperty("dbdf.vectors.dir", "../../tests/vectors"));
    private static SparkSession spark;

    @TempDir
    Path temp;

    @BeforeAll
    static void startSpark() {
        spark = SparkSession.builder().master("local[2]").appName("dbdf-spark-test")
                .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
                .config("spark.driver.host", "127.0.0.1")
                // Tiny data: compiling generated code for each query would cost more than it saves.
                .config("spark.sql.codegen.wholeStage", "false").config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
                .getOrCreate();
    }

    @AfterAll
    static void stopSpark() {
        spark.stop();
    }

    @AfterEach
    void resetPartitionBytes() {
        spark.conf().unset("spark.sql.files.maxPartitionBytes");
    }

    private static Dataset<Row> read(Object path) {
        return spark.read().format("dbdf").load(path.toString());
    }

    // ---- golden files ----------------------------------------------------------------------------------------

    @Test
    void everyGoldenFileReadsWithExactValues() throws IOException {
        JsonNode valid = new ObjectMapper().readTree(VECTORS.resolve("vectors.json").toFile()).get("valid");
        int checked = 0;
        for (JsonNode vector : valid) {
            String file = vector.get("file").asText();
            Dataset<Row> frame = read(VECTORS.resolve(file));
            switch (vector.get("data_type").asText()) {
                case "frame" -> checkFrame(vector, frame);
                case "dense" -> {
                    checkDense(vector, frame);
                    // layout=entries on the dense files with several blocks or block types (one Spark job each).
                    if (vector.get("blocks").size() != 1 || !vector.get("blocks").get(0).get("block_type").asText()
                            .equals("dense")) {
                        checkEntries(vector, spark.read().format("dbdf").option("layout", "entries")
                                .load(VECTORS.resolve(file).toString()));
                    }
                }
                default -> checkEntries(vector, frame);
            }
            checked++;
        }
        assertTrue(checked >= 40, "golden files checked: " + checked);
    }

    private static void checkFrame(JsonNode vector, Dataset<Row> frame) {
        JsonNode labels = vector.get("labels");
        JsonNode types = vector.get("column_types");
        String[] names = frame.columns();
        assertEquals(labels.size(), names.length);
        for (int column = 0; column < names.length; column++) {
            String label = labels.get(column).asText();
            assertEquals(label.isEmpty() ? "col_" + column : label, names[column]);
        }
        List<Row> rows = frame.collectAsList();
        JsonNode values = vector.get("values");
        assertEquals(values.size(), rows.size());
        for (int row = 0; row < rows.size(); row++) {
            for (int column = 0; column < names.length; column++) {
                assertCell(types.get(column).asText(), values.get(row).get(column).asText(), rows.get(row).get(column),
                        vector.get("file").asText() + " (" + row + ", " + column + ")");
            }
        }
    }

    private static void checkDense(JsonNode vector, Dataset<Row> frame) {
        int cols = vector.get("cols").asInt();
        assertEquals(cols + 1, frame.columns().length);
        assertEquals("row", frame.columns()[0]);
        List<Row> rows = frame.collectAsList();
        JsonNode values = vector.get("values");
        assertEquals(vector.get("rows").asInt(), rows.size());
        for (int row = 0; row < rows.size(); row++) {
            assertEquals((long) row, rows.get(row).getLong(0));
            for (int column = 0; column < cols; column++) {
                assertCell(vector.get("value_type").asText(), values.get(row).get(column).asText(),
                        rows.get(row).get(column + 1), vector.get("file").asText() + " (" + row + ", " + column + ")");
            }
        }
    }

    /** Every entry holds its cell's value; every non-zero cell is an entry. */
    private static void checkEntries(JsonNode vector, Dataset<Row> frame) {
        assertArrayEquals(new String[] {"row", "col", "value"}, frame.columns());
        String type = vector.get("value_type").asText();
        JsonNode values = vector.get("values");
        boolean[][] seen = new boolean[vector.get("rows").asInt()][vector.get("cols").asInt()];
        for (Row entry : frame.collectAsList()) {
            int row = Math.toIntExact(entry.getLong(0));
            int col = Math.toIntExact(entry.getLong(1));
            assertFalse(seen[row][col], "entry (" + row + ", " + col + ") twice");
            seen[row][col] = true;
            assertCell(type, values.get(row).get(col).asText(), entry.get(2), vector.get("file").asText());
        }
        for (int row = 0; row < seen.length; row++) {
            for (int col = 0; col < seen[row].length; col++) {
                String cell = values.get(row).get(col).asText();
                boolean zero = cell.equals("0") || cell.equals("0x00000000") || cell.equals("0x0000000000000000");
                assertTrue(zero || seen[row][col], vector.get("file").asText() + ": no entry (" + row + ", " + col + ")");
            }
        }
    }

    private static void assertCell(String type, String expected, Object actual, String where) {
        switch (type) {
            case "f64" -> assertEquals(Long.parseUnsignedLong(expected.substring(2), 16),
                    Double.doubleToRawLongBits((Double) actual), where);
            case "f32" -> assertEquals(Integer.parseUnsignedInt(expected.substring(2), 16),
                    Float.floatToRawIntBits((Float) actual), where);
            case "u64" -> assertEquals(new BigDecimal(new BigInteger(expected)), (BigDecimal) actual, where);
            default -> {
                Class<?> expectedClass = switch (type) {
                    case "i8" -> Byte.class;
                    case "i16", "u8" -> Short.class;
                    case "i32", "u16" -> Integer.class;
                    default -> Long.class;
                };
                assertEquals(expectedClass, actual.getClass(), where);
                assertEquals(new BigInteger(expected), BigInteger.valueOf(((Number) actual).longValue()), where);
            }
        }
    }

    @Test
    void invalidFilesFailNamingTheFileTheFaultAndTheRule() throws IOException {
        JsonNode invalid = new ObjectMapper().readTree(VECTORS.resolve("vectors.json").toFile()).get("invalid");
        int checked = 0;
        for (JsonNode vector : invalid) {
            String file = vector.get("file").asText();
            Exception failed = assertThrows(Exception.class, () -> spark.read().format("dbdf")
                    .option("layout", "entries").load(VECTORS.resolve(file).toString()).collectAsList(), file);
            String text = file + ": " + messages(failed);
            assertTrue(text.contains("dbdf: cannot read ") && text.contains(file), text);
            assertTrue(text.contains(vector.get("status").asText() + ": "), text);
            int rule = vector.get("rule").asInt();
            assertTrue(text.contains(rule == 0 ? "(spec layout)" : "(rule " + rule + ")"), text);
            checked++;
        }
        assertTrue(checked >= 20, "invalid files checked: " + checked);
    }

    @Test
    void daphneDialectReadsTheRuntimesFiles() throws IOException {
        JsonNode corpus = new ObjectMapper().readTree(VECTORS.resolve("daphne-runtime/corpus.json").toFile());
        JsonNode entry = null;
        for (JsonNode file : corpus.get("files")) {
            if (file.get("file").asText().equals("dense_f64_3x4.dbdf")) {
                entry = file;
            }
        }
        List<Row> rows = spark.read().format("dbdf").option("dialect", "daphne")
                .load(VECTORS.resolve("daphne-runtime/dense_f64_3x4.dbdf").toString()).collectAsList();
        assertEquals(3, rows.size());
        for (int row = 0; row < 3; row++) {
            for (int column = 0; column < 4; column++) {
                assertEquals(entry.get("values").get(row * 4 + column).asDouble(), rows.get(row).getDouble(column + 1));
            }
        }
        Exception refused = assertThrows(Exception.class, () -> spark.read().format("dbdf").option("dialect", "daphne2")
                .load(VECTORS.resolve("dense_f64.dbdf").toString()).collectAsList());
        assertTrue(messages(refused).contains("option dialect must be 'spec' or 'daphne'"), messages(refused));
    }

    // ---- partitioning and pruning ----------------------------------------------------------------------------

    @Test
    void partitionsAreRowBandsMergedUpToMaxPartitionBytes() {
        // multi_block_shuffled.dbdf: blocks over rows [0, 2), [2, 4) and [4, 5), in shuffled order: three bands.
        Path shuffled = VECTORS.resolve("multi_block_shuffled.dbdf");
        assertEquals(1, read(shuffled).rdd().getNumPartitions());
        spark.conf().set("spark.sql.files.maxPartitionBytes", "1");
        Dataset<Row> banded = read(shuffled);
        assertEquals(3, banded.rdd().getNumPartitions());
        List<Row> rows = banded.collectAsList();
        assertEquals(5, rows.size());
        for (int row = 0; row < 5; row++) {
            assertEquals((long) row, rows.get(row).getLong(0));
        }
        // The same values as one partition.
        spark.conf().unset("spark.sql.files.maxPartitionBytes");
        assertEquals(read(shuffled).collectAsList(), rows);
    }

    // ---- columnar reads ----------------------------------------------------------------------------------------

    @Test
    void framesAndDenseMatricesAreReadAsColumnarBatches() throws IOException {
        Path file = temp.resolve("columnar.dbdf");
        // Columns of several value types in one-column blocks of 2 rows, and a u64 column of extremes.
        try (Writer writer = Writer.toFile(file)) {
            writer.beginFrame(5, new ValueType[] {ValueType.U8, ValueType.U64, ValueType.F32},
                    new String[] {"small", "big", "ratio"});
            writer.writeColumn(0, ValueType.U8, new byte[] {0, 1, (byte) 255, 7, (byte) 128}, Encoding.AS_GIVEN, 2);
            writer.writeColumn(1, ValueType.U64, new long[] {0, -1, 1L << 63, 42, 7}, Encoding.AS_GIVEN, 2);
            writer.writeColumn(2, ValueType.F32, new float[] {-0.0f, 0.5f, Float.NaN, 3, -2}, Encoding.AS_GIVEN, 2);
            writer.finish();
        }
        Dataset<Row> frame = read(file);
        String plan = frame.queryExecution().executedPlan().toString();
        assertTrue(plan.contains("ColumnarToRow"), plan);
        List<Row> rows = frame.collectAsList();
        assertEquals(List.of((short) 0, (short) 1, (short) 255, (short) 7, (short) 128),
                rows.stream().map(row -> row.getShort(0)).toList());
        assertEquals(List.of(BigInteger.ZERO, new BigInteger("18446744073709551615"),
                new BigInteger("9223372036854775808"), BigInteger.valueOf(42), BigInteger.valueOf(7)),
                rows.stream().map(row -> row.getDecimal(1).toBigIntegerExact()).toList());
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(rows.get(0).getFloat(2)));
        assertTrue(Float.isNaN(rows.get(2).getFloat(2)));
        // A pruned column of a dense matrix, with the row index.
        Dataset<Row> matrix = read(VECTORS.resolve("multi_block_shuffled.dbdf")).select("row", "c6");
        assertTrue(matrix.queryExecution().executedPlan().toString().contains("ColumnarToRow"));
        assertEquals(read(VECTORS.resolve("multi_block_shuffled.dbdf")).select("row", "c6").collectAsList(),
                matrix.collectAsList());
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), matrix.collectAsList().stream().map(row -> row.getLong(0)).toList());
    }

    @Test
    void columnsOfWideBlocksAreReadTogetherWithExactValues() throws IOException {
        // 4 x 5 doubles: rows 0-1 in one block of all 5 columns; rows 2-3 in blocks of columns 0-2 and 3-4. Cell
        // (r, c) holds r * 10 + c, except two bit patterns that must survive: -0.0 and a NaN with a payload.
        long nanBits = 0x7ff8_0000_dead_beefL;
        double[] values = new double[20];
        for (int cell = 0; cell < 20; cell++) {
            values[cell] = cell / 5 * 10 + cell % 5;
        }
        values[1] = -0.0;
        values[13] = Double.longBitsToDouble(nanBits);
        Path file = temp.resolve("wide_blocks.dbdf");
        try (Writer writer = Writer.toFile(file)) {
            writer.beginMatrix(org.dbdf.DataType.DENSE, ValueType.F64, 4, 5);
            writer.addDense(0, 0, 2, 5, ValueType.F64, java.util.Arrays.copyOfRange(values, 0, 10));
            writer.addDense(2, 0, 2, 3, ValueType.F64, new double[] {20, 21, 22, 30, 31, 32});
            writer.addDense(2, 3, 2, 2, ValueType.F64, new double[] {values[13], 24, 33, 34});
            writer.finish();
        }
        // Out of column order, with a gap (c2) and columns on both sides of the second band's block edge.
        List<Row> rows = read(file).select("c4", "c0", "c1", "c3", "row").collectAsList();
        int[] columns = {4, 0, 1, 3};
        for (int row = 0; row < 4; row++) {
            for (int field = 0; field < columns.length; field++) {
                assertEquals(Double.doubleToRawLongBits(values[row * 5 + columns[field]]),
                        Double.doubleToRawLongBits(rows.get(row).getDouble(field)),
                        "row " + row + ", c" + columns[field]);
            }
            assertEquals(row, rows.get(row).getLong(4));
        }
        assertEquals(nanBits, Double.doubleToRawLongBits(rows.get(2).getDouble(3)));
        // Through the generated code of a columnar aggregation too.
        Row sums = read(file).agg(functions.sum("c0"), functions.sum("c4")).first();
        assertEquals(0 + 10 + 20 + 30, sums.getDouble(0));
        assertEquals(4 + 14 + 24 + 34, sums.getDouble(1));
    }

    @Test
    void aTallEmptyBlockIsReadInBoundedBatches() throws IOException {
        Path file = temp.resolve("tall.dbdf");
        long rows = 3_000_000_000L;
        try (Writer writer = Writer.toFile(file)) {
            writer.beginFrame(rows, new ValueType[] {ValueType.F64}, new String[] {"x"});
            writer.addEmpty(0, 0, rows, 1);
            writer.finish();
        }
        assertTrue(Files.size(file) < 200, "a file of " + Files.size(file) + " bytes");
        Dataset<Row> tall = read(file);
        assertEquals(1, tall.rdd().getNumPartitions());
        // The first batch only: 64 MiB of values (8 Mi rows), not 3e9 rows at once.
        List<Row> first = tall.limit(3).collectAsList();
        assertEquals(List.of(0.0, 0.0, 0.0), first.stream().map(row -> row.getDouble(0)).toList());
        // The partition reader itself: batches of 64 MiB of values, the band read slice by slice.
        long batchRows = ColumnarBandReader.MAX_BATCH_BYTES / Double.BYTES;
        HadoopFiles.OpenReader open = HadoopFiles.open(file.toString(), Files.size(file),
                new Configuration(), ReaderOptions.defaults());
        TableShape shape = TableShape.of(open.reader(), new ReadOptions(Dialect.SPEC, false), file.toString());
        DbdfInputPartition partition = new DbdfInputPartition(file.toString(), Files.size(file),
                BandPlanner.bands(open.reader()));
        try (ColumnarBandReader batches = new ColumnarBandReader(open, shape, new int[] {0}, partition)) {
            for (int batch = 0; batch < 2; batch++) {
                assertTrue(batches.next());
                assertEquals(batchRows, batches.get().numRows());
                assertEquals(0.0, batches.get().column(0).getDouble((int) batchRows - 1));
                // As Spark's generated code does with a batch it has consumed; the reader closes it again.
                batches.get().closeIfFreeable();
            }
        }
    }

    @Test
    void directoriesAndGlobsHaveOnePartitionGroupPerFile() throws IOException {
        Path dir = Files.createDirectories(temp.resolve("two"));
        Files.copy(VECTORS.resolve("dense_i32.dbdf"), dir.resolve("a.dbdf"));
        Files.copy(VECTORS.resolve("dense_i32.dbdf"), dir.resolve("b.dbdf"));
        Files.writeString(dir.resolve("_SUCCESS"), "");
        Files.writeString(dir.resolve("notes.txt"), "not read");
        assertEquals(2, read(dir).rdd().getNumPartitions());
        assertEquals(4, read(dir).count());
        assertEquals(2, read(dir.resolve("a*.dbdf")).count());
        Files.copy(VECTORS.resolve("dense_f64.dbdf"), dir.resolve("c.dbdf"));
        Exception mixed = assertThrows(Exception.class, () -> read(dir).collectAsList());
        assertTrue(messages(mixed).contains("all files of a load must have one schema"), messages(mixed));
        Exception missing = assertThrows(Exception.class, () -> read(temp.resolve("nothing")).collectAsList());
        assertTrue(messages(missing).contains("path does not exist"), messages(missing));
    }

    @Test
    void columnsNotSelectedAreNotDecoded() {
        Path dir = temp.resolve("pruning");
        // 4 partitions of 25 rows, blocks of 10 rows: 3 bands per file, 3 columns, so 9 blocks per file.
        spark.range(0, 100).repartition(4).selectExpr("id", "cast(id * 2 as double) as twice", "cast(id as int) as small")
                .write().format("dbdf").option("blockRows", "10").save(dir.toString());
        Dataset<Row> frame = read(dir);
        long before = BlockDecoding.decodedBlocks();
        assertEquals(9900.0, frame.agg(functions.sum("twice")).first().getDouble(0));
        long oneColumn = BlockDecoding.decodedBlocks() - before;
        before = BlockDecoding.decodedBlocks();
        assertEquals(100, frame.collectAsList().size());
        long allColumns = BlockDecoding.decodedBlocks() - before;
        assertEquals(12, oneColumn);
        assertEquals(36, allColumns);
    }

    // ---- writing -----------------------------------------------------------------------------------------------

    private Dataset<Row> numericFrame(long rows) {
        return spark.range(0, rows).selectExpr("id", "cast(id % 100 - 50 as tinyint) as tiny",
                "cast(id * 3 as smallint) as small", "cast(-id as int) as medium", "cast(id / 4 as float) as single",
                "cast(id / 8 as double) as ratio",
                "cast(if(id = 0, 18446744073709551615, id) as decimal(20,0)) as unsigned");
    }

    @Test
    void writtenFramesReadBackAsTheSameRows() throws IOException {
        Path dir = temp.resolve("round-trip");
        Dataset<Row> written = numericFrame(1000).repartition(3);
        written.write().format("dbdf").save(dir.toString());
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.forEach(file -> names.add(file.getFileName().toString()));
        }
        assertEquals(3, names.stream().filter(name -> name.matches("part-0000[0-2]-[0-9a-f-]{36}\\.dbdf")).count(),
                names.toString());
        assertTrue(names.contains("_SUCCESS"), names.toString());
        assertFalse(names.contains("_temporary"), names.toString());
        Dataset<Row> back = read(dir);
        // The same names and types; every column read from .dbdf is non-nullable.
        for (int field = 0; field < written.schema().size(); field++) {
            assertEquals(written.schema().fields()[field].name(), back.schema().fields()[field].name());
            assertEquals(written.schema().fields()[field].dataType(), back.schema().fields()[field].dataType());
        }
        assertEquals(numericFrame(1000).orderBy("id").collectAsList(), back.orderBy("id").collectAsList());
        assertEquals(new BigDecimal("18446744073709551615"),
                back.where("id = 0").select("unsigned").first().getDecimal(0));
    }

    @Test
    void saveModesActAsTheBuiltInSources() {
        Path dir = temp.resolve("modes");
        numericFrame(10).coalesce(1).write().format("dbdf").save(dir.toString());
        Exception exists = assertThrows(Exception.class,
                () -> numericFrame(5).write().format("dbdf").save(dir.toString()));
        assertTrue(messages(exists).contains("already exists"), messages(exists));
        numericFrame(5).write().format("dbdf").mode(SaveMode.Ignore).save(dir.toString());
        assertEquals(10, read(dir).count());
        numericFrame(5).coalesce(1).write().format("dbdf").mode(SaveMode.Append).save(dir.toString());
        assertEquals(15, read(dir).count());
        numericFrame(7).coalesce(1).write().format("dbdf").mode(SaveMode.Overwrite).save(dir.toString());
        assertEquals(7, read(dir).count());
    }

    @Test
    void nonNumericColumnsAreRefusedByName() {
        Path dir = temp.resolve("text");
        Exception refused = assertThrows(Exception.class, () -> spark.range(0, 3)
                .selectExpr("id", "cast(id as string) as name").write().format("dbdf").save(dir.toString()));
        assertTrue(messages(refused).contains("column 'name' has type string"), messages(refused));
        assertFalse(Files.exists(dir));
    }

    @Test
    void aFailedTaskLeavesNoPartialOutput() throws IOException {
        Path dir = temp.resolve("failing");
        spark.udf().register("failAt700", (UDF1<Long, Long>) id -> {
            if (id == 700) {
                throw new IllegalStateException("injected failure at row 700");
            }
            return id;
        }, DataTypes.LongType);
        // One task: the rows before 700 have gone into its staging file when the failure comes.
        Exception failed = assertThrows(Exception.class, () -> spark.range(0, 1000).coalesce(1)
                .selectExpr("failAt700(id) as id").write().format("dbdf").save(dir.toString()));
        assertTrue(messages(failed).contains("injected failure at row 700"), messages(failed));
        try (Stream<Path> left = Files.walk(dir)) {
            List<Path> files = left.filter(Files::isRegularFile).toList();
            assertEquals(List.of(), files);
        }
        assertFalse(Files.exists(dir.resolve("_temporary")));
    }

    private static String messages(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            text.append(cause).append('\n');
        }
        return text.toString();
    }
}
