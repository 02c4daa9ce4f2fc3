// Outputs through dbdf.h: dbdf_file_output_* (bytes of any format) and file writers replace their targets by the
// same rules: regular files and new paths atomically, symbolic links followed, FIFOs and /dev/null written through,
// permissions kept, long names, and the daphne dialect's .dbdf and .meta committed together.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void put(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// Reads the FIFO on a thread while `write` runs, and returns what it read. A writing end held here until `write`
// returns lets the reader see the end whatever `write` did with the FIFO, so a regression cannot hang the test.
template <class Write>
std::string read_fifo_while(const fs::path& fifo, Write&& write) {
    const int keeper = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);
    const int reading = ::open(fifo.c_str(), O_RDONLY | O_CLOEXEC);
    std::string received;
    std::thread reader([&] {
        char buffer[65536];
        ssize_t n = 0;
        while ((n = ::read(reading, buffer, sizeof buffer)) > 0) received.append(buffer, static_cast<std::size_t>(n));
    });
    write();
    ::close(keeper);
    reader.join();
    ::close(reading);
    return received;
}

std::vector<std::string> names_in(const fs::path& directory) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(directory)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

dbdf_status_t write_output(const fs::path& path, const std::string& text) {
    dbdf_file_output_t* output = nullptr;
    dbdf_status_t status = dbdf_file_output_open(path.c_str(), 0, &output);
    if (status != DBDF_OK) return status;
    status = dbdf_file_output_write(output, text.data(), text.size());
    if (status == DBDF_OK) status = dbdf_file_output_commit(output);
    dbdf_file_output_free(output);
    return status;
}

// Writes a 2 x 2 f64 dense matrix holding `first` then 1, 2, 3 with a file writer.
dbdf_status_t write_matrix(const fs::path& path, double first, dbdf_dialect_t dialect = DBDF_DIALECT_SPEC) {
    dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
    options.dialect = dialect;
    dbdf_writer_t* writer = nullptr;
    dbdf_status_t status = dbdf_writer_open_file_with_options(path.c_str(), &options, &writer);
    if (status != DBDF_OK) return status;
    const double values[] = {first, 1, 2, 3};
    status = dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 2);
    if (status == DBDF_OK) status = dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values, 4, 0, nullptr);
    if (status == DBDF_OK) status = dbdf_writer_finish(writer);
    dbdf_writer_free(writer);
    return status;
}

class CapiOutputs : public ::testing::Test {
protected:
    void SetUp() override {
        directory_ = fs::temp_directory_path() / ("dbdf_capi_outputs_" + std::to_string(::getpid()));
        fs::remove_all(directory_);
        fs::create_directories(directory_);
    }
    void TearDown() override { fs::remove_all(directory_); }
    fs::path path(const std::string& name) const { return directory_ / name; }

    fs::path directory_;
};

TEST_F(CapiOutputs, AFileOutputReplacesItsTargetOnCommitOnly) {
    put(path("out.npy"), "old");
    dbdf_file_output_t* output = nullptr;
    ASSERT_OK(dbdf_file_output_open(path("out.npy").c_str(), 1, &output));
    ASSERT_OK(dbdf_file_output_write(output, "new", 3));
    ASSERT_OK(dbdf_file_output_write(output, nullptr, 0));
    EXPECT_EQ(contents(path("out.npy")), "old");
    ASSERT_OK(dbdf_file_output_commit(output));
    EXPECT_EQ(contents(path("out.npy")), "new");
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_file_output_write(output, "x", 1));
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_file_output_commit(output));
    dbdf_file_output_free(output);
    dbdf_file_output_free(nullptr);

    ASSERT_OK(dbdf_file_output_open(path("out.npy").c_str(), 0, &output));
    ASSERT_OK(dbdf_file_output_write(output, "abandoned", 9));
    dbdf_file_output_free(output);
    EXPECT_EQ(contents(path("out.npy")), "new");
    EXPECT_EQ(names_in(directory_), std::vector<std::string>{"out.npy"});
}

TEST_F(CapiOutputs, NullArgumentsAndADirectoryAreRefused) {
    dbdf_file_output_t* output = nullptr;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_file_output_open(nullptr, 0, &output));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_file_output_open(path("x").c_str(), 0, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_file_output_write(nullptr, "x", 1));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_file_output_commit(nullptr));
    ASSERT_OK(dbdf_file_output_open(path("x").c_str(), 0, &output));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_file_output_write(output, nullptr, 1));
    dbdf_file_output_free(output);
    fs::create_directories(path("dir"));
    EXPECT_STATUS(DBDF_ERR_IO, dbdf_file_output_open(path("dir").c_str(), 0, &output));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("Is a directory"), std::string::npos);
    dbdf_writer_t* writer = nullptr;
    EXPECT_STATUS(DBDF_ERR_IO, dbdf_writer_open_file(path("dir").c_str(), &writer));
    EXPECT_TRUE(fs::is_directory(path("dir")));
}

// Both kinds of output follow a chain of links to the file they replace, and keep its mode.
TEST_F(CapiOutputs, LinksAreFollowedAndModesKept) {
    put(path("real.dbdf"), "old");
    put(path("real.npy"), "old");
    for (const char* name : {"real.dbdf", "real.npy"}) ASSERT_EQ(::chmod(path(name).c_str(), 0600), 0);
    fs::create_symlink("real.dbdf", path("middle.dbdf"));
    fs::create_symlink("middle.dbdf", path("link.dbdf"));
    fs::create_symlink("real.npy", path("middle.npy"));
    fs::create_symlink("middle.npy", path("link.npy"));
    ASSERT_OK(write_matrix(path("link.dbdf"), 7));
    ASSERT_OK(write_output(path("link.npy"), "npy bytes"));
    for (const char* name : {"link.dbdf", "middle.dbdf", "link.npy", "middle.npy"}) {
        EXPECT_TRUE(fs::is_symlink(path(name))) << name;
    }
    EXPECT_EQ(contents(path("real.npy")), "npy bytes");
    ReaderHandle reader = [&] {
        dbdf_reader_t* opened = nullptr;
        EXPECT_EQ(dbdf_reader_open_file(path("real.dbdf").c_str(), &opened), DBDF_OK);
        return ReaderHandle(opened);
    }();
    double values[4] = {};
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, values, 4, 0));
    EXPECT_EQ(values[0], 7);
    for (const char* name : {"real.dbdf", "real.npy"}) {
        struct stat status {};
        ASSERT_EQ(::stat(path(name).c_str(), &status), 0);
        EXPECT_EQ(status.st_mode & 07777, 0600u) << name;
    }
    EXPECT_EQ(names_in(directory_).size(), 6u) << "no temporary file is left";
}

TEST_F(CapiOutputs, AFifoIsWrittenThroughByBothKindsOfOutput) {
    const fs::path fifo = path("fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const bool writer : {false, true}) {
        // In the daphne dialect: a FIFO gets no sidecar, so no fifo.meta appears.
        const std::string received = read_fifo_while(fifo, [&] {
            EXPECT_EQ(writer ? write_matrix(fifo, 5, DBDF_DIALECT_DAPHNE) : write_output(fifo, "through"), DBDF_OK);
        });
        if (writer) {
            EXPECT_GT(received.size(), 32u);
        } else {
            EXPECT_EQ(received, "through");
        }
        struct stat status {};
        ASSERT_EQ(::lstat(fifo.c_str(), &status), 0);
        EXPECT_TRUE(S_ISFIFO(status.st_mode));
        EXPECT_EQ(names_in(directory_), std::vector<std::string>{"fifo"});
    }
}

// Only run after the FIFO case above shows that devices are written through: writing /dev/null must leave it the
// null device.
TEST_F(CapiOutputs, DevNullStaysTheNullDevice) {
    struct stat before {};
    ASSERT_EQ(::lstat("/dev/null", &before), 0);
    ASSERT_TRUE(S_ISCHR(before.st_mode));
    const fs::path fifo = path("probe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(read_fifo_while(fifo, [&] { EXPECT_EQ(write_output(fifo, "probe"), DBDF_OK); }), "probe");
    struct stat probe {};
    ASSERT_EQ(::lstat(fifo.c_str(), &probe), 0);
    ASSERT_TRUE(S_ISFIFO(probe.st_mode)) << "devices are replaced: /dev/null is not tried";
    EXPECT_STATUS(DBDF_OK, write_output("/dev/null", "discarded"));
    EXPECT_STATUS(DBDF_OK, write_matrix("/dev/null", 1, DBDF_DIALECT_DAPHNE));
    struct stat after {};
    ASSERT_EQ(::lstat("/dev/null", &after), 0);
    EXPECT_TRUE(S_ISCHR(after.st_mode));
    EXPECT_EQ(after.st_rdev, before.st_rdev);
    EXPECT_EQ(after.st_ino, before.st_ino);
    EXPECT_FALSE(fs::exists("/dev/null.meta"));
}

TEST_F(CapiOutputs, A245CharacterTargetNameCanBeWritten) {
    const fs::path target = path(std::string(241, 'm') + ".npy");
    ASSERT_EQ(target.filename().string().size(), 245u);
    EXPECT_STATUS(DBDF_OK, write_output(target, "long"));
    EXPECT_EQ(contents(target), "long");
    const fs::path matrix = path(std::string(240, 'm') + ".dbdf");
    EXPECT_STATUS(DBDF_OK, write_matrix(matrix, 1));
    EXPECT_EQ(names_in(directory_).size(), 2u);
}

// The daphne dialect's .dbdf and .meta appear together or not at all: a sidecar that cannot be written (a
// directory of its name, or a link into a directory that is gone by the time the writer finishes) leaves no new
// .dbdf, and an existing pair as it was.
TEST_F(CapiOutputs, TheDaphneDataAndSidecarAreCommittedTogether) {
    const fs::path data = path("pair.dbdf");
    const fs::path meta = path("pair.dbdf.meta");
    fs::create_directories(meta);
    EXPECT_STATUS(DBDF_ERR_IO, write_matrix(data, 1, DBDF_DIALECT_DAPHNE));
    EXPECT_FALSE(fs::exists(data)) << "no data file without its sidecar";
    EXPECT_EQ(names_in(directory_), std::vector<std::string>{"pair.dbdf.meta"});
    fs::remove(meta);

    ASSERT_OK(write_matrix(data, 1, DBDF_DIALECT_DAPHNE));
    const std::string old_data = contents(data);
    const std::string old_meta = contents(meta);
    ASSERT_FALSE(old_meta.empty());
    // The sidecar becomes a link into a directory that disappears while the writer is open: its file can then not
    // be named at finish, after the data was completely written.
    fs::create_directories(path("sidecars"));
    fs::remove(meta);
    fs::create_symlink("sidecars/pair.meta", meta);
    dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    dbdf_writer_t* writer = nullptr;
    ASSERT_OK(dbdf_writer_open_file_with_options(data.c_str(), &options, &writer));
    const double values[] = {9, 9, 9, 9};
    ASSERT_OK(dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 2));
    ASSERT_OK(dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values, 4, 0, nullptr));
    if (::rmdir(path("sidecars").c_str()) != 0) {
        dbdf_writer_free(writer);
        GTEST_SKIP() << "the sidecar's temporary file has a name on this file system (no O_TMPFILE)";
    }
    EXPECT_STATUS(DBDF_ERR_IO, dbdf_writer_finish(writer));
    dbdf_writer_free(writer);
    EXPECT_EQ(contents(data), old_data);
    EXPECT_EQ(names_in(directory_), (std::vector<std::string>{"pair.dbdf", "pair.dbdf.meta"}));
}

// Callable at any time (a signal handler's call may come between any two others); what it removed fails the
// commit, and nothing else is touched.
TEST_F(CapiOutputs, RemovingTemporaryFilesTouchesNoTarget) {
    put(path("kept.npy"), "kept");
    dbdf_file_output_t* output = nullptr;
    ASSERT_OK(dbdf_file_output_open(path("kept.npy").c_str(), 0, &output));
    ASSERT_OK(dbdf_file_output_write(output, "new", 3));
    dbdf_remove_temporary_files();
    EXPECT_EQ(names_in(directory_), std::vector<std::string>{"kept.npy"});
    const dbdf_status_t status = dbdf_file_output_commit(output);
    dbdf_file_output_free(output);
    // An unnamed temporary file has nothing to remove and commits; a named one was removed and fails.
    EXPECT_TRUE(status == DBDF_OK || status == DBDF_ERR_IO) << status;
    EXPECT_EQ(contents(path("kept.npy")), status == DBDF_OK ? "new" : "kept");
    EXPECT_EQ(names_in(directory_), std::vector<std::string>{"kept.npy"});
}

}  // namespace
}  // namespace dbdf_test
