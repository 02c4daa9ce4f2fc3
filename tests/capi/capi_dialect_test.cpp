// Section 5 of dbdf.h: the daphne dialect through the C ABI, against the files DAPHNE's runtime wrote.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

namespace fs = std::filesystem;

const std::string kCorpus = std::string(DBDF_VECTORS_DIR) + "/daphne-runtime/";

std::vector<std::uint8_t> load(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

ReaderHandle open_daphne_file(const std::string& name) {
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    dbdf_reader_t* reader = nullptr;
    EXPECT_EQ(dbdf_reader_open_file_with_options((kCorpus + name).c_str(), &options, &reader), DBDF_OK)
        << dbdf_last_error_message();
    return ReaderHandle(reader);
}

TEST(CapiDialect, NamesAndOptionDefaults) {
    EXPECT_STREQ(dbdf_dialect_name(DBDF_DIALECT_SPEC), "spec");
    EXPECT_STREQ(dbdf_dialect_name(DBDF_DIALECT_DAPHNE), "daphne");
    EXPECT_STREQ(dbdf_dialect_name(static_cast<dbdf_dialect_t>(2)), "unknown");
    EXPECT_STREQ(dbdf_data_type_name(DBDF_DATA_SCALAR), "scalar");
    EXPECT_STREQ(dbdf_data_type_name(static_cast<dbdf_data_type_t>(5)), "unknown");
    dbdf_dialect_t dialect = DBDF_DIALECT_SPEC;
    ASSERT_OK(dbdf_dialect_from_name("daphne", &dialect));
    EXPECT_EQ(dialect, DBDF_DIALECT_DAPHNE);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_dialect_from_name("Daphne", &dialect));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_dialect_from_name(nullptr, &dialect));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_dialect_from_name("spec", nullptr));

    dbdf_open_options_t open_options;
    std::memset(&open_options, 0xff, sizeof open_options);
    dbdf_open_options_init(&open_options);
    EXPECT_EQ(open_options.struct_size, sizeof(dbdf_open_options_t));
    EXPECT_EQ(open_options.dialect, DBDF_DIALECT_SPEC);
    dbdf_open_options_init(nullptr);
    dbdf_writer_options_t writer_options;
    std::memset(&writer_options, 0xff, sizeof writer_options);
    dbdf_writer_options_init(&writer_options);
    EXPECT_EQ(writer_options.struct_size, sizeof(dbdf_writer_options_t));
    EXPECT_EQ(writer_options.dialect, DBDF_DIALECT_SPEC);
    EXPECT_EQ(writer_options.write_meta, 1);
    dbdf_writer_options_init(nullptr);
}

TEST(CapiDialect, ReadsRuntimeCsrFile) {
    ReaderHandle reader = open_daphne_file("csr_f64_6x5.dbdf");
    ASSERT_TRUE(reader);
    dbdf_dialect_t dialect = DBDF_DIALECT_SPEC;
    ASSERT_OK(dbdf_reader_dialect(reader.get(), &dialect));
    EXPECT_EQ(dialect, DBDF_DIALECT_DAPHNE);
    dbdf_object_info_t info{};
    ASSERT_OK(dbdf_reader_object_info(reader.get(), &info));
    EXPECT_EQ(info.data_type, DBDF_DATA_CSR);
    EXPECT_EQ(info.value_type, DBDF_VALUE_F64);
    EXPECT_EQ(info.rows, 6u);
    EXPECT_EQ(info.cols, 5u);
    int recoverable = -1;
    ASSERT_OK(dbdf_reader_labels_recoverable(reader.get(), &recoverable));
    EXPECT_EQ(recoverable, 1);

    dbdf_payload_layout_t layout = DBDF_PAYLOAD_SPEC;
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_reader_block_payload_layout(reader.get(), &layout, nullptr));
    dbdf_block_info_t block{};
    ASSERT_OK(dbdf_reader_next_block(reader.get(), &block));
    EXPECT_EQ(block.block_type, DBDF_BLOCK_CSR);
    EXPECT_EQ(block.stored_values, 7u);
    std::uint64_t stride = 99;
    ASSERT_OK(dbdf_reader_block_payload_layout(reader.get(), &layout, &stride));
    EXPECT_EQ(layout, DBDF_PAYLOAD_DAPHNE_CSR);
    EXPECT_EQ(stride, 0u);
    EXPECT_STATUS(DBDF_END_OF_BLOCKS, dbdf_reader_next_block(reader.get(), nullptr));

    std::vector<std::uint64_t> offsets(7), cols(7);
    std::vector<double> values(7);
    std::uint64_t entries = 0;
    ASSERT_OK(dbdf_reader_read_csr(reader.get(), DBDF_VALUE_F64, offsets.data(), offsets.size(), cols.data(),
                                   values.data(), values.size(), &entries));
    EXPECT_EQ(entries, 7u);
    EXPECT_EQ(offsets, (std::vector<std::uint64_t>{0, 2, 2, 3, 6, 7, 7}));
    EXPECT_EQ(cols, (std::vector<std::uint64_t>{1, 4, 0, 2, 3, 4, 1}));
    EXPECT_EQ(values, (std::vector<double>{1.5, -2.25, 3.0, 4.5, 5.0, 6.75, 7.125}));
    std::uint64_t violations = 1;
    ASSERT_OK(dbdf_reader_validate(reader.get(), nullptr, nullptr, &violations));
    EXPECT_EQ(violations, 0u);
}

TEST(CapiDialect, ReadsRuntimeFrameFromMemory) {
    const auto bytes = load(kCorpus + "frame_mixed.dbdf");
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    dbdf_reader_t* raw = nullptr;
    ASSERT_OK(dbdf_reader_open_memory_with_options(bytes.data(), bytes.size(), &options, &raw));
    ReaderHandle reader(raw);
    int recoverable = -1;
    ASSERT_OK(dbdf_reader_labels_recoverable(reader.get(), &recoverable));
    EXPECT_EQ(recoverable, 0);
    const char* label = nullptr;
    size_t length = 0;
    ASSERT_OK(dbdf_reader_column_label(reader.get(), 1, &label, &length));
    EXPECT_EQ(std::string(label, length), "col_1");
    dbdf_value_type_t type = DBDF_VALUE_NONE;
    ASSERT_OK(dbdf_reader_column_type(reader.get(), 2, &type));
    EXPECT_EQ(type, DBDF_VALUE_F32);
    std::vector<double> scores(4);
    ASSERT_OK(dbdf_reader_read_column(reader.get(), 1, DBDF_VALUE_F64, scores.data(), scores.size()));
    EXPECT_EQ(scores, (std::vector<double>{-1.0, 0.5, 2.0, 3.5}));
    ASSERT_OK(dbdf_reader_seek_block(reader.get(), 0));
    dbdf_payload_layout_t layout = DBDF_PAYLOAD_SPEC;
    std::uint64_t stride = 0;
    ASSERT_OK(dbdf_reader_block_payload_layout(reader.get(), &layout, &stride));
    EXPECT_EQ(layout, DBDF_PAYLOAD_STRIDED_COLUMN);
    EXPECT_EQ(stride, 20u);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_block_payload_layout(reader.get(), nullptr, &stride));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_block_payload_layout(nullptr, &layout, &stride));
}

TEST(CapiDialect, RefusalsAndBadOptions) {
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    dbdf_reader_t* reader = nullptr;
    EXPECT_STATUS(DBDF_ERR_UNSUPPORTED,
                  dbdf_reader_open_file_with_options((kCorpus + "dense_str_2x2.dbdf").c_str(), &options, &reader));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("cannot be recovered"), std::string::npos);
    EXPECT_STATUS(DBDF_ERR_TRUNCATED,
                  dbdf_reader_open_file_with_options((kCorpus + "frame_strcol_partial.dbdf").c_str(), &options, &reader));
    EXPECT_EQ(reader, nullptr);

    dbdf_open_options_t unknown = DBDF_OPEN_OPTIONS_INIT;
    const int bad_dialect = 7;
    std::memcpy(&unknown.dialect, &bad_dialect, sizeof bad_dialect);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_reader_open_file_with_options((kCorpus + "csr_f64_6x5.dbdf").c_str(), &unknown, &reader));
    dbdf_open_options_t unset = DBDF_OPEN_OPTIONS_INIT;
    unset.struct_size = 0;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_memory_with_options("x", 1, &unset, &reader));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_memory_with_options(nullptr, 3, &options, &reader));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_file_with_options(nullptr, &options, &reader));
    EXPECT_STATUS(DBDF_ERR_IO, dbdf_reader_open_file_with_options("/nonexistent/x.dbdf", &options, &reader));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_dialect(nullptr, nullptr));
    int flag = 0;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_labels_recoverable(nullptr, &flag));

    // NULL options mean the spec dialect, which stays strict: the runtime's file does not read as spec.
    ASSERT_OK(dbdf_reader_open_file_with_options((kCorpus + "dense_f64_3x4.dbdf").c_str(), nullptr, &reader));
    ReaderHandle spec_reader(reader);
    dbdf_dialect_t dialect = DBDF_DIALECT_DAPHNE;
    ASSERT_OK(dbdf_reader_dialect(spec_reader.get(), &dialect));
    EXPECT_EQ(dialect, DBDF_DIALECT_SPEC);
    std::uint64_t violations = 0;
    EXPECT_NE(dbdf_reader_validate(spec_reader.get(), nullptr, nullptr, &violations), DBDF_OK);
}

TEST(CapiDialect, ScalarReadsAsOneByOne) {
    ReaderHandle reader = open_daphne_file("value_i64_serialized.bin");
    dbdf_object_info_t info{};
    ASSERT_OK(dbdf_reader_object_info(reader.get(), &info));
    EXPECT_EQ(info.data_type, DBDF_DATA_SCALAR);
    EXPECT_EQ(info.value_type, DBDF_VALUE_I64);
    std::int64_t value = 0;
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_I64, &value, 1, 0));
    EXPECT_EQ(value, -7);
}

TEST(CapiDialect, ScalarIsWrittenAsTheRuntimeSerializesIt) {
    dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    dbdf_writer_t* raw = nullptr;
    ASSERT_OK(dbdf_writer_open_memory_with_options(&options, &raw));
    WriterHandle f64(raw);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_begin_matrix(f64.get(), DBDF_DATA_SCALAR, DBDF_VALUE_F64, 2, 1));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("1 x 1"), std::string::npos) << dbdf_last_error_message();
    ASSERT_OK(dbdf_writer_begin_matrix(f64.get(), DBDF_DATA_SCALAR, DBDF_VALUE_F64, 1, 1));
    const double value = 3.25;
    ASSERT_OK(dbdf_writer_write_dense(f64.get(), DBDF_VALUE_F64, &value, 1, 0, nullptr));
    ASSERT_OK(dbdf_writer_finish(f64.get()));
    EXPECT_EQ(finished_bytes(f64.get()), load(kCorpus + "value_f64_serialized.bin"));

    // One 1 x 1 block does it too, and the file writer leaves out the .meta sidecar: the runtime writes none.
    const fs::path directory = fs::temp_directory_path() / ("dbdf-capi-scalar-" + std::to_string(::getpid()));
    fs::create_directories(directory);
    const fs::path path = directory / "value_i64_serialized.bin";
    ASSERT_OK(dbdf_writer_open_file_with_options(path.c_str(), &options, &raw));
    WriterHandle i64(raw);
    ASSERT_OK(dbdf_writer_begin_matrix(i64.get(), DBDF_DATA_SCALAR, DBDF_VALUE_I64, 1, 1));
    const std::int8_t small = -7;
    ASSERT_OK(dbdf_writer_add_dense(i64.get(), 0, 0, 1, 1, DBDF_VALUE_I8, &small, 1, 0, nullptr));
    ASSERT_OK(dbdf_writer_finish(i64.get()));
    EXPECT_EQ(load(path.string()), load(kCorpus + "value_i64_serialized.bin"));
    EXPECT_FALSE(fs::exists(path.string() + ".meta"));
    fs::remove_all(directory);

    // Read back through the C ABI: a scalar again.
    ReaderHandle reader = open_daphne_file("value_f64_serialized.bin");
    dbdf_object_info_t info{};
    ASSERT_OK(dbdf_reader_object_info(reader.get(), &info));
    EXPECT_EQ(info.data_type, DBDF_DATA_SCALAR);
}

TEST(CapiDialect, TheSpecDialectRefusesScalars) {
    dbdf_writer_t* raw = nullptr;
    ASSERT_OK(dbdf_writer_open_memory(&raw));
    WriterHandle writer(raw);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_SCALAR, DBDF_VALUE_F64, 1, 1));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("only in the daphne dialect"), std::string::npos)
        << dbdf_last_error_message();
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_FRAME, DBDF_VALUE_F64, 1, 1));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_writer_begin_matrix(writer.get(), static_cast<dbdf_data_type_t>(5), DBDF_VALUE_F64, 1, 1));
    // Nothing was begun: the writer still takes a 1 x 1 dense matrix.
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, 1));
}

TEST(CapiDialect, MemoryWriterReproducesRuntimeBytes) {
    dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    dbdf_writer_t* raw = nullptr;
    ASSERT_OK(dbdf_writer_open_memory_with_options(&options, &raw));
    WriterHandle writer(raw);
    dbdf_dialect_t dialect = DBDF_DIALECT_SPEC;
    ASSERT_OK(dbdf_writer_dialect(writer.get(), &dialect));
    EXPECT_EQ(dialect, DBDF_DIALECT_DAPHNE);
    std::vector<double> values;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c) values.push_back(r * 10.0 + c + 0.5);
    }
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 3, 4));
    // A block narrower than the matrix is refused (full-width row bands are not: see the next test).
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_add_dense(writer.get(), 0, 0, 3, 2, DBDF_VALUE_F64,
                                                                   values.data(), values.size(), 4, nullptr));
    ASSERT_OK(dbdf_writer_write_dense(writer.get(), DBDF_VALUE_F64, values.data(), values.size(), 0, nullptr));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    EXPECT_EQ(finished_bytes(writer.get()), load(kCorpus + "dense_f64_3x4.dbdf"));

    ASSERT_OK(dbdf_writer_open_memory_with_options(&options, &raw));
    WriterHandle refused(raw);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_begin_matrix(refused.get(), DBDF_DATA_DENSE, DBDF_VALUE_I16, 2, 2));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("i16"), std::string::npos);

    dbdf_writer_options_t unknown = DBDF_WRITER_OPTIONS_INIT;
    const int bad_dialect = -1;
    std::memcpy(&unknown.dialect, &bad_dialect, sizeof bad_dialect);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_open_memory_with_options(&unknown, &raw));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_open_memory_with_options(&options, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_dialect(nullptr, &dialect));
}

// Section 5's rule for dense matrices: full-width row bands in order, each written as it comes, give the bytes of
// one covering call; the bands the dialect cannot take get their statuses and leave the writer usable.
TEST(CapiDialect, DenseMatricesTakeFullWidthRowBands) {
    dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    dbdf_writer_t* raw = nullptr;
    ASSERT_OK(dbdf_writer_open_memory_with_options(&options, &raw));
    WriterHandle writer(raw);
    std::vector<double> values;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c) values.push_back(r * 10.0 + c + 0.5);
    }
    auto band = [&](std::uint64_t row, std::uint64_t col, std::uint32_t rows, std::uint32_t cols) {
        return dbdf_writer_add_dense(writer.get(), row, col, rows, cols, DBDF_VALUE_F64, values.data() + row * 4 + col,
                                     values.size() - (row * 4 + col), 4, nullptr);
    };
    auto message_has = [](const char* fragment) {
        return std::string(dbdf_last_error_message()).find(fragment) != std::string::npos;
    };
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 3, 4));
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, band(1, 0, 1, 4));
    EXPECT_TRUE(message_has("is out of order: the next band starts at row 0")) << dbdf_last_error_message();
    ASSERT_OK(band(0, 0, 1, 4));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, band(1, 1, 1, 3));
    EXPECT_TRUE(message_has("does not cover all 4 columns")) << dbdf_last_error_message();
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, band(0, 0, 2, 4));
    EXPECT_TRUE(message_has("overlaps the rows written so far (row 0)")) << dbdf_last_error_message();
    EXPECT_STATUS(DBDF_ERR_FORMAT, dbdf_writer_finish(writer.get()));
    EXPECT_TRUE(message_has("missing rows 1 to 2")) << dbdf_last_error_message();
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER,
                  dbdf_writer_write_dense(writer.get(), DBDF_VALUE_F64, values.data(), values.size(), 0, nullptr));
    // The refusals changed nothing: the remaining rows finish the runtime's file.
    ASSERT_OK(band(1, 0, 1, 4));
    ASSERT_OK(band(2, 0, 1, 4));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    EXPECT_EQ(finished_bytes(writer.get()), load(kCorpus + "dense_f64_3x4.dbdf"));

    // A file writer in bands: the runtime's file and its .meta sidecar; an empty band gives the all-zero file.
    const fs::path directory = fs::temp_directory_path() / ("dbdf-capi-bands-" + std::to_string(::getpid()));
    fs::create_directories(directory);
    const fs::path path = directory / "dense_f64_zeros_2x2.dbdf";
    ASSERT_OK(dbdf_writer_open_file_with_options(path.c_str(), &options, &raw));
    WriterHandle file(raw);
    ASSERT_OK(dbdf_writer_begin_matrix(file.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 2));
    const std::int32_t zeros[2] = {0, 0};
    ASSERT_OK(dbdf_writer_add_dense(file.get(), 0, 0, 1, 2, DBDF_VALUE_I32, zeros, 2, 0, nullptr));
    ASSERT_OK(dbdf_writer_add_empty(file.get(), 1, 0, 1, 2));
    ASSERT_OK(dbdf_writer_finish(file.get()));
    EXPECT_EQ(load(path.string()), load(kCorpus + "dense_f64_zeros_2x2.dbdf"));
    EXPECT_EQ(load(path.string() + ".meta"), load(kCorpus + "dense_f64_zeros_2x2.dbdf.meta"));
    fs::remove_all(directory);
}

int append_bytes(void* context, const void* data, size_t nbytes) {
    auto* out = static_cast<std::vector<std::uint8_t>*>(context);
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    out->insert(out->end(), bytes, bytes + nbytes);
    return 0;
}

TEST(CapiDialect, CallbackWriterReproducesRuntimeCsr) {
    dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    std::vector<std::uint8_t> output;
    dbdf_writer_t* raw = nullptr;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_open_callback_with_options(nullptr, &output, &options, &raw));
    ASSERT_OK(dbdf_writer_open_callback_with_options(append_bytes, &output, &options, &raw));
    WriterHandle writer(raw);
    const std::vector<std::uint64_t> offsets{0, 2, 2, 3, 5};
    const std::vector<std::uint64_t> cols{0, 3, 1, 2, 3};
    const std::vector<std::int64_t> values{1, -42, 1000000000000, 7, -1};
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, DBDF_VALUE_I64, 4, 4));
    ASSERT_OK(dbdf_writer_write_csr(writer.get(), DBDF_VALUE_I64, offsets.data(), cols.data(), values.data(), 5, nullptr));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    EXPECT_EQ(output, load(kCorpus + "csr_i64_4x4.dbdf"));
}

TEST(CapiDialect, FileWriterWritesTheMetaSidecar) {
    const fs::path directory = fs::temp_directory_path() / ("dbdf-capi-dialect-" + std::to_string(::getpid()));
    fs::create_directories(directory);
    const std::vector<std::uint8_t> values{15, 31, 47, 63, 79, 95, 111, 127, 143, 159, 175, 191, 207, 223, 239, 255};
    for (const int write_meta : {1, 0}) {
        const fs::path path = directory / ("u8_" + std::to_string(write_meta) + ".dbdf");
        dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
        options.dialect = DBDF_DIALECT_DAPHNE;
        options.write_meta = write_meta;
        dbdf_writer_t* raw = nullptr;
        ASSERT_OK(dbdf_writer_open_file_with_options(path.c_str(), &options, &raw));
        WriterHandle writer(raw);
        ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_U8, 4, 4));
        ASSERT_OK(dbdf_writer_write_dense(writer.get(), DBDF_VALUE_U8, values.data(), values.size(), 0, nullptr));
        ASSERT_OK(dbdf_writer_finish(writer.get()));
        EXPECT_EQ(load(path.string()), load(kCorpus + "dense_u8_4x4.dbdf"));
        EXPECT_EQ(fs::exists(path.string() + ".meta"), write_meta == 1);
        if (write_meta == 1) {
            EXPECT_EQ(load(path.string() + ".meta"), load(kCorpus + "dense_u8_4x4.dbdf.meta"));
        }
    }
    dbdf_writer_t* raw = nullptr;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_open_file_with_options(nullptr, nullptr, &raw));
    EXPECT_STATUS(DBDF_ERR_IO, dbdf_writer_open_file_with_options("/nonexistent/dir/x.dbdf", nullptr, &raw));
    fs::remove_all(directory);
}

// The bytes DAPHNE's runtime writes for an f64 CSR matrix of 0 x 3 (csr_f64_0x3 of its corpus, 61 bytes): header,
// (rx, cx), the header of its one 0 x 3 block, #nzb = 0 and the single row offset 0.
std::vector<std::uint8_t> runtime_csr_f64_0x3() {
    std::vector<std::uint8_t> bytes{1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 7};
    bytes.resize(bytes.size() + 16, 0);                 // rx, cx
    bytes.insert(bytes.end(), {0, 0, 0, 0, 3, 0, 0, 0});  // block #r = 0, #c = 3
    bytes.insert(bytes.end(), {2, 7});                  // CSR, f64
    bytes.resize(bytes.size() + 16, 0);                 // #nzb = 0, rowOffsets = [0]
    return bytes;
}

// Copying the runtime's block of a matrix without cells, as every block-by-block conversion does, gives the spec
// file of that object (its header: rule 4 gives it no blocks) and, in the daphne dialect, the runtime's bytes.
TEST(CapiDialect, TheBlockOfAMatrixWithoutCellsCopiesIntoEitherDialect) {
    const std::vector<std::uint8_t> runtime = runtime_csr_f64_0x3();
    ASSERT_EQ(runtime.size(), 61u);
    for (const dbdf_dialect_t output : {DBDF_DIALECT_SPEC, DBDF_DIALECT_DAPHNE}) {
        SCOPED_TRACE(dbdf_dialect_name(output));
        dbdf_open_options_t open_options = DBDF_OPEN_OPTIONS_INIT;
        open_options.dialect = DBDF_DIALECT_DAPHNE;
        dbdf_reader_t* raw_reader = nullptr;
        ASSERT_OK(dbdf_reader_open_memory_with_options(runtime.data(), runtime.size(), &open_options, &raw_reader));
        ReaderHandle reader(raw_reader);
        dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
        options.dialect = output;
        dbdf_writer_t* raw_writer = nullptr;
        ASSERT_OK(dbdf_writer_open_memory_with_options(&options, &raw_writer));
        WriterHandle writer(raw_writer);
        ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, DBDF_VALUE_F64, 0, 3));
        dbdf_block_info_t block{};
        ASSERT_OK(dbdf_reader_next_block(reader.get(), &block));
        EXPECT_EQ(block.rows, 0u);
        EXPECT_EQ(block.cols, 3u);
        EXPECT_EQ(block.block_type, DBDF_BLOCK_CSR);
        std::uint64_t row_offsets[1] = {99};
        std::uint32_t col_indices[1] = {0};
        double values[1] = {0};
        std::uint64_t entries = 99;
        ASSERT_OK(dbdf_reader_block_decode_csr(reader.get(), DBDF_VALUE_F64, row_offsets, 1, col_indices, values, 1,
                                               &entries));
        EXPECT_EQ(entries, 0u);
        EXPECT_EQ(row_offsets[0], 0u);
        dbdf_write_options_t as_given = DBDF_WRITE_OPTIONS_INIT;
        as_given.encoding = DBDF_ENCODING_AS_GIVEN;
        ASSERT_OK(dbdf_writer_add_csr(writer.get(), block.row, block.col, block.rows, block.cols, DBDF_VALUE_F64,
                                      row_offsets, col_indices, values, entries, &as_given));
        EXPECT_EQ(dbdf_reader_next_block(reader.get(), &block), DBDF_END_OF_BLOCKS);
        ASSERT_OK(dbdf_writer_finish(writer.get()));
        if (output == DBDF_DIALECT_SPEC) {
            const std::vector<std::uint8_t> header(runtime.begin(), runtime.begin() + 18);
            std::vector<std::uint8_t> expected = header;
            expected.push_back(10);  // the spec's code for f64
            EXPECT_EQ(finished_bytes(writer.get()), expected);
        } else {
            EXPECT_EQ(finished_bytes(writer.get()), runtime);
        }
    }
    // In an object with cells a block without any is still refused (rule 4).
    WriterHandle writer = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 3));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_add_empty(writer.get(), 0, 0, 0, 3));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("(rule 4)"), std::string::npos) << dbdf_last_error_message();
}

// DAPHNE's frame reader copies each label over a 32-byte std::string object: a longer label would overflow its heap.
TEST(CapiDialect, FrameLabelsLongerThanDaphnesReaderSurvivesAreRefused) {
    dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    dbdf_writer_t* raw = nullptr;
    ASSERT_OK(dbdf_writer_open_memory_with_options(&options, &raw));
    WriterHandle writer(raw);
    const dbdf_value_type_t types[2] = {DBDF_VALUE_I64, DBDF_VALUE_F64};
    const std::string too_long(33, 'q');
    const char* labels[2] = {"id", too_long.c_str()};
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_begin_frame(writer.get(), 1, 2, types, labels, nullptr));
    EXPECT_STREQ(dbdf_last_error_message(),
                 "frame column 1 label 'qqqqqqqqqqqqqqqqqqqq\u2026' is 33 bytes; DAPHNE's reader copies each label's "
                 "bytes over a 32-byte std::string object, so a longer label overflows its heap: the daphne dialect "
                 "takes labels of at most 32 bytes");
    // Nothing was begun, and 32 bytes are taken.
    const std::string longest(32, 'q');
    labels[1] = longest.c_str();
    ASSERT_OK(dbdf_writer_begin_frame(writer.get(), 1, 2, types, labels, nullptr));
    const std::int64_t id = 5;
    const double x = 0.25;
    ASSERT_OK(dbdf_writer_write_column(writer.get(), 0, DBDF_VALUE_I64, &id, 1, nullptr));
    ASSERT_OK(dbdf_writer_write_column(writer.get(), 1, DBDF_VALUE_F64, &x, 1, nullptr));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    EXPECT_EQ(finished_bytes(writer.get()).size(), 18u + 2 + (2 + 2) + (2 + 32) + 16 + 16);
}

}  // namespace
}  // namespace dbdf_test
