// Arrow export (dbdf_reader_export_arrow): every golden frame and matrix pulled batch by batch and compared bit for
// bit with the ordinary whole-object reads; the release protocol (children moved out, any order, after the reader
// is freed) under the sanitizers; zero-copy buffers; errors reported through the stream.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "arrow_test_support.hpp"
#include "capi_test_support.hpp"
#include "dbdf.h"

namespace {

using dbdf_test::golden_vectors;
using dbdf_test::memory_reader;
using dbdf_test::memory_writer;
using dbdf_test::read_file;
using dbdf_test::ReaderHandle;

struct Pulled {
    std::vector<std::string> formats;  // per field
    std::vector<std::string> names;
    std::vector<std::vector<std::uint8_t>> columns;  // per field, every batch's values concatenated
    std::size_t batches = 0;
    std::int64_t rows = 0;
};

std::size_t format_bytes(const std::string& format) {
    if (format == "C" || format == "c") return 1;
    if (format == "S" || format == "s") return 2;
    if (format == "I" || format == "i" || format == "f") return 4;
    if (format == "L" || format == "l" || format == "g") return 8;
    ADD_FAILURE() << "unexpected format " << format;
    return 0;
}

// Pulls every batch of `stream` and releases everything, the stream first and the batches after it, each
// batch's children before their parent.
Pulled pull_all(ArrowArrayStream& stream) {
    Pulled pulled;
    ArrowSchema schema{};
    EXPECT_EQ(stream.get_schema(&stream, &schema), 0);
    EXPECT_STREQ(schema.format, "+s");
    std::vector<std::size_t> value_bytes;
    for (std::int64_t i = 0; i < schema.n_children; ++i) {
        const ArrowSchema& field = *schema.children[i];
        pulled.formats.emplace_back(field.format);
        pulled.names.emplace_back(field.name);
        EXPECT_EQ(field.flags & ARROW_FLAG_NULLABLE, 0);
        const bool list = pulled.formats.back().rfind("+w:", 0) == 0;
        value_bytes.push_back(format_bytes(list ? field.children[0]->format : field.format) *
                              (list ? std::stoul(pulled.formats.back().substr(3)) : 1));
    }
    pulled.columns.resize(value_bytes.size());
    std::vector<ArrowArray> batches;
    for (;;) {
        ArrowArray batch{};
        const int result = stream.get_next(&stream, &batch);
        EXPECT_EQ(result, 0) << stream.get_last_error(&stream);
        if (result != 0 || batch.release == nullptr) break;
        batches.push_back(batch);
    }
    stream.release(&stream);
    EXPECT_EQ(stream.release, nullptr);
    schema.release(&schema);
    for (ArrowArray& batch : batches) {
        EXPECT_EQ(batch.n_children, static_cast<std::int64_t>(value_bytes.size()));
        EXPECT_EQ(batch.null_count, 0);
        pulled.rows += batch.length;
        for (std::int64_t i = 0; i < batch.n_children; ++i) {
            ArrowArray* child = batch.children[i];
            // Arrow's struct arrays: every child has the batch's length (a CSR batch's length is its entries).
            EXPECT_EQ(child->length, batch.length);
            const bool list = child->n_children == 1;
            const ArrowArray* values = list ? child->children[0] : child;
            EXPECT_EQ(values->n_buffers, 2);
            EXPECT_EQ(values->buffers[0], nullptr);
            const auto* data = static_cast<const std::uint8_t*>(values->buffers[1]);
            const std::size_t bytes = static_cast<std::size_t>(child->length) * value_bytes[i];
            pulled.columns[i].insert(pulled.columns[i].end(), data, data + bytes);
        }
        // Children released one by one, in reverse order, before their parent.
        for (std::int64_t i = batch.n_children - 1; i >= 0; --i) batch.children[i]->release(batch.children[i]);
        batch.release(&batch);
        EXPECT_EQ(batch.release, nullptr);
    }
    pulled.batches = batches.size();
    return pulled;
}

// The whole Arrow stream (default options) of the object in `bytes`, pulled.
Pulled pull_exported(const std::vector<std::uint8_t>& bytes) {
    ReaderHandle reader = memory_reader(bytes);
    ArrowArrayStream stream{};
    EXPECT_EQ(dbdf_reader_export_arrow(reader.get(), nullptr, &stream), DBDF_OK) << dbdf_last_error_message();
    return stream.release == nullptr ? Pulled{} : pull_all(stream);
}

template <class Element>
std::vector<std::uint8_t> as_bytes(const std::vector<Element>& values) {
    std::vector<std::uint8_t> bytes(values.size() * sizeof(Element));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

// What the ordinary reads give, in the layout of the export: per field the column's values.
std::vector<std::vector<std::uint8_t>> expected_columns(dbdf_reader_t* reader, bool dense_as_list) {
    dbdf_object_info_t info{};
    EXPECT_EQ(dbdf_reader_object_info(reader, &info), DBDF_OK);
    std::vector<std::vector<std::uint8_t>> columns;
    if (info.data_type == DBDF_DATA_FRAME) {
        for (std::uint64_t column = 0; column < info.cols; ++column) {
            dbdf_value_type_t type{};
            EXPECT_EQ(dbdf_reader_column_type(reader, column, &type), DBDF_OK);
            std::vector<std::uint8_t> values(info.rows * dbdf_value_type_size(type));
            EXPECT_EQ(dbdf_reader_read_column(reader, column, type, values.data(), info.rows), DBDF_OK)
                << dbdf_last_error_message();
            columns.push_back(std::move(values));
        }
    } else if (info.data_type == DBDF_DATA_CSR) {
        std::uint64_t entries = 0;
        EXPECT_EQ(dbdf_reader_count_entries(reader, &entries), DBDF_OK);
        std::vector<std::uint64_t> offsets(info.rows + 1), cols(entries), rows;
        std::vector<std::uint8_t> values(entries * dbdf_value_type_size(info.value_type));
        EXPECT_EQ(dbdf_reader_read_csr(reader, info.value_type, offsets.data(), offsets.size(), cols.data(),
                                       values.data(), entries, &entries),
                  DBDF_OK);
        for (std::uint64_t row = 0; row < info.rows; ++row)
            rows.insert(rows.end(), offsets[row + 1] - offsets[row], row);
        columns = {as_bytes(rows), as_bytes(cols), values};
    } else {
        const std::size_t size = dbdf_value_type_size(info.value_type);
        std::vector<std::uint8_t> values(info.rows * info.cols * size);
        EXPECT_EQ(dbdf_reader_read_dense(reader, info.value_type, values.data(), info.rows * info.cols, 0), DBDF_OK);
        if (dense_as_list) return {values};
        for (std::uint64_t column = 0; column < info.cols; ++column) {
            std::vector<std::uint8_t> column_values;
            for (std::uint64_t row = 0; row < info.rows; ++row) {
                const std::uint8_t* value = values.data() + (row * info.cols + column) * size;
                column_values.insert(column_values.end(), value, value + size);
            }
            columns.push_back(std::move(column_values));
        }
    }
    return columns;
}

void expect_export_matches_reads(const std::vector<std::uint8_t>& bytes, bool take_reader, bool dense_as_list) {
    ReaderHandle reference = memory_reader(bytes);
    const auto expected = expected_columns(reference.get(), dense_as_list);
    dbdf_object_info_t info{};
    ASSERT_EQ(dbdf_reader_object_info(reference.get(), &info), DBDF_OK);

    ReaderHandle exported = memory_reader(bytes);
    dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
    options.take_reader = take_reader ? 1 : 0;
    options.dense_as_list = dense_as_list ? 1 : 0;
    ArrowArrayStream stream{};
    ASSERT_OK(dbdf_reader_export_arrow(exported.get(), &options, &stream));
    if (take_reader) static_cast<void>(exported.release());
    const Pulled pulled = pull_all(stream);
    ASSERT_EQ(pulled.columns.size(), expected.size());
    if (info.data_type != DBDF_DATA_CSR) {
        EXPECT_EQ(pulled.rows, static_cast<std::int64_t>(info.rows));
    } else {
        EXPECT_EQ(pulled.rows, static_cast<std::int64_t>(expected[0].size() / sizeof(std::uint64_t)));  // entries
    }
    for (std::size_t field = 0; field < expected.size(); ++field) {
        EXPECT_EQ(pulled.columns[field], expected[field]) << "field " << pulled.names[field];
    }
    if (info.data_type == DBDF_DATA_DENSE && !dense_as_list && info.cols > 0) {
        EXPECT_EQ(pulled.names.back(), "c" + std::to_string(info.cols - 1));
    }
}

TEST(ArrowExport, EveryGoldenVectorEqualsTheOrdinaryReads) {
    const auto files = golden_vectors();
    ASSERT_GE(files.size(), 30u);
    for (const auto& file : files) {
        SCOPED_TRACE(file.filename().string());
        const std::vector<std::uint8_t> bytes = read_file(file);
        for (const bool take_reader : {false, true}) {
            for (const bool dense_as_list : {false, true})
                expect_export_matches_reads(bytes, take_reader, dense_as_list);
        }
    }
}

// Exports `reader` (taken over by the stream) and compares every field with the ordinary reads of `reference`.
void expect_owned_export_matches(dbdf_reader_t* reader, dbdf_reader_t* reference) {
    const auto expected = expected_columns(reference, false);
    dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
    options.take_reader = 1;
    ArrowArrayStream stream{};
    ASSERT_OK(dbdf_reader_export_arrow(reader, &options, &stream));
    const Pulled pulled = pull_all(stream);
    ASSERT_EQ(pulled.columns.size(), expected.size());
    for (std::size_t field = 0; field < expected.size(); ++field) {
        EXPECT_EQ(pulled.columns[field], expected[field]) << "field " << pulled.names[field];
    }
}

TEST(ArrowExport, FileReadersExportTheSameValuesDecodedIntoTheBatches) {
    for (const auto& file : golden_vectors()) {
        SCOPED_TRACE(file.filename().string());
        const std::vector<std::uint8_t> bytes = read_file(file);
        ReaderHandle reference = memory_reader(bytes);
        dbdf_reader_t* reader = nullptr;  // lends nothing: every batch is decoded
        ASSERT_OK(dbdf_reader_open_file(file.string().c_str(), &reader));
        expect_owned_export_matches(reader, reference.get());
    }
}

TEST(ArrowExport, DaphneDialectObjectsExportTheirValues) {
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    int exported = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(DBDF_VECTORS_DIR) / "daphne-runtime")) {
        if (entry.path().extension() != ".dbdf") continue;
        SCOPED_TRACE(entry.path().filename().string());
        const std::vector<std::uint8_t> bytes = read_file(entry.path());
        dbdf_reader_t* reference = nullptr;
        if (dbdf_reader_open_memory_with_options(bytes.data(), bytes.size(), &options, &reference) != DBDF_OK) {
            continue;  // a file of the corpus that the reader refuses (strings, ...)
        }
        ReaderHandle reference_handle(reference);
        if (dbdf_reader_validate(reference, nullptr, nullptr, nullptr) != DBDF_OK) continue;  // broken on purpose
        dbdf_reader_t* reader = nullptr;
        ASSERT_OK(dbdf_reader_open_memory_with_options(bytes.data(), bytes.size(), &options, &reader));
        expect_owned_export_matches(reader, reference);
        ++exported;
    }
    EXPECT_GE(exported, 10);
}

TEST(ArrowExport, FrameFieldsAreNamedAndTypedByItsColumns) {
    const std::vector<std::uint8_t> bytes = read_file(std::filesystem::path(DBDF_VECTORS_DIR) / "frame_mixed.dbdf");
    ReaderHandle reader = memory_reader(bytes);
    ArrowArrayStream stream{};
    ASSERT_OK(dbdf_reader_export_arrow(reader.get(), nullptr, &stream));
    ArrowSchema schema{};
    ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
    dbdf_object_info_t info{};
    ASSERT_OK(dbdf_reader_object_info(reader.get(), &info));
    ASSERT_EQ(schema.n_children, static_cast<std::int64_t>(info.cols));
    for (std::uint64_t column = 0; column < info.cols; ++column) {
        const char* label = nullptr;
        size_t length = 0;
        ASSERT_OK(dbdf_reader_column_label(reader.get(), column, &label, &length));
        EXPECT_STREQ(schema.children[column]->name, label);
    }
    schema.release(&schema);
    stream.release(&stream);
}

// A frame of `rows` rows with a u8 column and an f64 column, written in bands of 4 rows (one block per column and
// band), placed in `storage` at the offset that aligns the f64 column's first payload to 8 bytes.
std::span<const std::uint8_t> aligned_frame(std::vector<std::uint8_t>& storage, std::uint32_t rows) {
    dbdf_test::WriterHandle writer = memory_writer();
    const dbdf_value_type_t types[] = {DBDF_VALUE_U8, DBDF_VALUE_F64};
    const char* labels[] = {"small", "wide"};
    EXPECT_EQ(dbdf_writer_begin_frame(writer.get(), rows, 2, types, labels, nullptr), DBDF_OK);
    std::vector<std::uint8_t> small(rows);
    std::vector<double> wide(rows);
    for (std::uint32_t row = 0; row < rows; ++row) {
        small[row] = static_cast<std::uint8_t>(row * 7 + 1);
        wide[row] = row * 0.5 - 3.0;
    }
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.encoding = DBDF_ENCODING_AS_GIVEN;
    options.block_rows = 4;
    EXPECT_EQ(dbdf_writer_write_column(writer.get(), 0, DBDF_VALUE_U8, small.data(), rows, &options), DBDF_OK);
    EXPECT_EQ(dbdf_writer_write_column(writer.get(), 1, DBDF_VALUE_F64, wide.data(), rows, &options), DBDF_OK);
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    const std::vector<std::uint8_t> bytes = dbdf_test::finished_bytes(writer.get());
    ReaderHandle probe = memory_reader(bytes);
    dbdf_block_info_t block{};
    std::uint64_t wide_payload = 0;
    while (dbdf_reader_next_block(probe.get(), &block) == DBDF_OK) {
        if (block.col == 1 && block.row == 0) wide_payload = block.offset + 16 + 10;
    }
    storage.assign(bytes.size() + 16, 0);
    auto base = reinterpret_cast<std::uintptr_t>(storage.data());
    const std::size_t shift = (8 - (base + wide_payload) % 8) % 8;
    std::memcpy(storage.data() + shift, bytes.data(), bytes.size());
    return {storage.data() + shift, bytes.size()};
}

bool points_into(const void* pointer, std::span<const std::uint8_t> memory) {
    const auto* byte = static_cast<const std::uint8_t*>(pointer);
    return byte >= memory.data() && byte < memory.data() + memory.size();
}

struct ReleaseCounter {
    int calls = 0;
    static void count(void* context) { ++static_cast<ReleaseCounter*>(context)->calls; }
};

TEST(ArrowExport, OneColumnDenseBlocksOfTheColumnTypeAreLentWhenTheStreamOwnsAMemoryReader) {
    std::vector<std::uint8_t> storage;
    const std::span<const std::uint8_t> input = aligned_frame(storage, 10);
    dbdf_reader_t* reader = nullptr;
    ASSERT_OK(dbdf_reader_open_memory(input.data(), input.size(), &reader));
    ReleaseCounter released;
    int released_flag = 0;  // set with the hook's call, after it
    dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
    options.take_reader = 1;
    options.release = ReleaseCounter::count;
    options.release_context = &released;
    options.released = &released_flag;
    ArrowArrayStream stream{};
    ASSERT_OK(dbdf_reader_export_arrow(reader, &options, &stream));
    std::vector<ArrowArray> batches;
    for (;;) {
        ArrowArray batch{};
        ASSERT_EQ(stream.get_next(&stream, &batch), 0) << stream.get_last_error(&stream);
        if (batch.release == nullptr) break;
        batches.push_back(batch);
    }
    ASSERT_EQ(batches.size(), 3u);  // rows 0-3, 4-7, 8-9
    EXPECT_EQ(batches[2].length, 2);
    // The stream goes first; the reader it owns lives on in the batches that point into its memory.
    stream.release(&stream);
    EXPECT_EQ(released.calls, 0);
    // u8 values are always aligned; of the f64 blocks (58 bytes each) only the first, which the input's placement
    // aligned, starts at a multiple of 8: the others are copied.
    for (const ArrowArray& batch : batches) EXPECT_TRUE(points_into(batch.children[0]->buffers[1], input));
    EXPECT_TRUE(points_into(batches[0].children[1]->buffers[1], input));
    EXPECT_FALSE(points_into(batches[1].children[1]->buffers[1], input));
    EXPECT_FALSE(points_into(batches[2].children[1]->buffers[1], input));
    const auto* wide = static_cast<const double*>(batches[1].children[1]->buffers[1]);
    EXPECT_EQ(wide[0], 4 * 0.5 - 3.0);
    // A child moved out of its batch, released after the batch, and batches released out of order.
    ArrowArray moved = *batches[0].children[1];
    batches[0].children[1]->release = nullptr;
    batches[1].release(&batches[1]);
    batches[0].release(&batches[0]);
    EXPECT_EQ(released.calls, 0);
    EXPECT_EQ(static_cast<const double*>(moved.buffers[1])[3], 3 * 0.5 - 3.0);
    moved.release(&moved);
    EXPECT_EQ(released.calls, 0);
    EXPECT_EQ(released_flag, 0);
    batches[2].release(&batches[2]);
    EXPECT_EQ(released.calls, 1);
    EXPECT_EQ(released_flag, 1);
}

// The flag alone (no hook): set once the stream and its last batch are released, in either order.
TEST(ArrowExport, TheReleasedFlagIsSetByTheLastReleaseWithoutAHook) {
    const std::vector<std::uint8_t> bytes = dbdf_test::sample_matrix();
    for (const bool stream_first : {true, false}) {
        ReaderHandle reader = memory_reader(bytes);
        int released_flag = 0;
        dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
        options.released = &released_flag;
        ArrowArrayStream stream{};
        ASSERT_OK(dbdf_reader_export_arrow(reader.get(), &options, &stream));
        ArrowArray batch{};
        ASSERT_EQ(stream.get_next(&stream, &batch), 0) << stream.get_last_error(&stream);
        ASSERT_NE(batch.release, nullptr);
        ArrowArray* first = stream_first ? nullptr : &batch;
        if (stream_first) stream.release(&stream);
        if (first != nullptr) first->release(first);
        EXPECT_EQ(released_flag, 0);
        if (stream_first) {
            batch.release(&batch);
        } else {
            stream.release(&stream);
        }
        EXPECT_EQ(released_flag, 1);
    }
}

TEST(ArrowExport, ABorrowedReaderIsNeverPointedIntoAndMayBeFreedBeforeTheBatches) {
    std::vector<std::uint8_t> storage;
    const std::span<const std::uint8_t> input = aligned_frame(storage, 6);
    dbdf_reader_t* reader = nullptr;
    ASSERT_OK(dbdf_reader_open_memory(input.data(), input.size(), &reader));
    ArrowArrayStream stream{};
    ASSERT_OK(dbdf_reader_export_arrow(reader, nullptr, &stream));
    ArrowArray first{};
    ArrowArray second{};
    ASSERT_EQ(stream.get_next(&stream, &first), 0);
    ASSERT_EQ(stream.get_next(&stream, &second), 0);
    stream.release(&stream);
    dbdf_reader_free(reader);
    EXPECT_FALSE(points_into(first.children[0]->buffers[1], input));
    EXPECT_EQ(static_cast<const std::uint8_t*>(second.children[0]->buffers[1])[1], 5 * 7 + 1);
    EXPECT_EQ(static_cast<const double*>(first.children[1]->buffers[1])[2], 2 * 0.5 - 3.0);
    second.release(&second);
    first.release(&first);
}

TEST(ArrowExport, AFailedExportLeavesTheReaderWithTheCallerAndCallsTheReleaseHook) {
    ReleaseCounter released;
    dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
    options.release = ReleaseCounter::count;
    options.release_context = &released;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_export_arrow(nullptr, &options, nullptr));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("reader"), std::string::npos);
    EXPECT_EQ(released.calls, 1);
    int released_flag = 0;
    options.release = nullptr;
    options.released = &released_flag;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_export_arrow(nullptr, &options, nullptr));
    EXPECT_EQ(released_flag, 1);
    options.released = nullptr;
    options.release = ReleaseCounter::count;
    options.struct_size = 0;
    const std::vector<std::uint8_t> bytes = dbdf_test::sample_matrix();
    ReaderHandle reader = memory_reader(bytes);
    ArrowArrayStream stream{};
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_export_arrow(reader.get(), &options, &stream));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("struct_size"), std::string::npos);
    EXPECT_EQ(stream.release, nullptr);
}

// A 4 x 3 u16 CSR matrix stored as two COO blocks of two rows each.
std::vector<std::uint8_t> two_band_sparse_matrix() {
    dbdf_test::WriterHandle writer = memory_writer();
    EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, DBDF_VALUE_U16, 4, 3), DBDF_OK);
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.encoding = DBDF_ENCODING_AS_GIVEN;
    const std::uint32_t rows[] = {0, 1};
    const std::uint32_t cols[] = {2, 0};
    const std::uint16_t values[] = {7, 9};
    for (std::uint64_t band = 0; band < 2; ++band) {
        EXPECT_EQ(dbdf_writer_add_coo(writer.get(), band * 2, 0, 2, 3, DBDF_VALUE_U16, rows, cols, values, 2, &options),
                  DBDF_OK)
            << dbdf_last_error_message();
    }
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    return dbdf_test::finished_bytes(writer.get());
}

TEST(ArrowExport, SparseMatricesBecomeRowColValueTriplets) {
    const Pulled pulled = pull_exported(two_band_sparse_matrix());
    EXPECT_EQ(pulled.names, (std::vector<std::string>{"row", "col", "value"}));
    EXPECT_EQ(pulled.formats, (std::vector<std::string>{"L", "L", "S"}));
    EXPECT_EQ(pulled.batches, 2u);
    EXPECT_EQ(pulled.columns[0], as_bytes(std::vector<std::uint64_t>{0, 1, 2, 3}));
    EXPECT_EQ(pulled.columns[1], as_bytes(std::vector<std::uint64_t>{2, 0, 2, 0}));
    EXPECT_EQ(pulled.columns[2], as_bytes(std::vector<std::uint16_t>{7, 9, 7, 9}));
}

// A band of three blocks side by side, each with entries in several rows: decoded block after block, the band's
// entries are out of row order, and come out in it (within a row, block after block: by column), with every value
// carried along whole, for values of one, two and eight bytes.
template <class T>
void expect_side_by_side_blocks_in_row_order(dbdf_value_type_t type, const char* format) {
    SCOPED_TRACE(format);
    dbdf_test::WriterHandle writer = memory_writer();
    ASSERT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, type, 4, 6), DBDF_OK);
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.encoding = DBDF_ENCODING_AS_GIVEN;
    // Block b (columns 2b, 2b + 1) holds these (row, local column) entries; value = 10 * global row + global column,
    // negated for the signed type so that sign bits travel too.
    const std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> entries = {
        {{0, 1}, {1, 0}, {3, 1}}, {{0, 0}, {2, 1}, {3, 0}, {3, 1}}, {{1, 1}, {2, 0}}};
    const auto value_at = [](std::uint64_t row, std::uint64_t col) {
        const auto magnitude = static_cast<std::int64_t>(10 * row + col);
        return static_cast<T>(std::is_signed_v<T> ? -magnitude : magnitude);
    };
    for (std::uint32_t block = 0; block < entries.size(); ++block) {
        std::vector<std::uint32_t> rows;
        std::vector<std::uint32_t> cols;
        std::vector<T> values;
        for (const auto& [row, col] : entries[block]) {
            rows.push_back(row);
            cols.push_back(col);
            values.push_back(value_at(row, 2 * block + col));
        }
        ASSERT_EQ(dbdf_writer_add_coo(writer.get(), 0, 2 * block, 4, 2, type, rows.data(), cols.data(), values.data(),
                                      values.size(), &options),
                  DBDF_OK)
            << dbdf_last_error_message();
    }
    ASSERT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    const Pulled pulled = pull_exported(dbdf_test::finished_bytes(writer.get()));
    const std::vector<std::uint64_t> rows{0, 0, 1, 1, 2, 2, 3, 3, 3};
    const std::vector<std::uint64_t> cols{1, 2, 0, 5, 3, 4, 1, 2, 3};
    std::vector<T> values;
    for (std::size_t k = 0; k < rows.size(); ++k) values.push_back(value_at(rows[k], cols[k]));
    EXPECT_EQ(pulled.formats, (std::vector<std::string>{"L", "L", format}));
    EXPECT_EQ(pulled.columns[0], as_bytes(rows));
    EXPECT_EQ(pulled.columns[1], as_bytes(cols));
    EXPECT_EQ(pulled.columns[2], as_bytes(values));
}

TEST(ArrowExport, SideBySideSparseBlocksComeOutInRowOrder) {
    expect_side_by_side_blocks_in_row_order<std::int8_t>(DBDF_VALUE_I8, "c");
    expect_side_by_side_blocks_in_row_order<std::uint16_t>(DBDF_VALUE_U16, "S");
    expect_side_by_side_blocks_in_row_order<double>(DBDF_VALUE_F64, "g");
}

TEST(ArrowExport, ACorruptLaterBlockFailsItsBatchWithTheReadersMessage) {
    std::vector<std::uint8_t> bytes = two_band_sparse_matrix();
    {
        ReaderHandle probe = memory_reader(bytes);
        dbdf_block_info_t block{};
        ASSERT_OK(dbdf_reader_index_entry(probe.get(), 1, &block));
        // The second block's first entry: its row index (after rx, cx, the block header, vt and #nzb).
        const std::uint32_t outside = 0xFFFFFFFFu;
        std::memcpy(bytes.data() + block.offset + 16 + 14, &outside, sizeof outside);
    }
    ReaderHandle reader = memory_reader(bytes);
    ArrowArrayStream stream{};
    ASSERT_OK(dbdf_reader_export_arrow(reader.get(), nullptr, &stream));
    ArrowArray first{};
    ASSERT_EQ(stream.get_next(&stream, &first), 0) << stream.get_last_error(&stream);
    EXPECT_EQ(stream.get_last_error(&stream), nullptr);
    ArrowArray second{};
    EXPECT_EQ(stream.get_next(&stream, &second), EINVAL);
    const std::string message = stream.get_last_error(&stream);
    EXPECT_NE(message.find("at byte"), std::string::npos) << message;
    EXPECT_EQ(second.release, nullptr);
    stream.release(&stream);
    EXPECT_EQ(static_cast<const std::uint64_t*>(first.children[1]->buffers[1])[0], 2u);
    first.release(&first);
}

}  // namespace

// An object of rows and no columns has no blocks; its rows still reach Arrow, as batches without values (a fixed-
// size list of size 0 per row in the list layout), whatever their number: none of them costs memory.
TEST(ArrowExport, RowsOfAnObjectWithoutColumnsReachTheConsumer) {
    const std::uint64_t tall = (std::uint64_t{1} << 40) + 3;
    for (const std::uint64_t rows : {std::uint64_t{3}, tall}) {
        dbdf_test::WriterHandle matrix_writer = memory_writer();
        ASSERT_EQ(dbdf_writer_begin_matrix(matrix_writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, rows, 0), DBDF_OK);
        ASSERT_EQ(dbdf_writer_finish(matrix_writer.get()), DBDF_OK) << dbdf_last_error_message();
        const std::vector<std::uint8_t> matrix = dbdf_test::finished_bytes(matrix_writer.get());
        for (const bool dense_as_list : {false, true}) {
            SCOPED_TRACE(testing::Message() << rows << " rows, dense_as_list " << dense_as_list);
            ReaderHandle reader = memory_reader(matrix);
            dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
            options.dense_as_list = dense_as_list ? 1 : 0;
            ArrowArrayStream stream{};
            ASSERT_OK(dbdf_reader_export_arrow(reader.get(), &options, &stream));
            const Pulled pulled = pull_all(stream);
            EXPECT_EQ(pulled.rows, static_cast<std::int64_t>(rows));
            EXPECT_EQ(pulled.batches, 1u);
            EXPECT_EQ(pulled.formats, dense_as_list ? std::vector<std::string>{"+w:0"} : std::vector<std::string>{});
        }

        dbdf_test::WriterHandle frame_writer = memory_writer();
        ASSERT_EQ(dbdf_writer_begin_frame(frame_writer.get(), rows, 0, nullptr, nullptr, nullptr), DBDF_OK)
            << dbdf_last_error_message();
        ASSERT_EQ(dbdf_writer_finish(frame_writer.get()), DBDF_OK) << dbdf_last_error_message();
        const std::vector<std::uint8_t> frame_bytes = dbdf_test::finished_bytes(frame_writer.get());
        ReaderHandle frame = memory_reader(frame_bytes);
        ArrowArrayStream stream{};
        ASSERT_OK(dbdf_reader_export_arrow(frame.get(), nullptr, &stream));
        const Pulled pulled = pull_all(stream);
        EXPECT_EQ(pulled.rows, static_cast<std::int64_t>(rows));
        EXPECT_TRUE(pulled.formats.empty());
    }
}
