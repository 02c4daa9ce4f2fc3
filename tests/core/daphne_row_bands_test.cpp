// A dense matrix written in the daphne dialect as full-width row bands: the bands give exactly the bytes of one
// covering call (the runtime's own files included), each band of any kind (dense, CSR, COO, empty) and value type,
// and every band the dialect cannot take is refused with what it needs, leaving the writer usable.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "dbdf/dialect.hpp"
#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include <nlohmann/json.hpp>

#include "sha256.hpp"

namespace dbdf {
namespace {

namespace fs = std::filesystem;
using testing::sha256_hex;

const std::string kCorpus = std::string(DBDF_VECTORS_DIR) + "/daphne-runtime/";

std::vector<std::byte> load(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    EXPECT_TRUE(file.good()) << path;
    std::vector<char> chars((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    if (!chars.empty()) std::memcpy(bytes.data(), chars.data(), chars.size());
    return bytes;
}

std::string load_text(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

Writer daphne_writer() { return Writer(std::make_unique<MemorySink>(), WriterDialect{Dialect::Daphne, {}}); }

std::vector<std::byte> finished_bytes(Writer& writer) {
    writer.finish();
    return static_cast<MemorySink&>(writer.sink()).bytes();
}

// The runtime's dense_f64_3x4.dbdf: value (r, c) = 10r + c + 0.5.
std::vector<double> corpus_3x4_values() {
    std::vector<double> values;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c) values.push_back(r * 10.0 + c + 0.5);
    }
    return values;
}

// Writes `values` (rows x cols, row-major, of T) in bands of the given heights, in order.
template <class T>
void add_dense_bands(Writer& writer, const std::vector<T>& values, std::uint32_t cols,
                     const std::vector<std::uint32_t>& heights) {
    std::uint64_t row = 0;
    for (std::uint32_t height : heights) {
        writer.add_dense(BlockPlacement{row, 0, height, cols}, value_type_v<T>, values.data() + row * cols,
                         std::size_t{height} * cols, 0, {});
        row += height;
    }
}

TEST(DaphneRowBands, BandsGiveTheRuntimesFileByteForByte) {
    const std::vector<double> values = corpus_3x4_values();
    const std::vector<std::byte> corpus = load(kCorpus + "dense_f64_3x4.dbdf");
    for (const std::vector<std::uint32_t>& heights : {std::vector<std::uint32_t>{3}, {1, 1, 1}, {1, 2}, {2, 1}}) {
        SCOPED_TRACE(::testing::PrintToString(heights));
        Writer writer = daphne_writer();
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 3, 4);
        add_dense_bands(writer, values, 4, heights);
        EXPECT_EQ(finished_bytes(writer), corpus);
    }
}

TEST(DaphneRowBands, AFileWriterInBandsWritesTheRuntimesFileAndSidecar) {
    const fs::path directory = fs::temp_directory_path() / ("dbdf-daphne-bands-" + std::to_string(::getpid()));
    fs::create_directories(directory);
    const fs::path path = directory / "dense_f64_3x4.dbdf";
    {
        Writer writer(make_file_sink(path), WriterDialect{Dialect::Daphne, fs::path(path.string() + ".meta")});
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 3, 4);
        add_dense_bands(writer, corpus_3x4_values(), 4, {2, 1});
        writer.finish();
    }
    EXPECT_EQ(load(path.string()), load(kCorpus + "dense_f64_3x4.dbdf"));
    EXPECT_EQ(load_text(path.string() + ".meta"), load_text(kCorpus + "dense_f64_3x4.dbdf.meta"));
    fs::remove_all(directory);
}

// The runtime's large file, regenerated from its formula in bands of uneven heights, has the size and SHA-256 the
// runtime's corpus lists for it.
TEST(DaphneRowBands, BandsOfALargeFileMatchTheRuntimesDigest) {
    constexpr std::uint32_t kRows = 500, kCols = 400;
    std::vector<double> values(std::size_t{kRows} * kCols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i);
    Writer writer = daphne_writer();
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
    add_dense_bands(writer, values, kCols, {1, 7, 128, 300, 63, 1});
    const std::vector<std::byte> bytes = finished_bytes(writer);

    std::ifstream corpus_file(kCorpus + "corpus.json");
    const nlohmann::json corpus = nlohmann::json::parse(corpus_file);
    bool listed = false;
    for (const auto& entry : corpus.at("regenerated")) {
        if (entry.at("file") != "dense_f64_large_500x400.dbdf") continue;
        listed = true;
        EXPECT_EQ(bytes.size(), entry.at("bytes").get<std::uint64_t>());
        EXPECT_EQ(sha256_hex(bytes), entry.at("sha256").get<std::string>());
    }
    EXPECT_TRUE(listed);
}

// Bands of every kind, from values of another type and with a row stride, give the bytes of one whole call.
TEST(DaphneRowBands, MixedBandsEqualOneWholeCall) {
    constexpr std::uint32_t kRows = 1000, kCols = 37, kStride = 41;
    // i32 values with a stride, written to an i64 matrix (converted exactly); rows 300..399 are zeros.
    std::vector<std::int32_t> strided(std::size_t{kRows} * kStride, -1);
    std::vector<std::int64_t> dense(std::size_t{kRows} * kCols, 0);
    for (std::uint32_t r = 0; r < kRows; ++r) {
        for (std::uint32_t c = 0; c < kCols; ++c) {
            const bool zero = (r >= 300 && r < 400) || (r >= 600 && (r + c) % 3 != 0);
            const std::int32_t value = zero ? 0 : static_cast<std::int32_t>(r * 1000 + c) - 400000;
            strided[std::size_t{r} * kStride + c] = value;
            dense[std::size_t{r} * kCols + c] = value;
        }
    }
    Writer whole = daphne_writer();
    whole.begin_matrix(DataType::DenseMatrix, ValueType::I64, kRows, kCols);
    whole.write_dense(ValueType::I32, strided.data(), strided.size(), kStride, {});
    const std::vector<std::byte> expected = finished_bytes(whole);

    // Rows 0..299 in two dense bands, 300..399 one empty band, 400..599 dense, 600..799 as CSR, 800..999 as COO.
    Writer banded = daphne_writer();
    banded.begin_matrix(DataType::DenseMatrix, ValueType::I64, kRows, kCols);
    banded.add_dense(BlockPlacement{0, 0, 1, kCols}, ValueType::I32, strided.data(), kCols, kStride, {});
    banded.add_dense(BlockPlacement{1, 0, 299, kCols}, ValueType::I32, strided.data() + kStride,
                     strided.size() - kStride, kStride, WriteOptions{Encoding::Dense, 0, 0});
    banded.add_empty(BlockPlacement{300, 0, 100, kCols});
    banded.add_dense(BlockPlacement{400, 0, 200, kCols}, ValueType::I64, dense.data() + 400 * kCols, 200 * kCols, 0,
                     WriteOptions{Encoding::AsGiven, 0, 0});
    std::vector<std::uint64_t> offsets{0};
    std::vector<std::uint32_t> csr_cols;
    std::vector<std::int64_t> csr_values;
    for (std::uint32_t r = 600; r < 800; ++r) {
        for (std::uint32_t c = 0; c < kCols; ++c) {
            if (dense[std::size_t{r} * kCols + c] == 0) continue;
            csr_cols.push_back(c);
            csr_values.push_back(dense[std::size_t{r} * kCols + c]);
        }
        offsets.push_back(csr_cols.size());
    }
    banded.add_csr(BlockPlacement{600, 0, 200, kCols}, ValueType::I64, offsets.data(), csr_cols.data(),
                   csr_values.data(), csr_values.size(), {});
    std::vector<std::uint32_t> coo_rows, coo_cols;
    std::vector<double> coo_values;  // f64 values that convert exactly to i64
    for (std::uint32_t r = 800; r < kRows; ++r) {
        for (std::uint32_t c = 0; c < kCols; ++c) {
            if (dense[std::size_t{r} * kCols + c] == 0) continue;
            coo_rows.push_back(r - 800);
            coo_cols.push_back(c);
            coo_values.push_back(static_cast<double>(dense[std::size_t{r} * kCols + c]));
        }
    }
    banded.add_coo(BlockPlacement{800, 0, 200, kCols}, ValueType::F64, coo_rows.data(), coo_cols.data(),
                   coo_values.data(), coo_values.size(), {});
    EXPECT_EQ(finished_bytes(banded), expected);
}

// Expects `call` to throw Error with `code` and a message containing each of `fragments`.
void expect_refusal(ErrorCode code, const std::function<void()>& call, const std::vector<std::string>& fragments) {
    try {
        call();
        ADD_FAILURE() << "expected a refusal mentioning " << fragments.front();
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), code) << error.what();
        for (const std::string& fragment : fragments) {
            EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
        }
    }
}

TEST(DaphneRowBands, RefusalsSayWhatTheDialectNeedsAndLeaveTheWriterUsable) {
    const std::vector<double> values = corpus_3x4_values();
    Writer writer = daphne_writer();
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 3, 4);
    const std::uint64_t header_bytes = writer.bytes_written();
    auto band = [&](std::uint64_t row, std::uint64_t col, std::uint32_t rows, std::uint32_t cols) {
        return [&writer, &values, row, col, rows, cols] {
            writer.add_dense(BlockPlacement{row, col, rows, cols}, ValueType::F64, values.data() + row * 4 + col,
                             values.size() - (row * 4 + col), 4, {});
        };
    };
    const std::string needs = "full-width row bands (column 0, all 4 columns) in row order";
    // Not full width: at another column, or narrower.
    expect_refusal(ErrorCode::InvalidArgument, band(0, 1, 1, 3),
                   {"block at (0, 1) of shape 1 x 3 does not cover all 4 columns of the 3 x 4 matrix", needs});
    expect_refusal(ErrorCode::InvalidArgument, band(0, 0, 3, 2), {"does not cover all 4 columns", needs});
    // Out of order: rows left out before the band.
    expect_refusal(ErrorCode::CallOrder, band(1, 0, 1, 4),
                   {"block at (1, 0) of shape 1 x 4 is out of order: the next band starts at row 0 (written so far: "
                    "no rows)",
                    needs});
    // finish() before every row: nothing yet, then some rows.
    expect_refusal(ErrorCode::Format, [&] { writer.finish(); },
                   {"no block covers the 3 x 4 matrix", "full-width row bands in row order"});
    band(0, 0, 1, 4)();
    expect_refusal(ErrorCode::Format, [&] { writer.finish(); },
                   {"the 3 x 4 matrix is missing rows 1 to 2 (written so far: row 0)", "full-width row bands"});
    // Overlapping the rows written, and skipping one.
    expect_refusal(ErrorCode::InvalidArgument, band(0, 0, 2, 4),
                   {"overlaps the rows written so far (row 0); each row is written once, and the next band starts at "
                    "row 1",
                    needs});
    expect_refusal(ErrorCode::CallOrder, band(2, 0, 1, 4), {"the next band starts at row 1 (written so far: row 0)"});
    // A value that does not fit is named at its row of the matrix; the band is not written.
    const std::vector<double> half{0.5, 1, 2, 3};
    Writer integers = daphne_writer();
    integers.begin_matrix(DataType::DenseMatrix, ValueType::I32, 3, 4);
    const std::vector<std::int32_t> first_row{1, 2, 3, 4};
    integers.add_dense(BlockPlacement{0, 0, 1, 4}, ValueType::I32, first_row.data(), 4, 0, {});
    expect_refusal(ErrorCode::Range,
                   [&] {
                       integers.add_dense(BlockPlacement{1, 0, 1, 4}, ValueType::F64, half.data(), 4, 0, {});
                   },
                   {"value 0.5 at (1, 0) is not exactly representable"});
    EXPECT_FALSE(integers.failed());
    // write_dense writes the whole matrix: not after a band. Encodings other than the object's own are refused.
    expect_refusal(ErrorCode::CallOrder, [&] { writer.write_dense(ValueType::F64, values.data(), 12, 0, {}); },
                   {"must come right after begin"});
    expect_refusal(ErrorCode::InvalidArgument,
                   [&] {
                       writer.add_dense(BlockPlacement{1, 0, 1, 4}, ValueType::F64, values.data() + 4, 4, 0,
                                        WriteOptions{Encoding::Csr, 0, 0});
                   },
                   {"encoding csr is not available in the daphne dialect"});

    // Every refusal left the writer as it was: the rest of the rows finish the runtime's file.
    EXPECT_FALSE(writer.failed());
    EXPECT_EQ(writer.bytes_written(), header_bytes + 4 * sizeof(double));
    band(1, 0, 2, 4)();
    expect_refusal(ErrorCode::InvalidArgument, band(2, 0, 1, 4),
                   {"overlaps the rows written so far (rows 0 to 2); each row is written once, and all 3 rows have "
                    "been written"});
    EXPECT_EQ(finished_bytes(writer), load(kCorpus + "dense_f64_3x4.dbdf"));
}

TEST(DaphneRowBands, CsrMatricesAndScalarsTakeOneCoveringBlock) {
    const std::vector<std::uint64_t> offsets{0, 1};
    const std::vector<std::uint32_t> cols{0};
    const std::vector<double> value{1.5};
    Writer csr = daphne_writer();
    csr.begin_matrix(DataType::CsrMatrix, ValueType::F64, 3, 4);
    const std::uint32_t all_columns = 4;
    expect_refusal(ErrorCode::InvalidArgument,
                   [&] {
                       csr.add_csr(BlockPlacement{0, 0, 1, all_columns}, ValueType::F64, offsets.data(), cols.data(),
                                   value.data(), 1, {});
                   },
                   {"does not cover the 3 x 4 matrix",
                    "row offsets of every row come before its first column index, so it cannot be written in pieces"});
    EXPECT_FALSE(csr.failed());
    expect_refusal(ErrorCode::InvalidArgument,
                   [&] {
                       csr.add_empty(BlockPlacement{0, 0, 1, 4});
                   },
                   {"cannot be written in pieces"});
    Writer scalar = daphne_writer();
    scalar.begin_matrix(DataType::Scalar, ValueType::F64, 1, 1);
    scalar.add_dense(BlockPlacement{0, 0, 1, 1}, ValueType::F64, value.data(), 1, 0, {});
    expect_refusal(ErrorCode::InvalidArgument,
                   [&] {
                       scalar.add_dense(BlockPlacement{0, 0, 1, 1}, ValueType::F64, value.data(), 1, 0, {});
                   },
                   {"overlaps"});
}

// The empty object still needs no call, and finish with nothing written writes no values.
TEST(DaphneRowBands, AMatrixWithoutRowsNeedsNoBand) {
    Writer writer = daphne_writer();
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 0, 3);
    EXPECT_EQ(finished_bytes(writer), load(kCorpus + "dense_f64_empty_0x3.dbdf"));
}

// A file writer that does not get every row leaves nothing behind: no data file, no sidecar, and an existing file
// untouched.
TEST(DaphneRowBands, AnUnfinishedFileLeavesTheTargetAlone) {
    const fs::path directory = fs::temp_directory_path() / ("dbdf-daphne-partial-" + std::to_string(::getpid()));
    fs::create_directories(directory);
    const fs::path fresh = directory / "fresh.dbdf";
    const fs::path existing = directory / "existing.dbdf";
    {
        std::ofstream old(existing, std::ios::binary);
        old << "old contents";
    }
    const std::vector<double> values = corpus_3x4_values();
    for (const fs::path& path : {fresh, existing}) {
        SCOPED_TRACE(path.string());
        Writer writer(make_file_sink(path), WriterDialect{Dialect::Daphne, fs::path(path.string() + ".meta")});
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 3, 4);
        writer.add_dense(BlockPlacement{0, 0, 2, 4}, ValueType::F64, values.data(), 8, 0, {});
        EXPECT_THROW(writer.finish(), Error);
        EXPECT_FALSE(writer.failed());
    }
    EXPECT_FALSE(fs::exists(fresh));
    EXPECT_EQ(load_text(existing.string()), "old contents");
    std::vector<std::string> left;
    for (const auto& entry : fs::directory_iterator(directory)) left.push_back(entry.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{"existing.dbdf"});
    fs::remove_all(directory);
}

}  // namespace
}  // namespace dbdf
