// Writer: call order, placement rules, rule 8 on write, sinks, atomic file replacement and failure handling.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "file_sinks.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

namespace fs = std::filesystem;

void expect_code(const std::function<void()>& action, ErrorCode code) {
    try {
        action();
        FAIL() << "no error";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), code) << error.what();
    }
}

Writer memory_writer() { return Writer(std::make_unique<MemorySink>()); }

TEST(Writer, CallOrderIsEnforced) {
    Writer writer = memory_writer();
    const double value = 1.0;
    expect_code([&] { writer.add_dense({0, 0, 1, 1}, ValueType::F64, &value, 1, 0, {}); }, ErrorCode::CallOrder);
    expect_code([&] { writer.finish(); }, ErrorCode::CallOrder);
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 1, 1);
    expect_code([&] { writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 1, 1); }, ErrorCode::CallOrder);
    writer.add_dense({0, 0, 1, 1}, ValueType::F64, &value, 1, 0, {});
    writer.finish();
    expect_code([&] { writer.add_empty({0, 0, 1, 1}); }, ErrorCode::CallOrder);
    expect_code([&] { writer.finish(); }, ErrorCode::CallOrder);
}

TEST(Writer, PlacementRulesAreChecked) {
    Writer writer = memory_writer();
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 4, 4);
    expect_code([&] { writer.add_empty({3, 0, 2, 1}); }, ErrorCode::InvalidArgument);      // rule 2
    expect_code([&] { writer.add_empty({~0ull, 0, 2, 1}); }, ErrorCode::InvalidArgument);  // overflow
    expect_code([&] { writer.add_empty({0, 0, 0, 1}); }, ErrorCode::InvalidArgument);      // rule 4
    writer.add_empty({0, 0, 2, 2});
    expect_code([&] { writer.add_empty({1, 1, 2, 2}); }, ErrorCode::InvalidArgument);  // rule 1
    // Finishing with uncovered cells fails but leaves the writer usable.
    expect_code([&] { writer.finish(); }, ErrorCode::Format);
    writer.add_empty({0, 2, 2, 2});
    writer.add_empty({2, 0, 2, 4});
    writer.finish();
    const auto& bytes = static_cast<MemorySink&>(writer.sink()).bytes();
    EXPECT_EQ(bytes.size(), 19u + 3u * 25u);
}

TEST(Writer, ValuesMustBeRepresentableInTheDeclaredType) {
    Writer writer = memory_writer();
    writer.begin_matrix(DataType::DenseMatrix, ValueType::U8, 1, 2);
    const std::vector<double> too_big{1.0, 256.0};
    expect_code([&] { writer.add_dense({0, 0, 1, 2}, ValueType::F64, too_big.data(), 2, 0, {}); }, ErrorCode::Range);
    const std::vector<double> fine{1.0, 255.0};
    writer.add_dense({0, 0, 1, 2}, ValueType::F64, fine.data(), 2, 0, WriteOptions{Encoding::AsGiven});
    writer.finish();
    Reader reader = Reader::open_memory(static_cast<MemorySink&>(writer.sink()).bytes());
    ASSERT_TRUE(reader.next_block());
    EXPECT_EQ(reader.block().value_type, ValueType::F64);  // as given: stored as f64, values fit u8 (rule 8)
    std::uint8_t out[2];
    reader.decode_dense(ValueType::U8, out, 2, 0);
    EXPECT_EQ(out[1], 255);
}

TEST(Writer, MalformedSparseInputsAreRejected) {
    Writer writer = memory_writer();
    writer.begin_matrix(DataType::CsrMatrix, ValueType::F64, 2, 3);
    const std::vector<std::uint64_t> offsets{0, 2, 3};
    const std::vector<std::uint32_t> unsorted{2, 1, 0};
    const std::vector<double> values{1, 2, 3};
    expect_code(
        [&] {
            writer.add_csr({0, 0, 2, 3}, ValueType::F64, offsets.data(), unsorted.data(), values.data(), 3, {});
        },
        ErrorCode::InvalidArgument);
    const std::vector<std::uint32_t> rows{1, 0, 1};
    const std::vector<std::uint32_t> cols{0, 0, 1};
    expect_code(
        [&] {
            writer.add_coo({0, 0, 2, 3}, ValueType::F64, rows.data(), cols.data(), values.data(), 3, {});
        },
        ErrorCode::InvalidArgument);
}

// Row offsets {0, 5, 3} for 3 entries: row 0 claims entries 0..4. They are refused before any column index is
// read; the arrays are heap-allocated, so AddressSanitizer would see a read past their end.
TEST(Writer, RowOffsetsBeyondTheEntriesAreRefusedBeforeReadingColumns) {
    const std::vector<std::uint64_t> offsets{0, 5, 3};
    const std::vector<std::uint32_t> block_cols{0, 1, 2};
    const std::vector<std::uint64_t> object_cols{0, 1, 2};
    const std::vector<double> values{1, 2, 3};
    auto expect_refused = [](const std::function<void()>& action) {
        try {
            action();
            FAIL() << "no error";
        } catch (const Error& error) {
            EXPECT_EQ(error.code(), ErrorCode::InvalidArgument) << error.what();
            EXPECT_NE(std::string(error.what()).find("row_offsets[1] is 5"), std::string::npos) << error.what();
        }
    };
    Writer block_writer = memory_writer();
    block_writer.begin_matrix(DataType::CsrMatrix, ValueType::F64, 2, 4);
    expect_refused([&] {
        block_writer.add_csr({0, 0, 2, 4}, ValueType::F64, offsets.data(), block_cols.data(), values.data(), 3, {});
    });
    Writer matrix_writer = memory_writer();
    matrix_writer.begin_matrix(DataType::CsrMatrix, ValueType::F64, 2, 4);
    expect_refused(
        [&] { matrix_writer.write_csr(ValueType::F64, offsets.data(), object_cols.data(), values.data(), 3, {}); });
    EXPECT_EQ(matrix_writer.bytes_written(), 19u);  // nothing but the header
}

std::vector<char> file_bytes(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::vector<std::byte> file_contents(const fs::path& path) {
    const std::vector<char> bytes = file_bytes(path);
    std::vector<std::byte> out(bytes.size());
    if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

std::size_t entries_in(const fs::path& directory) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(directory), fs::directory_iterator()));
}

class FileWriter : public ::testing::Test {
protected:
    void SetUp() override {
        directory_ = fs::temp_directory_path() / ("dbdf_writer_test_" + std::to_string(::getpid()));
        fs::remove_all(directory_);
        fs::create_directories(directory_);
        target_ = directory_ / "matrix.dbdf";
        std::ofstream(target_, std::ios::binary) << "previous contents";
    }
    void TearDown() override { fs::remove_all(directory_); }

    fs::path directory_;
    fs::path target_;
};

TEST_F(FileWriter, AbandonedWriteLeavesTheExistingFileUntouched) {
    const auto before = file_bytes(target_);
    {
        Writer writer(make_file_sink(target_));
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 2, 2);
        writer.add_empty({0, 0, 1, 2});
        // The target, and the temporary file unless it is unnamed (O_TMPFILE), as the file system allows.
        EXPECT_LE(entries_in(directory_), 2u);
    }
    EXPECT_EQ(file_bytes(target_), before);
    EXPECT_EQ(entries_in(directory_), 1u);
}

TEST_F(FileWriter, FinishReplacesTheFileAtomically) {
    {
        Writer writer(make_file_sink(target_));
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 1, 1);
        const double value = 2.5;
        writer.add_dense({0, 0, 1, 1}, ValueType::F64, &value, 1, 0, {});
        EXPECT_EQ(file_bytes(target_),
                  std::vector<char>(std::begin("previous contents"), std::end("previous contents") - 1));
        writer.finish();
    }
    EXPECT_EQ(entries_in(directory_), 1u);
    Reader reader = Reader::open_file(target_);
    double value = 0;
    reader.read_dense_window(ValueType::F64, Window{0, 0, 1, 1}, &value, 1, 0);
    EXPECT_EQ(value, 2.5);
}

// write_dense has the file system preallocate the plain dense size, which bounds what automatic encoding writes;
// what it wrote less (here: 64 MiB of small integers stored as u8, 8 MiB) must not stay allocated past the file's
// end. Where the file system cannot preallocate (tmpfs of old kernels, some network file systems) nothing was.
TEST_F(FileWriter, SpaceReservedForTheDenseSizeIsGivenBackWhenLessIsWritten) {
    std::vector<double> values(std::size_t{4096} * 2048);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 200);
    for (const FileCommit commit : {FileCommit::Atomic, FileCommit::Durable}) {
        {
            Writer writer(make_file_sink(target_, commit));
            writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 4096, 2048);
            writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{});
            writer.finish();
        }
        struct stat info {};
        ASSERT_EQ(::stat(target_.c_str(), &info), 0);
        EXPECT_LT(info.st_size, 9 << 20);
        // Allocated space: the data's blocks, plus at most the file system's rounding and metadata blocks.
        EXPECT_LE(static_cast<std::uint64_t>(info.st_blocks) * 512,
                  static_cast<std::uint64_t>(info.st_size) + (1 << 20))
            << "allocated " << info.st_blocks * 512 << " bytes for a file of " << info.st_size;
        EXPECT_EQ(testing::read_dense<double>(file_contents(target_)), values);
        EXPECT_EQ(entries_in(directory_), 1u);
    }
}

// Dense blocks added one by one get the output's space reserved ahead of them in steps, as write_dense reserves a
// whole matrix's: what automatic encoding wrote less is given back at finish (64 MiB of small integers in blocks of
// 256 rows, stored as 8 MiB of u8). An object whose header declares 2^40 rows and whose caller stops after 16 MiB
// never has more than the first step (64 MiB, and what was buffered) reserved past what was written, and the
// abandoned temporary file (named here, so that it can be looked at) goes with its reservation.
TEST_F(FileWriter, SpaceReservedAheadOfAddedDenseBlocksIsBoundedAndGivenBack) {
    constexpr std::uint64_t kCols = 2048, kBlockRows = 256;
    std::vector<double> values(std::size_t{4096} * kCols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 200);
    {
        Writer writer(make_file_sink(target_));
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 4096, kCols);
        for (std::uint64_t row = 0; row < 4096; row += kBlockRows) {
            writer.add_dense({row, 0, kBlockRows, kCols}, ValueType::F64, values.data() + row * kCols,
                             kBlockRows * kCols, 0, {});
        }
        writer.finish();
    }
    struct stat info {};
    ASSERT_EQ(::stat(target_.c_str(), &info), 0);
    EXPECT_LT(info.st_size, 9 << 20);
    EXPECT_LE(static_cast<std::uint64_t>(info.st_blocks) * 512, static_cast<std::uint64_t>(info.st_size) + (1 << 20))
        << "allocated " << info.st_blocks * 512 << " bytes for a file of " << info.st_size;
    EXPECT_EQ(testing::read_dense<double>(file_contents(target_)), values);

    std::ofstream(target_, std::ios::binary | std::ios::trunc) << "previous contents";
    std::vector<double> fractions(kBlockRows * kCols);  // nothing narrower holds them: 4 MiB of f64 per block
    for (std::size_t i = 0; i < fractions.size(); ++i) fractions[i] = 0.1 * static_cast<double>(i);
    constexpr std::uint64_t kFirstStep = std::uint64_t{64} << 20;
    {
        Writer writer(detail::make_file_sink(target_, FileCommit::Atomic, detail::TemporaryKind::Named));
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, std::uint64_t{1} << 40, kCols);
        for (std::uint64_t row = 0; row < 4 * kBlockRows; row += kBlockRows) {
            writer.add_dense({row, 0, kBlockRows, kCols}, ValueType::F64, fractions.data(), fractions.size(), 0, {});
        }
        ASSERT_EQ(entries_in(directory_), 2u) << "the target and the named temporary file";
        for (const fs::directory_entry& entry : fs::directory_iterator(directory_)) {
            if (entry.path() == target_) continue;
            ASSERT_EQ(::stat(entry.path().c_str(), &info), 0);
            EXPECT_GE(static_cast<std::uint64_t>(info.st_size), 4 * fractions.size() * sizeof(double));
            EXPECT_LE(static_cast<std::uint64_t>(info.st_blocks) * 512,
                      static_cast<std::uint64_t>(info.st_size) + kFirstStep + (2 << 20))
                << "allocated " << info.st_blocks * 512 << " bytes for a file of " << info.st_size;
        }
    }
    EXPECT_EQ(entries_in(directory_), 1u);
    EXPECT_EQ(file_bytes(target_),
              std::vector<char>(std::begin("previous contents"), std::end("previous contents") - 1));
}

// A sink that keeps its bytes and notes where each reservation would end: the bytes it had when asked, plus those
// asked for.
class ReservationSink final : public ByteSink {
public:
    void write(std::span<const std::byte> bytes) override { size_ += bytes.size(); }
    void reserve(std::uint64_t bytes) override { reservation_ends.push_back(size_ + bytes); }
    std::uint64_t size() const { return size_; }

    std::vector<std::uint64_t> reservation_ends;

private:
    std::uint64_t size_ = 0;
};

// A matrix written as dense blocks gets exactly its size reserved, never more: the file would have to give the rest
// back at finish, and freeing blocks it never filled makes a file system mounted with `discard` wait for the device.
TEST(Reservation, AMatrixWrittenDenseHasExactlyItsSizeReserved) {
    std::vector<double> fractions(std::size_t{100} * 16384);
    for (std::size_t i = 0; i < fractions.size(); ++i) fractions[i] = 0.1 * static_cast<double>(i + 1);
    for (const Encoding encoding : {Encoding::Dense, Encoding::Auto}) {
        Writer writer(std::make_unique<ReservationSink>());
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 100, 16384);
        writer.write_dense(ValueType::F64, fractions.data(), fractions.size(), 0, WriteOptions{encoding, 0, 0});
        writer.finish();
        const auto& sink = static_cast<const ReservationSink&>(writer.sink());
        ASSERT_FALSE(sink.reservation_ends.empty());
        // 19 bytes of header, then four dense blocks (three of 32 rows, one of 4): 26 bytes of record header each.
        EXPECT_EQ(sink.size(), 19u + 4 * 26 + fractions.size() * sizeof(double));
        for (const std::uint64_t end : sink.reservation_ends) EXPECT_LE(end, sink.size());
        EXPECT_EQ(sink.reservation_ends.back(), sink.size());
    }
}

// The file is created with mode 0666 and the process umask applied, as for any new file.
TEST_F(FileWriter, TheResultHasTheModeTheUmaskAllows) {
    for (const mode_t mask : {mode_t{022}, mode_t{077}, mode_t{0}}) {
        const fs::path target = directory_ / ("mode_" + std::to_string(mask) + ".dbdf");
        const mode_t previous = ::umask(mask);
        {
            Writer writer(make_file_sink(target));
            writer.begin_matrix(DataType::DenseMatrix, ValueType::U8, 0, 0);
            writer.finish();
        }
        ::umask(previous);
        struct stat info {};
        ASSERT_EQ(::stat(target.c_str(), &info), 0);
        EXPECT_EQ(info.st_mode & 07777, 0666u & ~mask) << "umask " << std::oct << mask;
    }
}

// Writes a 1 x 1 F64 matrix holding `value` to `target`.
void write_one_value(const fs::path& target, double value, FileCommit commit_mode) {
    Writer writer(make_file_sink(target, commit_mode));
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 1, 1);
    writer.add_dense({0, 0, 1, 1}, ValueType::F64, &value, 1, 0, {});
    writer.finish();
}

double read_one_value(Reader& reader) {
    double value = 0;
    reader.read_dense_window(ValueType::F64, Window{0, 0, 1, 1}, &value, 1, 0);
    return value;
}

// Both commit modes replace an existing file and a missing one and leave no temporary file behind; the replaced
// file keeps its mode, the new one gets the mode the umask allows.
TEST_F(FileWriter, BothCommitModesReplaceTheTarget) {
    ::chmod(target_.c_str(), 0600);
    const mode_t previous = ::umask(022);
    for (const FileCommit commit_mode : {FileCommit::Atomic, FileCommit::Durable}) {
        const double value = commit_mode == FileCommit::Atomic ? 1.25 : -8.5;
        write_one_value(target_, value, commit_mode);
        write_one_value(directory_ / "new.dbdf", value, commit_mode);
        for (const fs::path& path : {target_, directory_ / "new.dbdf"}) {
            Reader reader = Reader::open_file(path);
            EXPECT_EQ(read_one_value(reader), value) << path;
            struct stat info {};
            ASSERT_EQ(::stat(path.c_str(), &info), 0);
            EXPECT_EQ(info.st_mode & 07777, path == target_ ? 0600u : 0644u) << path;
        }
        fs::remove(directory_ / "new.dbdf");
        EXPECT_EQ(entries_in(directory_), 1u);
    }
    ::umask(previous);
}

// A reader that opened the old file keeps reading the old contents after the target has been replaced; a reader
// opened afterwards reads the new ones.
TEST_F(FileWriter, ReadersOfTheOldFileKeepItsContents) {
    write_one_value(target_, 3.0, FileCommit::Atomic);
    Reader old_reader = Reader::open_file(target_);
    write_one_value(target_, 4.0, FileCommit::Atomic);
    Reader new_reader = Reader::open_file(target_);
    EXPECT_EQ(read_one_value(old_reader), 3.0);
    EXPECT_EQ(read_one_value(new_reader), 4.0);
    EXPECT_EQ(entries_in(directory_), 1u);
}

TEST_F(FileWriter, WritersToOneTargetUseTheirOwnTemporaryFiles) {
    Writer first(make_file_sink(target_));
    Writer second(make_file_sink(target_));
    EXPECT_LE(entries_in(directory_), 3u);  // the target and two temporary files, where they have names
    for (Writer* writer : {&first, &second}) {
        writer->begin_matrix(DataType::DenseMatrix, ValueType::U8, 0, 0);
        writer->finish();
    }
    EXPECT_EQ(entries_in(directory_), 1u);
}

// A file system that refuses bytes (here: a file size limit, as on a full disk) fails the write with an I/O error;
// the previous file stays as it was and the temporary file is removed. Runs in a child process so the limit does
// not touch the test runner.
TEST_F(FileWriter, FailingDiskLeavesThePreviousFileIntact) {
    const auto before = file_bytes(target_);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::signal(SIGXFSZ, SIG_IGN);  // report EFBIG instead of killing the process
        const rlimit limit{64 * 1024, 64 * 1024};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        int status = 3;
        try {
            Writer writer(make_file_sink(target_));
            writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 512, 512);
            std::vector<double> values(512 * 512, 0.5);
            writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{Encoding::Dense});
            writer.finish();
            status = 1;  // the limit did not bite
        } catch (const Error& error) {
            status = error.code() == ErrorCode::Io ? 0 : 2;
        }
        ::_exit(status);
    }
    int status = -1;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "expected an I/O error from the writer";
    EXPECT_EQ(file_bytes(target_), before);
    EXPECT_EQ(entries_in(directory_), 1u);
}

TEST_F(FileWriter, UnwritableDirectoryIsAnIoError) {
    expect_code([&] { Writer writer(make_file_sink(directory_ / "missing" / "x.dbdf")); }, ErrorCode::Io);
}

TEST(Writer, SinkFailureFailsTheWriter) {
    int calls = 0;
    Writer writer(std::make_unique<CallbackSink>([&](std::span<const std::byte>) { return ++calls < 2; }));
    writer.begin_matrix(DataType::DenseMatrix, ValueType::U8, 1, 1);
    const std::vector<std::uint8_t> big(3 << 20, 1);
    Writer big_writer(std::make_unique<CallbackSink>([&](std::span<const std::byte>) { return false; }));
    big_writer.begin_matrix(DataType::DenseMatrix, ValueType::U8, 3, 1 << 20);
    expect_code(
        [&] { big_writer.write_dense(ValueType::U8, big.data(), big.size(), 0, WriteOptions{Encoding::Dense}); },
        ErrorCode::Sink);
    EXPECT_TRUE(big_writer.failed());
    expect_code([&] { big_writer.finish(); }, ErrorCode::CallOrder);
    // The small writer's header and block stay buffered until finish(), which hands them to the callback in a
    // single call: that first call succeeds, so the callback's refusal of a second call never comes into play.
    const std::uint8_t one = 1;
    writer.add_dense({0, 0, 1, 1}, ValueType::U8, &one, 1, 0, {});
    EXPECT_NO_THROW(writer.finish());
    EXPECT_EQ(calls, 1);
}

TEST(Writer, CallbackSinkReceivesTheSameBytesAsMemory) {
    std::vector<std::byte> received;
    const std::vector<float> values{1.5f, 0.0f, -2.0f, 8.0f};
    auto build = [&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F32, 2, 2);
        writer.write_dense(ValueType::F32, values.data(), 4, 0, {});
    };
    Writer callback_writer(std::make_unique<CallbackSink>([&](std::span<const std::byte> bytes) {
        received.insert(received.end(), bytes.begin(), bytes.end());
        return true;
    }));
    build(callback_writer);
    callback_writer.finish();
    EXPECT_EQ(received, testing::write_to_memory(build));
    EXPECT_EQ(callback_writer.bytes_written(), received.size());
}

TEST(Writer, DefaultTilesAreAFewMebibytes) {
    const BlockPlacement square = default_tile(100000, 100000, ValueType::F64);
    EXPECT_EQ(square.cols, 100000u);
    EXPECT_EQ(square.rows, 5u);
    const BlockPlacement wide = default_tile(3, std::uint64_t{1} << 40, ValueType::F64);
    EXPECT_EQ(wide.cols, (4u << 20) / 8u);
    EXPECT_EQ(wide.rows, 1u);
    const BlockPlacement tall = default_tile(std::uint64_t{1} << 40, 1, ValueType::U8);
    EXPECT_EQ(tall.rows, 4u << 20);
}

// A 2 x (2^33 + 1) CSRMatrix cut by write_csr's own tiling: block positions beyond 2^32 and block widths at the
// uint32 limit. Nothing object-sized is allocated: CSR input needs only rows + 1 offsets, and blocks without
// entries are stored empty.
constexpr std::uint64_t kWideCols = (std::uint64_t{1} << 33) + 1;

TEST(Writer, WriteCsrTilesObjectsWiderThanTwoToThe32WithDefaultTiles) {
    const std::uint64_t row_offsets[] = {0, 0, 0};
    const auto bytes = testing::write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, ValueType::U8, 2, kWideCols);
        writer.write_csr(ValueType::U8, row_offsets, nullptr, nullptr, 0, {});
    });
    // The automatic u8 tile is 1 x 4 MiB: 2049 tiles per row, the last one the single column 2^33.
    const BlockPlacement tile = default_tile(2, kWideCols, ValueType::U8);
    ASSERT_EQ(tile.rows, 1u);
    ASSERT_EQ(tile.cols, 4u << 20);
    Reader reader = Reader::open_memory(bytes);
    const auto& index = reader.build_index();
    ASSERT_EQ(index.size(), 2u * 2049u);
    for (std::size_t i = 0; i < index.size(); ++i) {
        const BlockView& block = index[i];
        const std::uint64_t tile_in_row = i % 2049;
        ASSERT_EQ(block.row, i / 2049) << i;
        ASSERT_EQ(block.col, tile_in_row * (4u << 20)) << i;
        ASSERT_EQ(block.rows, 1u) << i;
        ASSERT_EQ(block.cols, tile_in_row == 2048 ? 1u : 4u << 20) << i;
        ASSERT_EQ(block.block_type, BlockType::Empty) << i;
    }
    EXPECT_EQ(index.back().col, std::uint64_t{1} << 33);
    EXPECT_EQ(bytes.size(), 19u + index.size() * 25u);  // header, then bare empty block records
    EXPECT_EQ(reader.count_entries_total(), 0u);
    std::uint8_t window[2 * 3];
    std::fill(std::begin(window), std::end(window), std::uint8_t{0xAA});
    reader.read_dense_window(ValueType::U8, Window{0, kWideCols - 3, 2, 3}, window, 6, 0);  // across the last tiles
    EXPECT_EQ(std::vector<std::uint8_t>(std::begin(window), std::end(window)), std::vector<std::uint8_t>(6, 0));
}

TEST(Writer, WriteCsrTilesObjectsWiderThanTwoToThe32AtTheLargestBlockWidth) {
    // Entries at (1, 2^32 - 1), the first column of the second tile, and (0, 2^33), inside the third.
    const std::uint64_t row_offsets[] = {0, 1, 2};
    const std::uint64_t col_indices[] = {std::uint64_t{1} << 33, 0xFFFFFFFFull};
    const double values[] = {5.0, 7.0};
    WriteOptions options;
    options.block_rows = 2;
    options.block_cols = 0xFFFFFFFFu;
    const auto bytes = testing::write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, ValueType::F64, 2, kWideCols);
        writer.write_csr(ValueType::F64, row_offsets, col_indices, values, 2, options);
    });
    Reader reader = Reader::open_memory(bytes);
    const auto& index = reader.build_index();
    ASSERT_EQ(index.size(), 3u);
    const std::uint64_t starts[] = {0, 0xFFFFFFFFull, 2 * 0xFFFFFFFFull};
    const std::uint32_t widths[] = {0xFFFFFFFFu, 0xFFFFFFFFu, 3};
    // Automatic encoding: nothing to store, one entry (COO: 13 bytes against CSR's 21), and a 2 x 3 tile whose
    // 6 dense u8 values take less room than a COO entry.
    const BlockType types[] = {BlockType::Empty, BlockType::Coo, BlockType::Dense};
    const std::uint64_t stored[] = {0, 1, 6};
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(index[i].row, 0u) << i;
        EXPECT_EQ(index[i].col, starts[i]) << i;
        EXPECT_EQ(index[i].rows, 2u) << i;
        EXPECT_EQ(index[i].cols, widths[i]) << i;
        EXPECT_EQ(index[i].block_type, types[i]) << i;
        EXPECT_EQ(index[i].stored_values, stored[i]) << i;
    }
    EXPECT_EQ(reader.count_entries_total(), 2u);
    std::uint64_t read_offsets[3];
    std::uint64_t read_cols[2];
    double read_values[2];
    ASSERT_EQ(reader.read_csr(ValueType::F64, read_offsets, 3, read_cols, read_values, 2), 2u);
    EXPECT_EQ(std::vector<std::uint64_t>(read_offsets, read_offsets + 3), (std::vector<std::uint64_t>{0, 1, 2}));
    EXPECT_EQ(std::vector<std::uint64_t>(read_cols, read_cols + 2),
              (std::vector<std::uint64_t>{std::uint64_t{1} << 33, 0xFFFFFFFFull}));
    EXPECT_EQ(std::vector<double>(read_values, read_values + 2), (std::vector<double>{5.0, 7.0}));
    // Small windows around each entry, across tile borders.
    double around_first[2 * 4];
    reader.read_dense_window(ValueType::F64, Window{0, 2 * 0xFFFFFFFFull - 1, 2, 4}, around_first, 8, 0);
    EXPECT_EQ(std::vector<double>(std::begin(around_first), std::end(around_first)),
              (std::vector<double>{0.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0, 0.0}));
    double around_second[2];
    reader.read_dense_window(ValueType::F64, Window{1, 0xFFFFFFFEull, 1, 2}, around_second, 2, 0);
    EXPECT_EQ(std::vector<double>(std::begin(around_second), std::end(around_second)), (std::vector<double>{0.0, 7.0}));
}

}  // namespace
}  // namespace dbdf
