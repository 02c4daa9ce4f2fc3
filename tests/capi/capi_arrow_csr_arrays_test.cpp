// Arrow export of CSR matrices as CSR arrays (csr_as_arrays): per row band a one-row batch of row_begin and the
// band's row offsets, columns and values as large lists. Checked against the ordinary CSR reads of every golden
// vector, for bands sliced by rows (each band decoded once, however many slices it makes), for a band of 2^32 - 1
// rows that costs the file nothing, and for options of an older caller whose struct_size does not cover the field.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
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
using dbdf_test::Stream;
using dbdf_test::WriterHandle;

constexpr std::uint64_t kSliceRows = (64ull << 20) / 8 - 1;  // row offsets of one batch within 64 MiB

// The whole object's CSR arrays, as dbdf_reader_read_csr gives them.
struct Csr {
    std::vector<std::uint64_t> row_offsets{0};
    std::vector<std::uint64_t> cols;
    std::vector<std::uint8_t> values;
    std::size_t batches = 0;
};

Csr ordinary_read(dbdf_reader_t* reader) {
    dbdf_object_info_t info{};
    EXPECT_EQ(dbdf_reader_object_info(reader, &info), DBDF_OK);
    std::uint64_t entries = 0;
    EXPECT_EQ(dbdf_reader_count_entries(reader, &entries), DBDF_OK);
    Csr csr;
    csr.row_offsets.resize(info.rows + 1);
    csr.cols.resize(entries);
    csr.values.resize(entries * dbdf_value_type_size(info.value_type));
    EXPECT_EQ(dbdf_reader_read_csr(reader, info.value_type, csr.row_offsets.data(), csr.row_offsets.size(),
                                   csr.cols.data(), csr.values.data(), entries, &entries),
              DBDF_OK)
        << dbdf_last_error_message();
    return csr;
}

dbdf_arrow_export_options_t arrays_options() {
    dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
    options.csr_as_arrays = 1;
    return options;
}

// A one-row large list's values: its child's buffer, offsets 0 and the child's length checked.
template <class Value>
const Value* list_values(const ArrowArray& list, std::int64_t& count) {
    EXPECT_EQ(list.length, 1);
    EXPECT_EQ(list.n_buffers, 2);
    EXPECT_EQ(list.n_children, 1);
    const auto* offsets = static_cast<const std::int64_t*>(list.buffers[1]);
    EXPECT_EQ(offsets[0], 0);
    count = offsets[1];
    EXPECT_EQ(list.children[0]->length, count);
    return static_cast<const Value*>(list.children[0]->buffers[1]);
}

// Pulls every batch and puts the bands' arrays together into the whole object's, as the ordinary read has them.
Csr pull_arrays(ArrowArrayStream& stream, std::size_t value_bytes) {
    Csr csr;
    ArrowSchema schema{};
    EXPECT_EQ(stream.get_schema(&stream, &schema), 0);
    EXPECT_EQ(schema.n_children, 4);
    if (schema.n_children != 4) return csr;
    const char* names[] = {"row_begin", "row_offsets", "col", "value"};
    const char* formats[] = {"L", "+L", "+L", "+L"};
    for (int i = 0; i < 4; ++i) {
        EXPECT_STREQ(schema.children[i]->name, names[i]);
        EXPECT_STREQ(schema.children[i]->format, formats[i]);
    }
    EXPECT_STREQ(schema.children[1]->children[0]->format, "L");
    schema.release(&schema);
    for (;;) {
        ArrowArray batch{};
        EXPECT_EQ(stream.get_next(&stream, &batch), 0) << stream.get_last_error(&stream);
        if (batch.release == nullptr) break;
        ++csr.batches;
        EXPECT_EQ(batch.length, 1);
        const auto row_begin = static_cast<const std::uint64_t*>(batch.children[0]->buffers[1])[0];
        EXPECT_EQ(row_begin, csr.row_offsets.size() - 1) << "bands come top to bottom, without gaps";
        std::int64_t offsets_count = 0, cols_count = 0, values_count = 0;
        const auto* offsets = list_values<std::uint64_t>(*batch.children[1], offsets_count);
        const auto* cols = list_values<std::uint64_t>(*batch.children[2], cols_count);
        const auto* values = list_values<std::uint8_t>(*batch.children[3], values_count);
        EXPECT_EQ(cols_count, values_count);
        EXPECT_EQ(offsets[0], 0u);
        EXPECT_EQ(offsets[offsets_count - 1], static_cast<std::uint64_t>(cols_count));
        const std::uint64_t before = csr.cols.size();
        for (std::int64_t row = 1; row < offsets_count; ++row) csr.row_offsets.push_back(before + offsets[row]);
        csr.cols.insert(csr.cols.end(), cols, cols + cols_count);
        csr.values.insert(csr.values.end(), values, values + values_count * value_bytes);
        batch.release(&batch);
    }
    return csr;
}

TEST(ArrowCsrArrays, EveryGoldenCsrMatrixEqualsTheOrdinaryCsrRead) {
    int checked = 0;
    for (const auto& file : golden_vectors()) {
        const std::vector<std::uint8_t> bytes = read_file(file);
        ReaderHandle reader = memory_reader(bytes);
        dbdf_object_info_t info{};
        ASSERT_EQ(dbdf_reader_object_info(reader.get(), &info), DBDF_OK);
        if (info.data_type != DBDF_DATA_CSR) continue;
        SCOPED_TRACE(file.filename().string());
        const Csr expected = ordinary_read(reader.get());
        ReaderHandle exported = memory_reader(bytes);
        const dbdf_arrow_export_options_t options = arrays_options();
        Stream stream;
        ASSERT_EQ(dbdf_reader_export_arrow(exported.get(), &options, &stream.stream), DBDF_OK);
        const Csr pulled = pull_arrays(stream.stream, dbdf_value_type_size(info.value_type));
        EXPECT_EQ(pulled.row_offsets, expected.row_offsets);
        EXPECT_EQ(pulled.cols, expected.cols);
        EXPECT_EQ(pulled.values, expected.values);
        ++checked;
    }
    EXPECT_GE(checked, 10);
}

// A CSR matrix of `rows` x 3 u16, held by one COO block with an entry in its first, second and last row.
std::vector<std::uint8_t> tall_sparse_matrix(std::uint32_t rows) {
    WriterHandle writer = memory_writer();
    EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, DBDF_VALUE_U16, rows, 3), DBDF_OK);
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.encoding = DBDF_ENCODING_AS_GIVEN;
    const std::uint32_t entry_rows[] = {0, 0, 1, rows - 1};
    const std::uint32_t entry_cols[] = {0, 2, 1, 2};
    const std::uint16_t values[] = {5, 6, 7, 8};
    EXPECT_EQ(
        dbdf_writer_add_coo(writer.get(), 0, 0, rows, 3, DBDF_VALUE_U16, entry_rows, entry_cols, values, 4, &options),
        DBDF_OK)
        << dbdf_last_error_message();
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    return dbdf_test::finished_bytes(writer.get());
}

// Pulls one batch and checks its row_begin and the sizes of its lists.
void expect_batch(ArrowArrayStream& stream, std::uint64_t row_begin, std::int64_t rows, std::int64_t entries) {
    ArrowArray batch{};
    ASSERT_EQ(stream.get_next(&stream, &batch), 0) << stream.get_last_error(&stream);
    ASSERT_NE(batch.release, nullptr);
    EXPECT_EQ(static_cast<const std::uint64_t*>(batch.children[0]->buffers[1])[0], row_begin);
    EXPECT_EQ(batch.children[1]->children[0]->length, rows + 1);
    EXPECT_EQ(batch.children[2]->children[0]->length, entries);
    const auto* offsets = static_cast<const std::uint64_t*>(batch.children[1]->children[0]->buffers[1]);
    EXPECT_EQ(offsets[rows], static_cast<std::uint64_t>(entries));
    batch.release(&batch);
}

TEST(ArrowCsrArrays, ABandTallerThanABatchIsSlicedByRows) {
    const std::uint32_t rows = static_cast<std::uint32_t>(kSliceRows) + 10;
    const std::vector<std::uint8_t> bytes = tall_sparse_matrix(rows);
    ReaderHandle reader = memory_reader(bytes);
    const dbdf_arrow_export_options_t options = arrays_options();
    Stream stream;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), &options, &stream.stream), DBDF_OK);
    // The first slice: rows 0 and 1 hold three entries, the rest none.
    ArrowArray first{};
    ASSERT_EQ(stream.stream.get_next(&stream.stream, &first), 0) << stream.stream.get_last_error(&stream.stream);
    std::int64_t count = 0;
    const auto* offsets = list_values<std::uint64_t>(*first.children[1], count);
    ASSERT_EQ(count, static_cast<std::int64_t>(kSliceRows) + 1);
    EXPECT_EQ((std::vector<std::uint64_t>(offsets, offsets + 3)), (std::vector<std::uint64_t>{0, 2, 3}));
    EXPECT_EQ(offsets[kSliceRows], 3u);
    const auto* cols = list_values<std::uint64_t>(*first.children[2], count);
    EXPECT_EQ((std::vector<std::uint64_t>(cols, cols + count)), (std::vector<std::uint64_t>{0, 2, 1}));
    first.release(&first);
    // The second: the last 10 rows, whose last holds the fourth entry.
    ArrowArray second{};
    ASSERT_EQ(stream.stream.get_next(&stream.stream, &second), 0) << stream.stream.get_last_error(&stream.stream);
    EXPECT_EQ(static_cast<const std::uint64_t*>(second.children[0]->buffers[1])[0], kSliceRows);
    offsets = list_values<std::uint64_t>(*second.children[1], count);
    EXPECT_EQ((std::vector<std::uint64_t>(offsets, offsets + count)),
              (std::vector<std::uint64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
    const auto* values = list_values<std::uint16_t>(*second.children[3], count);
    ASSERT_EQ(count, 1);
    EXPECT_EQ(values[0], 8u);
    second.release(&second);
    ArrowArray end{};
    EXPECT_EQ(stream.stream.get_next(&stream.stream, &end), 0);
    EXPECT_EQ(end.release, nullptr);
}

TEST(ArrowCsrArrays, ABandOfTheMostRowsABlockHoldsComesInBoundedSlices) {
    const std::uint32_t rows = 0xFFFFFFFFu;  // a few dozen bytes of file
    const std::vector<std::uint8_t> bytes = tall_sparse_matrix(rows);
    ReaderHandle reader = memory_reader(bytes);
    const dbdf_arrow_export_options_t options = arrays_options();
    Stream stream;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), &options, &stream.stream), DBDF_OK);
    expect_batch(stream.stream, 0, static_cast<std::int64_t>(kSliceRows), 3);
    expect_batch(stream.stream, kSliceRows, static_cast<std::int64_t>(kSliceRows), 0);
}

TEST(ArrowCsrArrays, ABandSlicedIntoSeveralBatchesIsDecodedOnce) {
    // One COO block over two slices of rows, with entries in each: 60000 u16 entries, 600 KB of payload.
    const std::uint64_t rows = kSliceRows + 10;
    const std::uint32_t entries = 60000;
    std::vector<std::uint32_t> entry_rows(entries);
    std::vector<std::uint32_t> entry_cols(entries);
    std::vector<std::uint16_t> values(entries);
    for (std::uint32_t k = 0; k < entries; ++k) {
        entry_rows[k] = static_cast<std::uint32_t>(k * (rows / entries));
        entry_cols[k] = k % 3;
        values[k] = static_cast<std::uint16_t>(k % 65000 + 1);
    }
    entry_rows.back() = static_cast<std::uint32_t>(rows - 1);  // the second slice's last row
    WriterHandle writer = memory_writer();
    ASSERT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, DBDF_VALUE_U16, rows, 3), DBDF_OK);
    dbdf_write_options_t write_options = DBDF_WRITE_OPTIONS_INIT;
    write_options.encoding = DBDF_ENCODING_AS_GIVEN;
    ASSERT_EQ(dbdf_writer_add_coo(writer.get(), 0, 0, static_cast<std::uint32_t>(rows), 3, DBDF_VALUE_U16,
                                  entry_rows.data(), entry_cols.data(), values.data(), entries, &write_options),
              DBDF_OK)
        << dbdf_last_error_message();
    ASSERT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    dbdf_test::RecordingSource recording;
    recording.bytes = dbdf_test::finished_bytes(writer.get());
    const Csr expected = ordinary_read(memory_reader(recording.bytes).get());
    const dbdf_source_t source = dbdf_test::recording_source(recording, 0);
    dbdf_reader_t* raw = nullptr;
    ASSERT_EQ(dbdf_reader_open_source(&source, nullptr, &raw), DBDF_OK) << dbdf_last_error_message();
    ReaderHandle reader(raw);
    const dbdf_arrow_export_options_t options = arrays_options();
    Stream stream;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), &options, &stream.stream), DBDF_OK);
    const Csr pulled = pull_arrays(stream.stream, sizeof(std::uint16_t));
    EXPECT_EQ(pulled.batches, 2u);
    EXPECT_EQ(pulled.row_offsets, expected.row_offsets);
    EXPECT_EQ(pulled.cols, expected.cols);
    EXPECT_EQ(pulled.values, expected.values);
    // The payload was fetched once, not once per slice: at most the file and one read-ahead window.
    EXPECT_LE(recording.fetched, recording.bytes.size() + 65536);
}

TEST(ArrowCsrArrays, AnOlderCallersOptionsWithoutTheFieldGiveTriplets) {
    const std::vector<std::uint8_t> bytes = tall_sparse_matrix(4);
    ReaderHandle reader = memory_reader(bytes);
    dbdf_arrow_export_options_t options = arrays_options();
    options.struct_size = offsetof(dbdf_arrow_export_options_t, csr_as_arrays);  // a caller built before the field
    Stream stream;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), &options, &stream.stream), DBDF_OK);
    ArrowSchema schema{};
    ASSERT_EQ(stream.stream.get_schema(&stream.stream, &schema), 0);
    ASSERT_EQ(schema.n_children, 3);
    EXPECT_STREQ(schema.children[0]->name, "row");
    schema.release(&schema);
}

TEST(ArrowCsrArrays, DenseMatricesAndFramesIgnoreTheOption) {
    const std::vector<std::uint8_t> bytes = dbdf_test::sample_matrix();
    ReaderHandle reader = memory_reader(bytes);
    const dbdf_arrow_export_options_t options = arrays_options();
    Stream stream;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), &options, &stream.stream), DBDF_OK);
    ArrowSchema schema{};
    ASSERT_EQ(stream.stream.get_schema(&stream.stream, &schema), 0);
    EXPECT_EQ(schema.n_children, 3);  // c0, c1, c2
    EXPECT_STREQ(schema.children[2]->name, "c2");
    schema.release(&schema);
}

}  // namespace
