// The daphne dialect against the files DAPHNE's runtime wrote (tests/vectors/daphne-runtime, values from its
// README): every file read with its expected values, dbdf's daphne output byte for byte equal to every
// reproducible file and .meta sidecar, the refusals, and strict spec mode staying strict.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "daphne_dialect.hpp"
#include "dbdf/dialect.hpp"
#include "dbdf/endian.hpp"
#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include <nlohmann/json.hpp>

#include "sha256.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

namespace fs = std::filesystem;
using testing::Bytes;
using testing::sha256_hex;

const std::string kCorpus = std::string(DBDF_VECTORS_DIR) + "/daphne-runtime/";

std::vector<std::byte> load(const std::string& name) {
    std::ifstream file(kCorpus + name, std::ios::binary);
    EXPECT_TRUE(file.good()) << name;
    std::vector<char> chars((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    std::memcpy(bytes.data(), chars.data(), chars.size());
    return bytes;
}

std::string load_text(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

std::string_view name_of(DataType type) { return name(type); }

nlohmann::json corpus_description() {
    std::ifstream file(kCorpus + "corpus.json");
    EXPECT_TRUE(file.good());
    return nlohmann::json::parse(file);
}

// What corpus.json's "regenerated" list says of a large runtime file that the folder does not hold.
struct RegeneratedFile {
    std::uint64_t bytes;
    std::string sha256;
};

RegeneratedFile regenerated(const std::string& file) {
    const nlohmann::json corpus = corpus_description();
    for (const auto& entry : corpus.at("regenerated")) {
        if (entry.at("file") == file)
            return {entry.at("bytes").get<std::uint64_t>(), entry.at("sha256").get<std::string>()};
    }
    ADD_FAILURE() << file << " is not in corpus.json's regenerated list";
    return {};
}

std::vector<std::byte> write_daphne(const std::function<void(Writer&)>& build) {
    Writer writer(std::make_unique<MemorySink>(), WriterDialect{Dialect::Daphne, {}});
    build(writer);
    writer.finish();
    return static_cast<MemorySink&>(writer.sink()).bytes();
}

template <class T>
std::vector<T> dense_values(std::uint64_t rows, std::uint64_t cols,
                            const std::function<T(std::uint64_t, std::uint64_t)>& v) {
    std::vector<T> values;
    for (std::uint64_t r = 0; r < rows; ++r) {
        for (std::uint64_t c = 0; c < cols; ++c) values.push_back(v(r, c));
    }
    return values;
}

template <class T>
std::vector<T> read_all_dense(Reader& reader) {
    const auto& header = reader.header();
    std::vector<T> values(header.rows * header.cols);
    reader.read_dense_window(value_type_v<T>, Window{0, 0, header.rows, header.cols}, values.data(), values.size(), 0);
    return values;
}

// Reads `name` in the daphne dialect, checks shape, type and values, validates it, and checks that writing the
// same values in the daphne dialect reproduces the file byte for byte.
template <class T>
void check_dense_file(const std::string& name, std::uint64_t rows, std::uint64_t cols, const std::vector<T>& expected) {
    SCOPED_TRACE(name);
    const std::vector<std::byte> bytes = load(name);
    Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
    EXPECT_EQ(reader.dialect(), Dialect::Daphne);
    EXPECT_EQ(reader.header().data_type, DataType::DenseMatrix);
    EXPECT_EQ(reader.header().value_type, value_type_v<T>);
    EXPECT_EQ(reader.header().rows, rows);
    EXPECT_EQ(reader.header().cols, cols);
    EXPECT_EQ(read_all_dense<T>(reader), expected);
    EXPECT_EQ(reader.validate({}), 0u);
    ASSERT_TRUE(reader.next_block());
    EXPECT_EQ(reader.block().block_type, BlockType::Dense);
    EXPECT_EQ(reader.block().rows, rows);
    EXPECT_EQ(reader.block().cols, cols);
    EXPECT_FALSE(reader.next_block());

    const auto written = write_daphne([&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, value_type_v<T>, rows, cols);
        writer.write_dense(value_type_v<T>, expected.data(), expected.size(), 0, {});
    });
    EXPECT_EQ(written, bytes);
}

TEST(DaphneDialectDense, AllNumericTypes) {
    check_dense_file<double>("dense_f64_3x4.dbdf", 3, 4,
                             dense_values<double>(3, 4, [](auto r, auto c) { return r * 10.0 + c + 0.5; }));
    check_dense_file<std::int64_t>("dense_i64_5x2.dbdf", 5, 2, dense_values<std::int64_t>(5, 2, [](auto r, auto c) {
                                       return (static_cast<std::int64_t>(r) - 2) * 1000 + static_cast<std::int64_t>(c);
                                   }));
    check_dense_file<float>("dense_f32_2x3.dbdf", 2, 3,
                            dense_values<float>(2, 3, [](auto r, auto c) { return float(3 * r + c) + 0.25f; }));
    check_dense_file<std::uint8_t>("dense_u8_4x4.dbdf", 4, 4, dense_values<std::uint8_t>(4, 4, [](auto r, auto c) {
                                       return static_cast<std::uint8_t>(16 * (4 * r + c) + 15);
                                   }));
    check_dense_file<std::int32_t>("dense_si32_3x3.dbdf", 3, 3, dense_values<std::int32_t>(3, 3, [](auto r, auto c) {
                                       return (static_cast<std::int32_t>(3 * r + c) - 4) * 100000;
                                   }));
    check_dense_file<std::uint64_t>("dense_u64_2x2.dbdf", 2, 2, dense_values<std::uint64_t>(2, 2, [](auto r, auto c) {
                                        return (std::uint64_t{1} << 63) + 2 * r + c;
                                    }));
    check_dense_file<std::int8_t>(
        "dense_si8_2x5.dbdf", 2, 5, dense_values<std::int8_t>(2, 5, [](auto r, auto c) {
            return static_cast<std::int8_t>(5 * static_cast<int>(r) + static_cast<int>(c) - 5);
        }));
    check_dense_file<std::uint32_t>("dense_u32_3x2.dbdf", 3, 2, dense_values<std::uint32_t>(3, 2, [](auto r, auto c) {
                                        return static_cast<std::uint32_t>(4000000000u + 2 * r + c);
                                    }));
}

TEST(DaphneDialectDense, EmptyZerosAndViews) {
    check_dense_file<double>("dense_f64_empty_0x0.dbdf", 0, 0, {});
    check_dense_file<double>("dense_f64_empty_0x3.dbdf", 0, 3, {});
    check_dense_file<double>("dense_f64_zeros_2x2.dbdf", 2, 2, {0.0, 0.0, 0.0, 0.0});
    check_dense_file<double>("dense_f64_rowview_2x4.dbdf", 2, 4,
                             dense_values<double>(2, 4, [](auto r, auto c) { return 10.0 * (r + 1) + c; }));
    // The runtime wrote the wrong elements for a column view; the file holds them and reads back as such.
    check_dense_file<double>("dense_f64_colview_3x2.dbdf", 3, 2, {1, 2, 3, 10, 11, 12});
}

// The expected bytes of a large dense file, laid out field by field from DIALECT.md 4.1.
std::vector<std::byte> dense_f64_layout(std::uint64_t rows, std::uint64_t cols, const std::vector<double>& values) {
    Bytes bytes;
    bytes.matrix(1, rows, cols, 7)
        .block(0, 0, static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(cols), 1)
        .u8(7);
    for (double value : values) bytes.f64(value);
    return bytes.vector();
}

// The digest the large-file tests rely on, against FIPS 180-2's examples (one block, two blocks, empty) and a
// corpus file whose SHA-256 the runtime's corpus lists.
TEST(DaphneDialectCorpus, Sha256OfKnownMessages) {
    auto digest = [](std::string_view text) { return sha256_hex(std::as_bytes(std::span(text.data(), text.size()))); };
    EXPECT_EQ(digest("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(digest(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex(load("csr_f64_6x5.dbdf")), "7f807dcf945b97c7f8b25f35b17efceef54a2d4d1a89c92748f4befec6cf4e6e");
}

// The runtime's large files are not in the folder: rebuilt from their formulas, dbdf's output must have the size
// and SHA-256 the runtime's corpus lists for them, and the layout of DIALECT.md 4.1.
TEST(DaphneDialectDense, LargeFilesRegeneratedFromTheirFormulas) {
    for (const auto& [rows, cols, file] : {std::tuple{300ull, 200ull, "dense_f64_large_300x200.dbdf"},
                                           std::tuple{500ull, 400ull, "dense_f64_large_500x400.dbdf"}}) {
        SCOPED_TRACE(file);
        const std::uint64_t width = cols;
        const auto values = dense_values<double>(rows, cols, [&](auto r, auto c) { return double(r * width + c); });
        const auto written = write_daphne([&, rows = rows, cols = cols](Writer& writer) {
            writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, rows, cols);
            writer.write_dense(ValueType::F64, values.data(), values.size(), 0, {});
        });
        const RegeneratedFile runtime = regenerated(file);
        EXPECT_EQ(written.size(), runtime.bytes);
        EXPECT_EQ(sha256_hex(written), runtime.sha256);
        EXPECT_EQ(written, dense_f64_layout(rows, cols, values));
        Reader reader = Reader::open_memory(written, Dialect::Daphne);
        EXPECT_EQ(read_all_dense<double>(reader), values);
    }
}

struct CsrExpectation {
    std::uint64_t rows;
    std::uint64_t cols;
    std::vector<std::uint64_t> row_offsets;
    std::vector<std::uint64_t> col_indices;
};

template <class T>
void check_csr_file(const std::string& name, const CsrExpectation& csr, const std::vector<T>& values) {
    SCOPED_TRACE(name);
    const std::vector<std::byte> bytes = load(name);
    Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
    EXPECT_EQ(reader.header().data_type, DataType::CsrMatrix);
    EXPECT_EQ(reader.header().value_type, value_type_v<T>);
    EXPECT_EQ(reader.header().rows, csr.rows);
    EXPECT_EQ(reader.header().cols, csr.cols);
    EXPECT_EQ(reader.validate({}), 0u);
    EXPECT_EQ(reader.count_entries_total(), values.size());
    std::vector<std::uint64_t> row_offsets(csr.rows + 1);
    std::vector<std::uint64_t> col_indices(values.size() + 1);
    std::vector<T> read_values(values.size() + 1);
    const std::uint64_t entries = reader.read_csr(value_type_v<T>, row_offsets.data(), row_offsets.size(),
                                                  col_indices.data(), read_values.data(), read_values.size());
    ASSERT_EQ(entries, values.size());
    col_indices.resize(entries);
    read_values.resize(entries);
    EXPECT_EQ(row_offsets, csr.row_offsets);
    EXPECT_EQ(col_indices, csr.col_indices);
    EXPECT_EQ(read_values, values);
    // Dense reading fills in the zeros.
    const std::vector<T> dense = read_all_dense<T>(reader);
    for (std::uint64_t r = 0; r < csr.rows; ++r) {
        for (std::uint64_t k = csr.row_offsets[r]; k < csr.row_offsets[r + 1]; ++k) {
            EXPECT_EQ(dense[r * csr.cols + csr.col_indices[k]], values[k]);
        }
    }
    const auto written = write_daphne([&](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, value_type_v<T>, csr.rows, csr.cols);
        writer.write_csr(value_type_v<T>, csr.row_offsets.data(), csr.col_indices.data(), values.data(), values.size(),
                         {});
    });
    EXPECT_EQ(written, bytes);
}

TEST(DaphneDialectCsr, CorpusFiles) {
    check_csr_file<double>("csr_f64_6x5.dbdf", {6, 5, {0, 2, 2, 3, 6, 7, 7}, {1, 4, 0, 2, 3, 4, 1}},
                           {1.5, -2.25, 3.0, 4.5, 5.0, 6.75, 7.125});
    check_csr_file<double>("csr_f64_rowview_3x5.dbdf", {3, 5, {0, 1, 4, 5}, {0, 2, 3, 4, 1}},
                           {3.0, 4.5, 5.0, 6.75, 7.125});
    check_csr_file<std::int64_t>("csr_i64_4x4.dbdf", {4, 4, {0, 2, 2, 3, 5}, {0, 3, 1, 2, 3}},
                                 {1, -42, 1000000000000, 7, -1});
    check_csr_file<double>("csr_f64_empty_3x3.dbdf", {3, 3, {0, 0, 0, 0}, {}}, {});
    check_csr_file<double>("csr_f64_overalloc_4x4.dbdf", {4, 4, {0, 1, 2, 2, 3}, {2, 0, 3}}, {1.0, 2.0, 3.0});
    check_csr_file<float>("csr_f32_3x2.dbdf", {3, 2, {0, 1, 1, 2}, {1, 0}}, {0.5f, -1.25f});
}

TEST(DaphneDialectCsr, LargeFileRegeneratedFromItsFormula) {
    CsrExpectation csr{2000, 1000, {0}, {}};
    std::vector<double> values;
    for (std::uint64_t r = 0; r < 2000; ++r) {
        for (std::uint64_t c = r % 20; c < 1000; c += 20) {
            csr.col_indices.push_back(c);
            values.push_back(double(r * 1000 + c + 1));
        }
        csr.row_offsets.push_back(csr.col_indices.size());
    }
    const auto written = write_daphne([&](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, ValueType::F64, 2000, 1000);
        writer.write_csr(ValueType::F64, csr.row_offsets.data(), csr.col_indices.data(), values.data(), values.size(),
                         {});
    });
    const RegeneratedFile runtime = regenerated("csr_f64_large_2000x1000.dbdf");
    EXPECT_EQ(written.size(), runtime.bytes);
    EXPECT_EQ(sha256_hex(written), runtime.sha256);
    Bytes expected;
    expected.matrix(2, 2000, 1000, 7).block(0, 0, 2000, 1000, 2).u8(7).u64(values.size());
    for (auto offset : csr.row_offsets) expected.u64(offset);
    for (auto col : csr.col_indices) expected.u64(col);
    for (double value : values) expected.f64(value);
    EXPECT_EQ(written, expected.vector());
    Reader reader = Reader::open_memory(written, Dialect::Daphne);
    EXPECT_EQ(reader.count_entries_total(), 100000u);
    EXPECT_EQ(reader.validate({}), 0u);
}

// A daphne CSR f64 file laid out field by field (DIALECT.md 5.1) from the arrays as given, in any order.
std::vector<std::byte> daphne_csr_f64(std::uint32_t rows, std::uint32_t cols, const std::vector<std::uint64_t>& offsets,
                                      const std::vector<std::uint64_t>& col_indices,
                                      const std::vector<double>& values) {
    Bytes bytes;
    bytes.matrix(2, rows, cols, 7).block(0, 0, rows, cols, 2).u8(7).u64(values.size());
    for (auto offset : offsets) bytes.u64(offset);
    for (auto col : col_indices) bytes.u64(col);
    for (double value : values) bytes.f64(value);
    return bytes.vector();
}

// DIALECT.md 5.3: the runtime writes column indices in the order they lie in memory, without sorting them, and
// DAPHNE's CSRMatrix does not keep them sorted. Such a file reads as the matrix it stands for, rows in column order.
TEST(DaphneDialectCsr, UnsortedColumnIndicesAreReadInColumnOrder) {
    // 3 x 4: row 0 stores columns 3, 0, 2; row 1 nothing; row 2 columns 1, 0.
    const auto bytes = daphne_csr_f64(3, 4, {0, 3, 3, 5}, {3, 0, 2, 1, 0}, {3.5, 0.5, 2.5, 21.5, 20.5});
    Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
    EXPECT_EQ(reader.validate({}), 0u);
    EXPECT_EQ(reader.count_entries_total(), 5u);
    std::vector<std::uint64_t> offsets(4), cols(5);
    std::vector<double> values(5);
    ASSERT_EQ(
        reader.read_csr(ValueType::F64, offsets.data(), offsets.size(), cols.data(), values.data(), values.size()), 5u);
    EXPECT_EQ(offsets, (std::vector<std::uint64_t>{0, 3, 3, 5}));
    EXPECT_EQ(cols, (std::vector<std::uint64_t>{0, 2, 3, 0, 1}));
    EXPECT_EQ(values, (std::vector<double>{0.5, 2.5, 3.5, 20.5, 21.5}));
    EXPECT_EQ(read_all_dense<double>(reader), (std::vector<double>{0.5, 0, 2.5, 3.5, 0, 0, 0, 0, 20.5, 21.5, 0, 0}));
    std::vector<double> window(2);
    reader.read_dense_window(ValueType::F64, Window{0, 2, 1, 2}, window.data(), window.size(), 0);
    EXPECT_EQ(window, (std::vector<double>{2.5, 3.5}));

    ASSERT_TRUE(reader.next_block());
    std::vector<std::uint32_t> coo_rows(5), coo_cols(5);
    std::vector<float> coo_values(5);
    ASSERT_EQ(reader.decode_coo(ValueType::F32, coo_rows.data(), coo_cols.data(), coo_values.data(), 5), 5u);
    EXPECT_EQ(coo_rows, (std::vector<std::uint32_t>{0, 0, 0, 2, 2}));
    EXPECT_EQ(coo_cols, (std::vector<std::uint32_t>{0, 2, 3, 0, 1}));
    EXPECT_EQ(coo_values, (std::vector<float>{0.5f, 2.5f, 3.5f, 20.5f, 21.5f}));
}

// A column stored twice in one row would give a cell two values; nothing in the file says which one counts.
TEST(DaphneDialectCsr, AColumnStoredTwiceInARowIsRefused) {
    const auto bytes = daphne_csr_f64(2, 4, {0, 3, 3}, {2, 0, 2}, {1, 2, 3});
    const std::uint64_t second_column_two = 45 + 8 + 8 * 3 + 8 * 2;
    Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
    std::vector<double> values(8);
    try {
        reader.read_dense_window(ValueType::F64, Window{0, 0, 2, 4}, values.data(), values.size(), 0);
        FAIL() << "expected a format error";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Format) << error.what();
        EXPECT_EQ(error.offset(), second_column_two) << error.what();
        EXPECT_NE(std::string(error.what()).find("column 2 twice"), std::string::npos) << error.what();
    }
    std::vector<Violation> violations;
    EXPECT_EQ(reader.validate([&](const Violation& violation) { violations.push_back(violation); }), 1u);
    ASSERT_EQ(violations.size(), 1u);
    EXPECT_EQ(violations[0].offset, second_column_two);
}

// DAPHNE's value type codes and .meta names (DIALECT.md 2 and 10), written out here rather than taken from the
// library, so that a wrong entry in its table fails.
template <class T>
struct DaphneCode;
template <>
struct DaphneCode<std::int8_t> {
    static constexpr std::uint8_t code = 0;
    static constexpr const char* meta = "si8";
};
template <>
struct DaphneCode<std::int32_t> {
    static constexpr std::uint8_t code = 1;
    static constexpr const char* meta = "si32";
};
template <>
struct DaphneCode<std::int64_t> {
    static constexpr std::uint8_t code = 2;
    static constexpr const char* meta = "si64";
};
template <>
struct DaphneCode<std::uint8_t> {
    static constexpr std::uint8_t code = 3;
    static constexpr const char* meta = "ui8";
};
template <>
struct DaphneCode<std::uint32_t> {
    static constexpr std::uint8_t code = 4;
    static constexpr const char* meta = "ui32";
};
template <>
struct DaphneCode<std::uint64_t> {
    static constexpr std::uint8_t code = 5;
    static constexpr const char* meta = "ui64";
};
template <>
struct DaphneCode<float> {
    static constexpr std::uint8_t code = 6;
    static constexpr const char* meta = "f32";
};
template <>
struct DaphneCode<double> {
    static constexpr std::uint8_t code = 7;
    static constexpr const char* meta = "f64";
};

// Four bit-non-zero values of T that only survive exact handling: the extremes, and for floats -0.0 and a
// fraction.
template <class T>
std::vector<T> nonzero_samples() {
    using limits = std::numeric_limits<T>;
    if constexpr (std::is_floating_point_v<T>) {
        return {limits::lowest(), T(-0.0), T(0.375), limits::max()};
    } else {
        return {std::is_signed_v<T> ? limits::min() : T{1}, limits::max(), T{7},
                std::is_signed_v<T> ? T(-100) : T{100}};
    }
}

// One value at its native width, little-endian.
template <class T>
void put_value(Bytes& bytes, T value) {
    if constexpr (sizeof(T) == 1) bytes.u8(std::bit_cast<std::uint8_t>(value));
    if constexpr (sizeof(T) == 4) bytes.u32(std::bit_cast<std::uint32_t>(value));
    if constexpr (sizeof(T) == 8) bytes.u64(std::bit_cast<std::uint64_t>(value));
}

template <class T>
class DaphneDialectEveryType : public ::testing::Test {};
using DaphneNumericTypes = ::testing::Types<std::int8_t, std::int32_t, std::int64_t, std::uint8_t, std::uint32_t,
                                            std::uint64_t, float, double>;
TYPED_TEST_SUITE(DaphneDialectEveryType, DaphneNumericTypes);

// A 3 x 4 CSR matrix (row 1 empty) written from CSR and from dense input: DIALECT.md 5.1 byte for byte, read back
// as CSR and dense, with the .meta text DAPHNE's MetaDataParser gives CSR matrices.
TYPED_TEST(DaphneDialectEveryType, CsrMatrixLayoutAndRoundTrip) {
    using T = TypeParam;
    constexpr ValueType type = value_type_v<T>;
    const std::vector<T> values = nonzero_samples<T>();
    const std::vector<std::uint64_t> offsets{0, 2, 2, 4};
    const std::vector<std::uint64_t> cols{1, 3, 0, 2};
    std::vector<T> grid(12, T{});
    grid[1] = values[0];
    grid[3] = values[1];
    grid[8] = values[2];
    grid[10] = values[3];

    Bytes expected;
    expected.matrix(2, 3, 4, DaphneCode<T>::code).block(0, 0, 3, 4, 2).u8(DaphneCode<T>::code).u64(4);
    for (auto offset : offsets) expected.u64(offset);
    for (auto col : cols) expected.u64(col);
    for (T value : values) put_value(expected, value);
    ASSERT_EQ(expected.size(), 53 + 8 * 4 + 4 * (8 + sizeof(T)));

    const auto from_csr = write_daphne([&](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, type, 3, 4);
        writer.write_csr(type, offsets.data(), cols.data(), values.data(), values.size(), {});
    });
    EXPECT_EQ(from_csr, expected.vector());
    const auto from_dense = write_daphne([&](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, type, 3, 4);
        writer.add_dense(BlockPlacement{0, 0, 3, 4}, type, grid.data(), grid.size(), 0, {});
    });
    EXPECT_EQ(from_dense, expected.vector());

    Reader reader = Reader::open_memory(from_csr, Dialect::Daphne);
    EXPECT_EQ(reader.header().value_type, type);
    EXPECT_EQ(reader.validate({}), 0u);
    std::vector<std::uint64_t> read_offsets(4), read_cols(4);
    std::vector<T> read_values(4);
    ASSERT_EQ(reader.read_csr(type, read_offsets.data(), read_offsets.size(), read_cols.data(), read_values.data(), 4),
              4u);
    EXPECT_EQ(read_offsets, offsets);
    EXPECT_EQ(read_cols, cols);
    EXPECT_EQ(testing::bits_of(read_values), testing::bits_of(values));
    EXPECT_EQ(testing::bits_of(read_all_dense<T>(reader)), testing::bits_of(grid));
    ASSERT_TRUE(reader.next_block());
    EXPECT_EQ(reader.block().layout, PayloadLayout::DaphneCsr);

    EXPECT_EQ(detail::daphne_meta_json(reader.header(), 4),
              std::string(R"({"numCols":4,"numNonZeros":4,"numRows":3,"valueType":")") + DaphneCode<T>::meta + "\"}");
}

// A 4-row frame whose columns are T, then f64, then T again, written column by column: DIALECT.md 6.1 byte for
// byte (rows interleaved at native widths), read back column by column.
TYPED_TEST(DaphneDialectEveryType, FrameColumnLayoutAndRoundTrip) {
    using T = TypeParam;
    constexpr ValueType type = value_type_v<T>;
    const std::vector<T> first = nonzero_samples<T>();
    const std::vector<T> third{first[3], first[2], T{}, first[0]};
    const std::vector<double> second{-1.5, 0.0, 2.25, 1e300};
    const auto written = write_daphne([&](Writer& writer) {
        writer.begin_frame(4, {type, ValueType::F64, type}, {"a", "bc", ""});
        writer.write_column(2, type, third.data(), third.size(), {});
        writer.write_column(0, type, first.data(), first.size(), {});
        writer.write_column(1, ValueType::F64, second.data(), second.size(), {});
    });

    const std::uint8_t code = DaphneCode<T>::code;
    Bytes expected;
    expected.u8(1).u8(3).u64(4).u64(3).u8(code).u8(7).u8(code);
    expected.u16(1).text("a").u16(2).text("bc").u16(0).u64(0).u64(0);
    const std::uint64_t header_bytes = expected.size();
    for (std::size_t row = 0; row < 4; ++row) {
        put_value(expected, first[row]);
        expected.f64(second[row]);
        put_value(expected, third[row]);
    }
    EXPECT_EQ(written, expected.vector());

    Reader reader = Reader::open_memory(written, Dialect::Daphne);
    EXPECT_EQ(reader.header().column_types, (std::vector<ValueType>{type, ValueType::F64, type}));
    EXPECT_EQ(reader.header().labels, (std::vector<std::string>{"col_0", "col_1", "col_2"}));
    EXPECT_EQ(reader.header_bytes(), header_bytes);
    EXPECT_EQ(reader.validate({}), 0u);
    std::vector<T> column(4);
    reader.read_dense_window(type, Window{0, 0, 4, 1}, column.data(), column.size(), 0);
    EXPECT_EQ(testing::bits_of(column), testing::bits_of(first));
    reader.read_dense_window(type, Window{0, 2, 4, 1}, column.data(), column.size(), 0);
    EXPECT_EQ(testing::bits_of(column), testing::bits_of(third));
    std::vector<double> middle(4);
    reader.read_dense_window(ValueType::F64, Window{0, 1, 4, 1}, middle.data(), middle.size(), 0);
    EXPECT_EQ(middle, second);
    const std::uint64_t row_width = 2 * sizeof(T) + 8;
    std::uint64_t columns_seen = 0;
    while (reader.next_block()) {
        EXPECT_EQ(reader.block().layout, PayloadLayout::StridedColumn);
        EXPECT_EQ(reader.block().value_stride, row_width);
        ++columns_seen;
    }
    EXPECT_EQ(columns_seen, 3u);
    EXPECT_EQ(detail::daphne_meta_json(reader.header(), 0),
              std::string(R"({"numCols":3,"numRows":4,"schema":[{"label":"col_0","valueType":")") +
                  DaphneCode<T>::meta + R"("},{"label":"col_1","valueType":"f64"},{"label":"col_2","valueType":")" +
                  DaphneCode<T>::meta + "\"}]}");
}

TEST(DaphneDialectFrame, MixedFrameReadsWithDefaultLabels) {
    const auto bytes = load("frame_mixed.dbdf");
    Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
    const ObjectHeader& header = reader.header();
    EXPECT_EQ(header.data_type, DataType::Frame);
    EXPECT_EQ(header.rows, 4u);
    EXPECT_EQ(header.cols, 3u);
    EXPECT_EQ(header.column_types, (std::vector<ValueType>{ValueType::I64, ValueType::F64, ValueType::F32}));
    EXPECT_EQ(header.labels, (std::vector<std::string>{"col_0", "col_1", "col_2"}));
    EXPECT_FALSE(header.labels_recoverable);
    EXPECT_EQ(reader.header_bytes(), 51u);
    std::vector<std::int64_t> ids(4);
    std::vector<double> scores(4);
    std::vector<float> weights(4);
    reader.read_dense_window(ValueType::I64, Window{0, 0, 4, 1}, ids.data(), ids.size(), 0);
    reader.read_dense_window(ValueType::F64, Window{0, 1, 4, 1}, scores.data(), scores.size(), 0);
    reader.read_dense_window(ValueType::F32, Window{0, 2, 4, 1}, weights.data(), weights.size(), 0);
    EXPECT_EQ(ids, (std::vector<std::int64_t>{1000, 1001, 1002, 1003}));
    EXPECT_EQ(scores, (std::vector<double>{-1.0, 0.5, 2.0, 3.5}));
    EXPECT_EQ(weights, (std::vector<float>{0.25f, 0.5f, 0.75f, 1.0f}));
    EXPECT_EQ(reader.validate({}), 0u);
    // Reading across columns of mixed widths converts exactly.
    std::vector<double> row(3);
    reader.read_dense_window(ValueType::F64, Window{2, 0, 1, 3}, row.data(), row.size(), 0);
    EXPECT_EQ(row, (std::vector<double>{1002, 2.0, 0.75}));

    // Written with its real labels: the runtime's layout, label bytes aside.
    const std::vector<std::int64_t> id_column{1000, 1001, 1002, 1003};
    const std::vector<double> score_column{-1.0, 0.5, 2.0, 3.5};
    const std::vector<float> weight_column{0.25f, 0.5f, 0.75f, 1.0f};
    const auto written = write_daphne([&](Writer& writer) {
        writer.begin_frame(4, {ValueType::I64, ValueType::F64, ValueType::F32}, {"id", "score", "w"});
        writer.write_column(2, ValueType::F32, weight_column.data(), 4, {});
        writer.write_column(0, ValueType::I64, id_column.data(), 4, {});
        writer.write_column(1, ValueType::F64, score_column.data(), 4, {});
    });
    std::vector<std::byte> expected = bytes;
    std::memcpy(expected.data() + 23, "id", 2);
    std::memcpy(expected.data() + 27, "score", 5);
    std::memcpy(expected.data() + 34, "w", 1);
    EXPECT_EQ(written, expected);
}

TEST(DaphneDialectFrame, LongLabelFrame) {
    const auto bytes = load("frame_longlabel.dbdf");
    Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
    EXPECT_EQ(reader.header().column_types, (std::vector<ValueType>{ValueType::F64, ValueType::U8}));
    EXPECT_EQ(reader.header().labels, (std::vector<std::string>{"col_0", "col_1"}));
    EXPECT_EQ(reader.header_bytes(), 61u);
    std::vector<double> values(4);
    reader.read_dense_window(ValueType::F64, Window{0, 0, 2, 2}, values.data(), values.size(), 0);
    EXPECT_EQ(values, (std::vector<double>{-0.5, 7, 2.0, 255}));
    std::vector<BlockView> blocks;
    while (reader.next_block()) blocks.push_back(reader.block());
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[1].layout, PayloadLayout::StridedColumn);
    EXPECT_EQ(blocks[1].value_stride, 9u);
    EXPECT_EQ(blocks[1].payload_offset, 69u);
}

TEST(DaphneDialectFrame, StringColumnFileIsReportedTruncated) {
    const auto bytes = load("frame_strcol_partial.dbdf");
    try {
        (void)Reader::open_memory(bytes, Dialect::Daphne);
        FAIL() << "expected a truncation error";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Truncated);
        EXPECT_NE(std::string(error.what()).find("truncated"), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("STR"), std::string::npos) << error.what();
    }
}

// The body's size follows from the header, so opening finds the cut: no use of the reader can start from it.
TEST(DaphneDialectFrame, CutOffNumericFrameIsTruncated) {
    auto bytes = load("frame_mixed.dbdf");
    bytes.resize(bytes.size() - 7);
    try {
        (void)Reader::open_memory(bytes, Dialect::Daphne);
        FAIL() << "expected a truncation error";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Truncated);
        EXPECT_EQ(error.offset(), bytes.size()) << error.what();
    }
}

TEST(DaphneDialectString, StringMatrixIsRefusedWithTheReason) {
    const auto bytes = load("dense_str_2x2.dbdf");
    try {
        (void)Reader::open_memory(bytes, Dialect::Daphne);
        FAIL() << "expected a refusal";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Unsupported);
        const std::string message = error.what();
        EXPECT_NE(message.find("std::string"), std::string::npos) << message;
        EXPECT_NE(message.find("cannot be recovered"), std::string::npos) << message;
        EXPECT_EQ(error.offset(), 18u);
    }
}

TEST(DaphneDialectScalar, SerializedValues) {
    const auto f64 = load("value_f64_serialized.bin");
    Reader reader = Reader::open_memory(f64, Dialect::Daphne);
    EXPECT_EQ(reader.header().data_type, DataType::Scalar);
    EXPECT_EQ(reader.header().value_type, ValueType::F64);
    EXPECT_EQ(reader.header().rows, 1u);
    EXPECT_EQ(reader.header().cols, 1u);
    EXPECT_EQ(read_all_dense<double>(reader), std::vector<double>{3.25});
    EXPECT_EQ(reader.validate({}), 0u);

    auto i64 = load("value_i64_serialized.bin");
    // The #r/#c slots are indeterminate in other builds: their bytes must not matter.
    for (std::size_t k = 2; k < 18; ++k) i64[k] = std::byte{0xA5};
    Reader other = Reader::open_memory(i64, Dialect::Daphne);
    EXPECT_EQ(other.header().value_type, ValueType::I64);
    EXPECT_EQ(read_all_dense<std::int64_t>(other), std::vector<std::int64_t>{-7});
}

TEST(DaphneDialectScalar, WritingReproducesTheRuntimesFiles) {
    const double f64 = 3.25;
    EXPECT_EQ(write_daphne([&](Writer& writer) {
                  writer.begin_matrix(DataType::Scalar, ValueType::F64, 1, 1);
                  writer.write_dense(ValueType::F64, &f64, 1, 0, {});
              }),
              load("value_f64_serialized.bin"));
    // Any one call whose block covers the 1 x 1 object gives the same bytes, values converted exactly.
    const std::int32_t i32 = -7;
    EXPECT_EQ(write_daphne([&](Writer& writer) {
                  writer.begin_matrix(DataType::Scalar, ValueType::I64, 1, 1);
                  writer.add_dense(BlockPlacement{0, 0, 1, 1}, ValueType::I32, &i32, 1, 0, {});
              }),
              load("value_i64_serialized.bin"));
    const std::uint64_t offsets[] = {0, 1};
    const std::uint32_t col = 0;
    const double value = 3.25;
    EXPECT_EQ(write_daphne([&](Writer& writer) {
                  writer.begin_matrix(DataType::Scalar, ValueType::F64, 1, 1);
                  writer.add_csr(BlockPlacement{0, 0, 1, 1}, ValueType::F64, offsets, &col, &value, 1, {});
              }),
              load("value_f64_serialized.bin"));
}

TEST(DaphneDialectScalar, EveryNumericTypeHasTheSerializersLayout) {
    // DIALECT.md 7: version 1, data type 4, 16 bytes of #r/#c (zero in the runtime's files), the DAPHNE code, the
    // value at its own width: 19 + S bytes.
    const std::vector<std::tuple<ValueType, std::uint8_t>> types{
        {ValueType::I8, 0},  {ValueType::I32, 1}, {ValueType::I64, 2}, {ValueType::U8, 3},
        {ValueType::U32, 4}, {ValueType::U64, 5}, {ValueType::F32, 6}, {ValueType::F64, 7}};
    for (const auto& [type, code] : types) {
        SCOPED_TRACE(std::string(name(type)));
        visit_value_type(type, [&, type = type, code = code](auto tag) {
            using T = typename decltype(tag)::type;
            const T value = std::is_signed_v<T> ? T(-5) : T(200);
            const auto bytes = write_daphne([&](Writer& writer) {
                writer.begin_matrix(DataType::Scalar, type, 1, 1);
                writer.write_dense(type, &value, 1, 0, {});
            });
            Bytes expected;
            expected.u8(1).u8(4).u64(0).u64(0).u8(code);
            std::byte raw[sizeof(T)];
            store_le<T>(raw, value);
            std::vector<std::byte> layout = expected.vector();
            layout.insert(layout.end(), std::begin(raw), std::end(raw));
            EXPECT_EQ(bytes.size(), 19 + sizeof(T));
            EXPECT_EQ(bytes, layout);
            Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
            EXPECT_EQ(reader.header().data_type, DataType::Scalar);
            EXPECT_EQ(reader.header().value_type, type);
            EXPECT_EQ(read_all_dense<T>(reader), std::vector<T>{value});
        });
    }
    // A scalar written without its value holds zero, as a matrix written by add_empty does.
    EXPECT_EQ(write_daphne([](Writer& writer) {
                  writer.begin_matrix(DataType::Scalar, ValueType::F64, 1, 1);
                  writer.add_empty(BlockPlacement{0, 0, 1, 1});
              }),
              (Bytes().u8(1).u8(4).u64(0).u64(0).u8(7).f64(0.0).vector()));
}

TEST(DaphneDialectScalar, WritingRefusesWhatIsNotOneValue) {
    auto expect_error = [](ErrorCode code, const std::function<void(Writer&)>& build, const char* fragment) {
        Writer writer(std::make_unique<MemorySink>(), WriterDialect{Dialect::Daphne, {}});
        try {
            build(writer);
            ADD_FAILURE() << "expected a refusal mentioning " << fragment;
        } catch (const Error& error) {
            EXPECT_EQ(error.code(), code) << error.what();
            EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
        }
    };
    const std::vector<double> values{1, 2};
    expect_error(
        ErrorCode::InvalidArgument, [](Writer& w) { w.begin_matrix(DataType::Scalar, ValueType::F64, 1, 2); },
        "a scalar is 1 x 1, not 1 x 2");
    expect_error(
        ErrorCode::InvalidArgument, [](Writer& w) { w.begin_matrix(DataType::Scalar, ValueType::F64, 0, 0); },
        "a scalar is 1 x 1");
    expect_error(
        ErrorCode::InvalidArgument, [](Writer& w) { w.begin_matrix(DataType::Scalar, ValueType::I16, 1, 1); },
        "i16, which the daphne dialect cannot express");
    expect_error(
        ErrorCode::InvalidArgument, [](Writer& w) { w.begin_matrix(DataType::Scalar, ValueType::None, 1, 1); },
        "a scalar needs a value type");
    expect_error(
        ErrorCode::InvalidArgument,
        [&](Writer& w) {
            w.begin_matrix(DataType::Scalar, ValueType::F64, 1, 1);
            w.write_dense(ValueType::F64, values.data(), 1, 0, WriteOptions{Encoding::Csr, 0, 0});
        },
        "stores a scalar's value as one dense block");
    expect_error(
        ErrorCode::InvalidArgument,
        [&](Writer& w) {
            w.begin_matrix(DataType::Scalar, ValueType::F64, 1, 1);
            w.write_column(0, ValueType::F64, values.data(), 1, {});
        },
        "write_column writes frame columns");
    expect_error(
        ErrorCode::InvalidArgument,
        [&](Writer& w) {
            w.begin_matrix(DataType::Scalar, ValueType::F64, 1, 1);
            w.write_dense(ValueType::F64, values.data(), 1, 0, {});
            w.add_dense(BlockPlacement{0, 0, 1, 1}, ValueType::F64, values.data(), 1, 0, {});
        },
        "overlaps");
    expect_error(
        ErrorCode::Format,
        [](Writer& w) {
            w.begin_matrix(DataType::Scalar, ValueType::F64, 1, 1);
            w.finish();
        },
        "no block covers the 1 x 1 scalar");
    const std::int32_t too_large = 300;
    expect_error(
        ErrorCode::Range,
        [&](Writer& w) {
            w.begin_matrix(DataType::Scalar, ValueType::U8, 1, 1);
            w.write_dense(ValueType::I32, &too_large, 1, 0, {});
        },
        "not exactly representable");
}

TEST(DaphneDialectScalar, TheSpecDialectHasNoScalar) {
    Writer writer(std::make_unique<MemorySink>());
    try {
        writer.begin_matrix(DataType::Scalar, ValueType::F64, 1, 1);
        FAIL() << "expected a refusal";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::InvalidArgument);
        EXPECT_NE(std::string(error.what()).find("only in the daphne dialect"), std::string::npos) << error.what();
    }
    EXPECT_FALSE(writer.begun());
    EXPECT_EQ(writer.bytes_written(), 0u);
    // The writer is still usable for what the spec has: a 1 x 1 dense matrix.
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 1, 1);
}

TEST(DaphneDialectScalar, AFileWriterWritesNoMetaSidecar) {
    const fs::path directory = fs::temp_directory_path() / ("dbdf-daphne-scalar-" + std::to_string(::getpid()));
    fs::create_directories(directory);
    const fs::path path = directory / "value_f64_serialized.bin";
    const double value = 3.25;
    {
        Writer writer(make_file_sink(path), WriterDialect{Dialect::Daphne, fs::path(path.string() + ".meta")});
        writer.begin_matrix(DataType::Scalar, ValueType::F64, 1, 1);
        writer.write_dense(ValueType::F64, &value, 1, 0, {});
        writer.finish();
    }
    EXPECT_EQ(load_text(path.string()), load_text(kCorpus + "value_f64_serialized.bin"));
    // The runtime has no file writer for scalars, so there is no sidecar to follow; the corpus has none either.
    EXPECT_FALSE(fs::exists(kCorpus + "value_f64_serialized.bin.meta"));
    EXPECT_FALSE(fs::exists(path.string() + ".meta"));
    EXPECT_EQ(std::distance(fs::directory_iterator(directory), fs::directory_iterator()), 1);
    fs::remove_all(directory);
}

TEST(DaphneDialectSpecStaysStrict, RuntimeFilesFailInSpecMode) {
    for (const char* name : {"dense_f64_3x4.dbdf", "csr_f64_6x5.dbdf", "frame_mixed.dbdf", "dense_si8_2x5.dbdf",
                             "value_f64_serialized.bin"}) {
        SCOPED_TRACE(name);
        const auto bytes = load(name);
        bool failed = false;
        try {
            Reader reader = Reader::open_memory(bytes);
            failed = reader.validate({}) > 0;
        } catch (const Error&) {
            failed = true;
        }
        EXPECT_TRUE(failed);
    }
}

TEST(DaphneDialectMeta, SidecarsMatchTheRuntimes) {
    const fs::path directory = fs::temp_directory_path() / ("dbdf-daphne-meta-" + std::to_string(::getpid()));
    fs::create_directories(directory);
    const fs::path dense_path = directory / "dense_i64_5x2.dbdf";
    const auto values = dense_values<std::int64_t>(
        5, 2, [](auto r, auto c) { return (static_cast<std::int64_t>(r) - 2) * 1000 + static_cast<std::int64_t>(c); });
    {
        Writer writer(make_file_sink(dense_path),
                      WriterDialect{Dialect::Daphne, fs::path(dense_path.string() + ".meta")});
        writer.begin_matrix(DataType::DenseMatrix, ValueType::I64, 5, 2);
        writer.write_dense(ValueType::I64, values.data(), values.size(), 0, {});
        writer.finish();
    }
    EXPECT_EQ(load_text(dense_path.string()), load_text(kCorpus + "dense_i64_5x2.dbdf"));
    EXPECT_EQ(load_text(dense_path.string() + ".meta"), load_text(kCorpus + "dense_i64_5x2.dbdf.meta"));

    const fs::path csr_path = directory / "csr.dbdf";
    {
        const std::vector<std::uint64_t> offsets{0, 1, 1, 2};
        const std::vector<std::uint64_t> cols{1, 0};
        const std::vector<float> csr_values{0.5f, -1.25f};
        Writer writer(make_file_sink(csr_path), WriterDialect{Dialect::Daphne, fs::path(csr_path.string() + ".meta")});
        writer.begin_matrix(DataType::CsrMatrix, ValueType::F32, 3, 2);
        writer.write_csr(ValueType::F32, offsets.data(), cols.data(), csr_values.data(), 2, {});
        writer.finish();
    }
    EXPECT_EQ(load_text(csr_path.string()), load_text(kCorpus + "csr_f32_3x2.dbdf"));
    EXPECT_EQ(load_text(csr_path.string() + ".meta"), R"({"numCols":2,"numNonZeros":2,"numRows":3,"valueType":"f32"})");

    const fs::path frame_path = directory / "frame.dbdf";
    {
        const std::vector<std::uint8_t> flags{1, 0};
        const std::vector<double> scores{0.5, -1};
        Writer writer(make_file_sink(frame_path),
                      WriterDialect{Dialect::Daphne, fs::path(frame_path.string() + ".meta")});
        writer.begin_frame(2, {ValueType::U8, ValueType::F64}, {"flag", "say \"hi\"\n"});
        writer.write_column(0, ValueType::U8, flags.data(), 2, {});
        writer.write_column(1, ValueType::F64, scores.data(), 2, {});
        writer.finish();
    }
    EXPECT_EQ(
        load_text(frame_path.string() + ".meta"),
        R"({"numCols":2,"numRows":2,"schema":[{"label":"flag","valueType":"ui8"},{"label":"say \"hi\"\n","valueType":"f64"}]})");
    fs::remove_all(directory);
}

TEST(DaphneDialectMeta, EveryCorpusSidecarIsReproduced) {
    struct Case {
        const char* name;
        DataType data_type;
        ValueType type;
        std::uint64_t rows, cols;
    };
    for (const Case& c : {Case{"dense_f32_2x3.dbdf", DataType::DenseMatrix, ValueType::F32, 2, 3},
                          Case{"dense_f64_3x4.dbdf", DataType::DenseMatrix, ValueType::F64, 3, 4},
                          Case{"dense_f64_empty_0x0.dbdf", DataType::DenseMatrix, ValueType::F64, 0, 0},
                          Case{"dense_f64_empty_0x3.dbdf", DataType::DenseMatrix, ValueType::F64, 0, 3},
                          Case{"dense_f64_zeros_2x2.dbdf", DataType::DenseMatrix, ValueType::F64, 2, 2},
                          Case{"dense_i64_5x2.dbdf", DataType::DenseMatrix, ValueType::I64, 5, 2},
                          Case{"dense_si32_3x3.dbdf", DataType::DenseMatrix, ValueType::I32, 3, 3},
                          Case{"dense_si8_2x5.dbdf", DataType::DenseMatrix, ValueType::I8, 2, 5},
                          Case{"dense_u32_3x2.dbdf", DataType::DenseMatrix, ValueType::U32, 3, 2},
                          Case{"dense_u64_2x2.dbdf", DataType::DenseMatrix, ValueType::U64, 2, 2},
                          Case{"dense_u8_4x4.dbdf", DataType::DenseMatrix, ValueType::U8, 4, 4}}) {
        SCOPED_TRACE(c.name);
        ObjectHeader header;
        header.data_type = c.data_type;
        header.value_type = c.type;
        header.rows = c.rows;
        header.cols = c.cols;
        EXPECT_EQ(detail::daphne_meta_json(header, 0), load_text(kCorpus + c.name + ".meta"));
    }
    // The two large files' sidecars.
    ObjectHeader large;
    large.value_type = ValueType::F64;
    large.rows = 300;
    large.cols = 200;
    EXPECT_EQ(detail::daphne_meta_json(large, 0), load_text(kCorpus + "dense_f64_large_300x200.dbdf.meta"));
    large.rows = 500;
    large.cols = 400;
    EXPECT_EQ(detail::daphne_meta_json(large, 0), load_text(kCorpus + "dense_f64_large_500x400.dbdf.meta"));
}

TEST(DaphneDialectWriting, RefusesWhatTheDialectCannotExpress) {
    auto expect_invalid = [](const std::function<void(Writer&)>& build, const char* fragment) {
        Writer writer(std::make_unique<MemorySink>(), WriterDialect{Dialect::Daphne, {}});
        try {
            build(writer);
            FAIL() << "expected a refusal mentioning " << fragment;
        } catch (const Error& error) {
            EXPECT_EQ(error.code(), ErrorCode::InvalidArgument) << error.what();
            EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
        }
    };
    expect_invalid([](Writer& w) { w.begin_matrix(DataType::DenseMatrix, ValueType::I16, 2, 2); }, "i16");
    expect_invalid([](Writer& w) { w.begin_matrix(DataType::CsrMatrix, ValueType::U16, 2, 2); }, "u16");
    expect_invalid([](Writer& w) { w.begin_frame(2, {ValueType::F64, ValueType::U16}, {"a", "b"}); }, "frame column 1");
    expect_invalid([](Writer& w) { w.begin_matrix(DataType::DenseMatrix, ValueType::F64, 1ull << 32, 1); }, "2^32");
    expect_invalid(
        [](Writer& w) {
            const std::vector<double> values(4, 1.0);
            w.begin_matrix(DataType::DenseMatrix, ValueType::F64, 4, 4);
            w.add_dense(BlockPlacement{0, 0, 2, 2}, ValueType::F64, values.data(), 4, 0, {});
        },
        "does not cover");
    expect_invalid(
        [](Writer& w) {
            const std::vector<double> values(4, 1.0);
            w.begin_matrix(DataType::DenseMatrix, ValueType::F64, 2, 2);
            w.write_dense(ValueType::F64, values.data(), 4, 0, WriteOptions{Encoding::Coo, 0, 0});
        },
        "not available in the daphne dialect");
}

TEST(DaphneDialectWriting, ValuesAreStoredInTheObjectTypeExactly) {
    // No narrowing: an all-zero CSR matrix keeps its CSR block, the value type stays the object's.
    const std::vector<std::int32_t> small{1, 2, 3, 4};
    const auto widened = write_daphne([&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 2, 2);
        writer.write_dense(ValueType::I32, small.data(), small.size(), 0, {});
    });
    Reader reader = Reader::open_memory(widened, Dialect::Daphne);
    EXPECT_EQ(read_all_dense<double>(reader), (std::vector<double>{1, 2, 3, 4}));

    Writer writer(std::make_unique<MemorySink>(), WriterDialect{Dialect::Daphne, {}});
    writer.begin_matrix(DataType::DenseMatrix, ValueType::U8, 1, 2);
    const std::vector<std::int32_t> too_large{1, 300};
    try {
        writer.write_dense(ValueType::I32, too_large.data(), 2, 0, {});
        FAIL() << "expected a range error";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Range);
    }
    EXPECT_FALSE(writer.failed());
    const std::vector<std::uint8_t> fitting{1, 255};
    writer.write_dense(ValueType::U8, fitting.data(), 2, 0, {});
    writer.finish();

    // A dense matrix from CSR input and a CSR matrix from dense input.
    const std::vector<std::uint64_t> offsets{0, 1, 2};
    const std::vector<std::uint32_t> cols{1, 0};
    const std::vector<double> values{5, 6};
    const auto dense_from_csr = write_daphne([&](Writer& w) {
        w.begin_matrix(DataType::DenseMatrix, ValueType::F64, 2, 2);
        w.add_csr(BlockPlacement{0, 0, 2, 2}, ValueType::F64, offsets.data(), cols.data(), values.data(), 2, {});
    });
    Reader dense_reader = Reader::open_memory(dense_from_csr, Dialect::Daphne);
    EXPECT_EQ(read_all_dense<double>(dense_reader), (std::vector<double>{0, 5, 6, 0}));
    const std::vector<double> grid{0, 5, 6, 0};
    const auto csr_from_dense = write_daphne([&](Writer& w) {
        w.begin_matrix(DataType::CsrMatrix, ValueType::F64, 2, 2);
        w.add_dense(BlockPlacement{0, 0, 2, 2}, ValueType::F64, grid.data(), 4, 0, {});
    });
    Reader csr_reader = Reader::open_memory(csr_from_dense, Dialect::Daphne);
    EXPECT_EQ(csr_reader.count_entries_total(), 2u);
    EXPECT_EQ(read_all_dense<double>(csr_reader), grid);
}

TEST(DaphneDialectWriting, EmptyBlockCoveringTheMatrixIsWrittenInTheObjectsLayout) {
    const auto dense = write_daphne([](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 2, 2);
        writer.add_empty(BlockPlacement{0, 0, 2, 2});
    });
    EXPECT_EQ(dense, load("dense_f64_zeros_2x2.dbdf"));
    const auto csr = write_daphne([](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, ValueType::F64, 3, 3);
        writer.add_empty(BlockPlacement{0, 0, 3, 3});
    });
    EXPECT_EQ(csr, load("csr_f64_empty_3x3.dbdf"));
}

TEST(DaphneDialectWriting, FrameColumnsByAddDense) {
    const std::vector<std::int32_t> ids{7, 8, 9};
    const std::vector<double> grid{0.5, 0, 1.5, 0, 2.5, 0};  // a 3 x 2 array whose first column is wanted
    const auto bytes = write_daphne([&](Writer& writer) {
        writer.begin_frame(3, {ValueType::I64, ValueType::F32}, {"id", "x"});
        writer.add_dense(BlockPlacement{0, 1, 3, 1}, ValueType::F64, grid.data(), grid.size(), 2, {});
        EXPECT_THROW(writer.add_dense(BlockPlacement{0, 1, 3, 1}, ValueType::F64, grid.data(), grid.size(), 2, {}),
                     Error);
        EXPECT_THROW(writer.add_dense(BlockPlacement{1, 0, 2, 1}, ValueType::I32, ids.data(), 2, 1, {}), Error);
        writer.add_dense(BlockPlacement{0, 0, 3, 1}, ValueType::I32, ids.data(), ids.size(), 1, {});
    });
    Bytes expected;
    expected.u8(1).u8(3).u64(3).u64(2).u8(2).u8(6).u16(2).text("id").u16(1).text("x").u64(0).u64(0);
    for (int row = 0; row < 3; ++row) expected.u64(std::uint64_t(7 + row)).f32(0.5f + float(row));
    EXPECT_EQ(bytes, expected.vector());
    Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
    std::vector<float> x(3);
    reader.read_dense_window(ValueType::F32, Window{0, 1, 3, 1}, x.data(), x.size(), 0);
    EXPECT_EQ(x, (std::vector<float>{0.5f, 1.5f, 2.5f}));
}

TEST(DaphneDialectWriting, IncompleteObjectsCannotFinish) {
    Writer matrix(std::make_unique<MemorySink>(), WriterDialect{Dialect::Daphne, {}});
    matrix.begin_matrix(DataType::DenseMatrix, ValueType::F64, 2, 2);
    EXPECT_THROW(matrix.finish(), Error);
    Writer frame(std::make_unique<MemorySink>(), WriterDialect{Dialect::Daphne, {}});
    frame.begin_frame(2, {ValueType::F64, ValueType::I32}, {"a", "b"});
    const std::vector<double> column{1, 2};
    frame.write_column(0, ValueType::F64, column.data(), 2, {});
    try {
        frame.finish();
        FAIL() << "expected an error";
    } catch (const Error& error) {
        EXPECT_NE(std::string(error.what()).find("frame column 1"), std::string::npos) << error.what();
    }
}

// A fault of the body's layout (its block record, its size) is found when the file is opened; a fault of the values
// (offsets, column indices) when they are read or validated.
TEST(DaphneDialectReading, MalformedBodiesAreRejected) {
    const auto good = load("csr_f64_6x5.dbdf");
    auto expect_code = [](std::vector<std::byte> bytes, ErrorCode code, bool at_open = false) {
        if (at_open) {
            try {
                (void)Reader::open_memory(bytes, Dialect::Daphne);
                ADD_FAILURE() << "expected an error when opening";
            } catch (const Error& error) {
                EXPECT_EQ(error.code(), code) << error.what();
            }
            return;
        }
        Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
        std::vector<double> values(reader.header().rows * reader.header().cols);
        try {
            reader.read_dense_window(ValueType::F64, Window{0, 0, reader.header().rows, reader.header().cols},
                                     values.data(), values.size(), 0);
            FAIL() << "expected an error";
        } catch (const Error& error) {
            EXPECT_EQ(error.code(), code) << error.what();
        }
        EXPECT_GE(reader.validate({}), 1u);
    };
    auto decreasing = good;
    decreasing[53 + 8 * 2] = std::byte{1};  // rowOffsets [0,2,1,...]
    expect_code(decreasing, ErrorCode::Format);
    auto column_out_of_range = good;
    column_out_of_range[109] = std::byte{5};  // colIdxs[0] = 5 in a 5-column matrix
    expect_code(column_out_of_range, ErrorCode::Format);
    auto duplicate = good;
    duplicate[109] = std::byte{4};  // row 0: columns 4, 4
    expect_code(duplicate, ErrorCode::Format);
    auto trailing = good;
    trailing.push_back(std::byte{0});
    expect_code(trailing, ErrorCode::Format, true);
    auto cut = good;
    cut.pop_back();
    expect_code(cut, ErrorCode::Truncated, true);
    auto block_shape = load("dense_f64_3x4.dbdf");
    block_shape[35] = std::byte{2};  // block #r 2 in a 3-row matrix
    expect_code(block_shape, ErrorCode::Format, true);
    auto wrong_block_type = load("dense_f64_3x4.dbdf");
    wrong_block_type[43] = std::byte{0};
    expect_code(wrong_block_type, ErrorCode::Format, true);
    auto huge_nnz = good;
    huge_nnz[52] = std::byte{0x7f};
    expect_code(huge_nnz, ErrorCode::Format, true);
}

// corpus.json's values as T: JSON numbers, or for f32 and f64 a "0x..." string of the value's bits, which keeps
// what a JSON number cannot (NaN payloads, infinities, -0.0).
template <class T>
std::vector<T> corpus_values(const nlohmann::json& array) {
    std::vector<T> values;
    for (const auto& cell : array) {
        if (!cell.is_string()) {
            values.push_back(cell.get<T>());
            continue;
        }
        if constexpr (std::is_floating_point_v<T>) {
            using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
            const std::string text = cell.get<std::string>();
            EXPECT_EQ(text.size(), 2 + 2 * sizeof(T)) << text;
            values.push_back(std::bit_cast<T>(static_cast<Bits>(std::stoull(text, nullptr, 16))));
        } else {
            ADD_FAILURE() << "integer cell written as a string: " << cell;
        }
    }
    return values;
}

// Bit patterns, so that NaN payloads and -0.0 compare as the values they are.
template <class T>
std::vector<std::uint64_t> bits_of(const std::vector<T>& values) {
    std::vector<std::uint64_t> bits;
    for (const T value : values) {
        if constexpr (sizeof(T) == 8)
            bits.push_back(std::bit_cast<std::uint64_t>(value));
        else if constexpr (sizeof(T) == 4)
            bits.push_back(std::bit_cast<std::uint32_t>(value));
        else if constexpr (sizeof(T) == 2)
            bits.push_back(std::bit_cast<std::uint16_t>(value));
        else
            bits.push_back(std::bit_cast<std::uint8_t>(value));
    }
    return bits;
}

// corpus.json describes the folder for every language's tests: it must say exactly what the files hold.
TEST(DaphneDialectCorpus, DescriptionMatchesTheFiles) {
    const nlohmann::json corpus = corpus_description();
    std::size_t checked = 0;
    for (const auto& entry : corpus.at("files")) {
        const std::string name = entry.at("file");
        SCOPED_TRACE(name);
        const auto bytes = load(name);
        if (entry.contains("refused")) {
            try {
                (void)Reader::open_memory(bytes, Dialect::Daphne);
                ADD_FAILURE() << "expected a refusal";
            } catch (const Error& error) {
                EXPECT_EQ(error.code(),
                          entry.at("refused") == "truncated" ? ErrorCode::Truncated : ErrorCode::Unsupported);
            }
            ++checked;
            continue;
        }
        Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
        const ObjectHeader& header = reader.header();
        EXPECT_EQ(std::string(name_of(header.data_type)), entry.at("data_type").get<std::string>());
        EXPECT_EQ(header.rows, entry.at("rows").get<std::uint64_t>());
        EXPECT_EQ(header.cols, entry.at("cols").get<std::uint64_t>());
        EXPECT_EQ(reader.validate({}), 0u);
        if (header.data_type == DataType::Frame) {
            EXPECT_EQ(header.labels_recoverable, entry.at("labels_recoverable").get<bool>());
            for (std::uint64_t c = 0; c < header.cols; ++c) {
                const auto& column = entry.at("columns").at(c);
                EXPECT_EQ(header.labels[c], column.at("label").get<std::string>());
                const ValueType type = *parse_value_type(column.at("value_type").get<std::string>());
                EXPECT_EQ(header.column_types[c], type);
                visit_value_type(type, [&](auto tag) {
                    using T = typename decltype(tag)::type;
                    std::vector<T> values(header.rows);
                    reader.read_dense_window(type, Window{0, c, header.rows, 1}, values.data(), values.size(), 0);
                    EXPECT_EQ(bits_of(values), bits_of(corpus_values<T>(column.at("values"))));
                });
            }
            ++checked;
            continue;
        }
        const ValueType type = *parse_value_type(entry.at("value_type").get<std::string>());
        EXPECT_EQ(header.value_type, type);
        visit_value_type(type, [&](auto tag) {
            using T = typename decltype(tag)::type;
            if (header.data_type == DataType::CsrMatrix) {
                const auto expected_offsets = entry.at("row_offsets").get<std::vector<std::uint64_t>>();
                const auto expected_cols = entry.at("col_indices").get<std::vector<std::uint64_t>>();
                const auto expected_values = corpus_values<T>(entry.at("values"));
                std::vector<std::uint64_t> offsets(header.rows + 1), cols(expected_cols.size());
                std::vector<T> values(expected_values.size());
                EXPECT_EQ(
                    reader.read_csr(type, offsets.data(), offsets.size(), cols.data(), values.data(), values.size()),
                    expected_values.size());
                EXPECT_EQ(offsets, expected_offsets);
                EXPECT_EQ(cols, expected_cols);
                EXPECT_EQ(bits_of(values), bits_of(expected_values));
                if (entry.at("reproducible").get<bool>()) {
                    EXPECT_EQ(write_daphne([&](Writer& writer) {
                                  writer.begin_matrix(DataType::CsrMatrix, type, header.rows, header.cols);
                                  writer.write_csr(type, expected_offsets.data(), expected_cols.data(),
                                                   expected_values.data(), expected_values.size(), {});
                              }),
                              bytes);
                }
                return;
            }
            const auto expected = corpus_values<T>(entry.at("values"));
            EXPECT_EQ(bits_of(read_all_dense<T>(reader)), bits_of(expected));
            if (entry.at("reproducible").get<bool>()) {
                // Dense matrices and scalars: a scalar's value is written as a 1 x 1 matrix's.
                EXPECT_EQ(write_daphne([&](Writer& writer) {
                              writer.begin_matrix(header.data_type, type, header.rows, header.cols);
                              writer.write_dense(type, expected.data(), expected.size(), 0, {});
                          }),
                          bytes);
            }
            if (entry.contains("meta")) {
                ObjectHeader meta_header = header;
                EXPECT_EQ(detail::daphne_meta_json(meta_header, 0),
                          load_text(kCorpus + entry.at("meta").get<std::string>()));
            }
        });
        ++checked;
    }
    EXPECT_EQ(checked, 48u);
}

// corpus.json's "invalid" files open (their layout is sound) but break a rule in their payload: every read of their
// values fails with the rule and byte offset corpus.json names, and validation reports exactly that violation.
TEST(DaphneDialectCorpus, InvalidFilesAreRefusedWithTheirRule) {
    const nlohmann::json corpus = corpus_description();
    std::size_t checked = 0;
    for (const auto& entry : corpus.at("invalid")) {
        const std::string name = entry.at("file");
        SCOPED_TRACE(name);
        EXPECT_EQ(entry.at("status"), "format");
        const int rule = entry.at("rule");
        const std::uint64_t offset = entry.at("offset");
        const auto bytes = load(name);
        Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
        const ObjectHeader header = reader.header();
        auto expect_refusal = [&](const char* what, const std::function<void()>& read) {
            SCOPED_TRACE(what);
            try {
                read();
                ADD_FAILURE() << "expected a refusal";
            } catch (const Error& error) {
                EXPECT_EQ(error.code(), ErrorCode::Format) << error.what();
                EXPECT_EQ(error.rule(), rule) << error.what();
                EXPECT_EQ(error.offset(), offset) << error.what();
            }
        };
        expect_refusal("read_csr", [&] {
            std::vector<std::uint64_t> offsets(header.rows + 1), cols(header.rows * header.cols);
            std::vector<double> values(header.rows * header.cols);
            (void)reader.read_csr(ValueType::F64, offsets.data(), offsets.size(), cols.data(), values.data(),
                                  values.size());
        });
        expect_refusal("read_dense_window", [&] { (void)read_all_dense<double>(reader); });
        std::vector<Violation> violations;
        EXPECT_EQ(reader.validate([&](const Violation& violation) { violations.push_back(violation); }), 1u);
        ASSERT_EQ(violations.size(), 1u);
        EXPECT_EQ(violations[0].rule, rule);
        EXPECT_EQ(violations[0].offset, offset);
        ++checked;
    }
    EXPECT_EQ(checked, 1u);
}

// Every single-byte change of the runtime's files, read every way, ends in values or a dbdf::Error: never a
// crash, an out-of-bounds read (the sanitizer builds run this too) or a huge allocation.
TEST(DaphneDialectReading, EverySingleByteMutationIsHandled) {
    for (const char* name : {"dense_si8_2x5.dbdf", "csr_f64_6x5.dbdf", "csr_f32_3x2.dbdf", "frame_mixed.dbdf",
                             "frame_longlabel.dbdf", "value_i64_serialized.bin", "dense_f64_empty_0x3.dbdf"}) {
        const auto original = load(name);
        for (std::size_t position = 0; position < original.size(); ++position) {
            for (const std::uint8_t replacement : {0x00, 0x01, 0x07, 0x80, 0xff}) {
                auto bytes = original;
                bytes[position] = std::byte{replacement};
                try {
                    Reader reader = Reader::open_memory(bytes, Dialect::Daphne);
                    (void)reader.validate([](const Violation&) {});
                    const auto& header = reader.header();
                    if (header.rows * header.cols > 4096 || header.rows > 4096 || header.cols > 4096) continue;
                    std::vector<double> values(header.rows * header.cols);
                    reader.read_dense_window(ValueType::F64, Window{0, 0, header.rows, header.cols}, values.data(),
                                             values.size(), 0);
                    const std::uint64_t entries = reader.count_entries_total();
                    std::vector<std::uint64_t> offsets(header.rows + 1), cols(entries);
                    std::vector<double> csr_values(entries);
                    reader.read_csr(ValueType::F64, offsets.data(), offsets.size(), cols.data(), csr_values.data(),
                                    csr_values.size());
                } catch (const Error&) {}
            }
        }
    }
}

}  // namespace
}  // namespace dbdf
