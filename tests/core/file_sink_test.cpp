// How a file sink replaces its target: regular files and new paths through a temporary file renamed on commit,
// symbolic links followed, devices, FIFOs and descriptors written through, permissions kept, temporary names
// within the file system's limit, temporary files removed on signals and, once their process is gone, by the
// next write to the same target.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "dbdf/error.hpp"
#include "dbdf/sink.hpp"
#include "dbdf/writer.hpp"
#include "file_sinks.hpp"
#include "output_target.hpp"
#include "temporary_names.hpp"

namespace dbdf {
namespace {

namespace fs = std::filesystem;
using detail::OutputTarget;
using detail::TemporaryKind;

std::string contents(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void put(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::vector<std::string> names_in(const fs::path& directory) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(directory)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

void write_text(FileSink& sink, const std::string& text) {
    sink.write(std::as_bytes(std::span<const char>(text.data(), text.size())));
}

void replace_with(const fs::path& target, const std::string& text, TemporaryKind kind = TemporaryKind::Unnamed) {
    auto sink = detail::make_file_sink(target, FileCommit::Atomic, kind);
    write_text(*sink, text);
    sink->commit();
}

// A pid that no process has: a child that has exited and been waited for (its pid is free until reused).
pid_t finished_pid() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

class FileSinkTest : public ::testing::TestWithParam<TemporaryKind> {
protected:
    void SetUp() override {
        directory_ = fs::temp_directory_path() / ("dbdf_file_sink_test_" + std::to_string(::getpid()));
        fs::remove_all(directory_);
        fs::create_directories(directory_);
    }
    void TearDown() override { fs::remove_all(directory_); }

    fs::path path(const std::string& name) const { return directory_ / name; }

    fs::path directory_;
};

INSTANTIATE_TEST_SUITE_P(Temporaries, FileSinkTest, ::testing::Values(TemporaryKind::Unnamed, TemporaryKind::Named),
                         [](const auto& info) { return info.param == TemporaryKind::Unnamed ? "Unnamed" : "Named"; });

TEST_P(FileSinkTest, ANewPathAndARegularFileAreReplacedOnCommitOnly) {
    const fs::path target = path("out.bin");
    replace_with(target, "first", GetParam());
    EXPECT_EQ(contents(target), "first");
    {
        auto sink = detail::make_file_sink(target, FileCommit::Atomic, GetParam());
        EXPECT_FALSE(sink->writes_through());
        write_text(*sink, "second");
        EXPECT_EQ(contents(target), "first");
    }
    EXPECT_EQ(contents(target), "first");
    EXPECT_EQ(names_in(directory_), std::vector<std::string>{"out.bin"});
}

// The link is kept and the file it leads to replaced, through relative and absolute links.
TEST_P(FileSinkTest, ASymbolicLinkChainIsFollowedToTheFileItReplaces) {
    fs::create_directories(path("data"));
    put(path("data/real.bin"), "old");
    fs::create_symlink("data/real.bin", path("second"));  // relative to its own directory
    fs::create_symlink(path("second"), path("first"));    // absolute
    replace_with(path("first"), "new", GetParam());
    EXPECT_TRUE(fs::is_symlink(path("first")));
    EXPECT_TRUE(fs::is_symlink(path("second")));
    EXPECT_EQ(fs::read_symlink(path("second")), fs::path("data/real.bin"));
    EXPECT_EQ(contents(path("data/real.bin")), "new");
    EXPECT_EQ(names_in(path("data")), std::vector<std::string>{"real.bin"});
}

TEST_P(FileSinkTest, ADanglingLinkCreatesItsTarget) {
    fs::create_symlink("made.bin", path("link"));
    replace_with(path("link"), "made", GetParam());
    EXPECT_TRUE(fs::is_symlink(path("link")));
    EXPECT_EQ(contents(path("made.bin")), "made");
}

TEST_P(FileSinkTest, LoopingLinksAreAnIoError) {
    fs::create_symlink("b", path("a"));
    fs::create_symlink("a", path("b"));
    try {
        auto sink = detail::make_file_sink(path("a"), FileCommit::Atomic, GetParam());
        ADD_FAILURE() << "no error";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Io);
    }
}

TEST_P(FileSinkTest, ADirectoryIsAnIoError) {
    fs::create_directories(path("dir"));
    try {
        auto sink = detail::make_file_sink(path("dir"), FileCommit::Atomic, GetParam());
        ADD_FAILURE() << "no error";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Io);
        EXPECT_NE(std::string(error.what()).find("Is a directory"), std::string::npos) << error.what();
    }
    EXPECT_TRUE(fs::is_directory(path("dir")));
    EXPECT_EQ(names_in(directory_), std::vector<std::string>{"dir"});
}

TEST_P(FileSinkTest, AReplacedFileKeepsItsModeAndItsHardLinksKeepTheOldContents) {
    const fs::path target = path("secret.bin");
    put(target, "old");
    ASSERT_EQ(::chmod(target.c_str(), 0600), 0);
    ASSERT_EQ(::link(target.c_str(), path("hard-link").c_str()), 0);
    const mode_t previous = ::umask(022);
    replace_with(target, "new", GetParam());
    ::umask(previous);
    struct stat status {};
    ASSERT_EQ(::stat(target.c_str(), &status), 0);
    EXPECT_EQ(status.st_mode & 07777, 0600u);
    EXPECT_EQ(contents(target), "new");
    EXPECT_EQ(contents(path("hard-link")), "old") << "a replaced file's hard links are split off";
}

TEST_P(FileSinkTest, AReplacedFileKeepsItsOwnerWhereTheProcessMaySetIt) {
    if (::geteuid() != 0) GTEST_SKIP() << "only root may give a file to another user";
    const fs::path target = path("owned.bin");
    put(target, "old");
    ASSERT_EQ(::chown(target.c_str(), 12345, 23456), 0);
    ASSERT_EQ(::chmod(target.c_str(), 02640), 0);
    replace_with(target, "new", GetParam());
    struct stat status {};
    ASSERT_EQ(::stat(target.c_str(), &status), 0);
    EXPECT_EQ(status.st_uid, 12345u);
    EXPECT_EQ(status.st_gid, 23456u);
    EXPECT_EQ(status.st_mode & 07777, 02640u);
}

// NAME_MAX is 255: a 245-character name leaves no room for a suffix appended to it.
TEST_P(FileSinkTest, ATargetNameNearTheLimitGetsATemporaryNameWithinIt) {
    const std::string long_name(245, 'n');
    const fs::path target = path(long_name);
    auto sink = detail::make_file_sink(target, FileCommit::Atomic, GetParam());
    write_text(*sink, "long");
    sink->prepare_commit();  // the temporary file now has its name in both kinds
    const std::vector<std::string> names = names_in(directory_);
    ASSERT_EQ(names.size(), 1u);
    EXPECT_LE(names[0].size(), 255u);
    long pid = 0;
    EXPECT_TRUE(detail::parse_temporary_name(names[0], long_name, &pid)) << names[0];
    EXPECT_EQ(pid, ::getpid());
    sink->publish();
    EXPECT_EQ(names_in(directory_), std::vector<std::string>{long_name});
    EXPECT_EQ(contents(target), "long");
}

TEST(TemporaryNames, LongNamesSharingTheirStartGetDifferentTemporaryNames) {
    const std::string first = std::string(240, 'x') + "first";
    const std::string second = std::string(240, 'x') + "second";
    EXPECT_NE(detail::temporary_prefix_for(first), detail::temporary_prefix_for(second));
    long pid = 0;
    EXPECT_FALSE(detail::parse_temporary_name(detail::temporary_name_for(first), second, &pid));
    EXPECT_TRUE(detail::parse_temporary_name(detail::temporary_name_for(first), first, &pid));
    // A multi-byte character is never cut in half.
    std::string accented;
    for (int i = 0; i < 120; ++i) accented += "\xc3\xa9";  // é
    const std::string prefix = detail::temporary_prefix_for(accented);
    EXPECT_LE(prefix.size(), 255u);
    const std::size_t tilde = prefix.find('~');
    ASSERT_NE(tilde, std::string::npos);
    EXPECT_EQ(tilde % 2, 1u) << "'.' then whole two-byte characters";
}

TEST_P(FileSinkTest, StaleTemporariesOfADeadWriterAreRemovedByTheNextWrite) {
    const fs::path target = path("out.bin");
    const std::string prefix = detail::temporary_prefix_for("out.bin");
    const std::string dead = prefix + std::to_string(finished_pid()) + "-0123456789abcdef.tmp";
    const std::string alive = prefix + std::to_string(::getppid()) + "-0123456789abcdef.tmp";
    const std::string other_target =
        detail::temporary_prefix_for("other.bin") + std::to_string(finished_pid()) + "-0123456789abcdef.tmp";
    const std::string not_ours = prefix + "99999999-0123456789abcdef.tmp.keep";
    for (const std::string& name : {dead, alive, other_target, not_ours}) put(path(name), "leftover");
    replace_with(target, "new", GetParam());
    std::vector<std::string> expected{"out.bin", alive, other_target, not_ours};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(names_in(directory_), expected);
}

TEST_P(FileSinkTest, StaleTemporariesOfAnotherUserAreLeftAlone) {
    if (::geteuid() != 0) GTEST_SKIP() << "only root may give a file to another user";
    const std::string foreign =
        detail::temporary_prefix_for("out.bin") + std::to_string(finished_pid()) + "-0123456789abcdef.tmp";
    put(path(foreign), "leftover");
    ASSERT_EQ(::chown(path(foreign).c_str(), 12345, 12345), 0);
    replace_with(path("out.bin"), "new", GetParam());
    EXPECT_TRUE(fs::exists(path(foreign)));
}

// A named temporary file is removed by remove_temporary_files(), as a signal handler calls it; the sink then fails
// to commit and the target is as it was.
TEST(FileSinkSignals, RemovingTemporaryFilesLeavesTheTargetAsItWas) {
    const fs::path directory = fs::temp_directory_path() / ("dbdf_file_sink_signal_" + std::to_string(::getpid()));
    fs::remove_all(directory);
    fs::create_directories(directory);
    const fs::path target = directory / "out.bin";
    put(target, "old");
    {
        auto sink = detail::make_file_sink(target, FileCommit::Atomic, TemporaryKind::Named);
        write_text(*sink, "new");
        EXPECT_EQ(names_in(directory).size(), 2u);
        remove_temporary_files();
        EXPECT_EQ(names_in(directory), std::vector<std::string>{"out.bin"});
        try {
            sink->commit();
            ADD_FAILURE() << "the commit of a removed temporary file succeeded";
        } catch (const Error& error) {
            EXPECT_EQ(error.code(), ErrorCode::Io);
        }
    }
    EXPECT_EQ(contents(target), "old");
    EXPECT_EQ(names_in(directory), std::vector<std::string>{"out.bin"});
    fs::remove_all(directory);
}

void remove_and_die(int signal_number) {
    remove_temporary_files();
    ::signal(signal_number, SIG_DFL);
    ::raise(signal_number);
}

// A process killed by SIGINT or SIGTERM while writing, whose handler calls remove_temporary_files(), leaves no
// temporary file, of either kind.
TEST(FileSinkSignals, AHandlerRemovesTheTemporaryFilesOfAnInterruptedWrite) {
    for (const int signal_number : {SIGINT, SIGTERM}) {
        for (const TemporaryKind kind : {TemporaryKind::Unnamed, TemporaryKind::Named}) {
            SCOPED_TRACE(signal_number);
            const fs::path directory =
                fs::temp_directory_path() / ("dbdf_file_sink_kill_" + std::to_string(::getpid()));
            fs::remove_all(directory);
            fs::create_directories(directory);
            const fs::path target = directory / "out.bin";
            put(target, "old");
            int ready[2];
            ASSERT_EQ(::pipe(ready), 0);
            const pid_t child = ::fork();
            ASSERT_GE(child, 0);
            if (child == 0) {
                ::signal(signal_number, remove_and_die);
                auto sink = detail::make_file_sink(target, FileCommit::Atomic, kind);
                const std::string bytes(1 << 20, 'x');
                sink->write(std::as_bytes(std::span<const char>(bytes.data(), bytes.size())));
                if (::write(ready[1], "r", 1) != 1) ::_exit(3);
                for (;;) ::pause();  // mid-write until the signal comes
            }
            ::close(ready[1]);
            char signal_byte = 0;
            ASSERT_EQ(::read(ready[0], &signal_byte, 1), 1);
            ::close(ready[0]);
            if (kind == TemporaryKind::Named) {
                EXPECT_EQ(names_in(directory).size(), 2u) << "the temporary file is named";
            }
            ::kill(child, signal_number);
            int status = 0;
            ASSERT_EQ(::waitpid(child, &status, 0), child);
            ASSERT_TRUE(WIFSIGNALED(status));
            EXPECT_EQ(WTERMSIG(status), signal_number);
            EXPECT_EQ(names_in(directory), std::vector<std::string>{"out.bin"});
            EXPECT_EQ(contents(target), "old");
            fs::remove_all(directory);
        }
    }
}

// Records the writer's commit steps on its data sink, and what the sidecar's directory holds when the data is
// published.
class RecordingSink final : public ByteSink {
public:
    RecordingSink(std::vector<std::string>* events, fs::path meta) : events_(events), meta_(std::move(meta)) {}
    void write(std::span<const std::byte>) override {}
    void prepare_commit() override { events_->push_back("data prepared"); }
    void publish() override {
        events_->push_back(fs::exists(meta_) ? "data published after the sidecar"
                                             : "data published before the sidecar");
        events_->push_back(std::to_string(names_in(meta_.parent_path()).size()) + " sidecar file(s) ready");
    }

private:
    std::vector<std::string>* events_;
    fs::path meta_;
};

void write_daphne_value(Writer& writer) {
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 1, 1);
    const double value = 4.5;
    writer.write_dense(ValueType::F64, &value, 1, 0, WriteOptions{});
    writer.finish();
}

// The sidecar is complete and named before the data is published, and moved into place after it.
TEST_F(FileSinkTest, TheDaphneSidecarIsReadyBeforeTheDataAndPublishedAfterIt) {
    std::vector<std::string> events;
    const fs::path meta = path("x.dbdf.meta");
    Writer writer(std::make_unique<RecordingSink>(&events, meta), WriterDialect{Dialect::Daphne, meta});
    write_daphne_value(writer);
    EXPECT_EQ(events, (std::vector<std::string>{"data prepared", "data published before the sidecar",
                                                "1 sidecar file(s) ready"}));
    EXPECT_EQ(names_in(directory_), std::vector<std::string>{"x.dbdf.meta"});
    EXPECT_NE(contents(meta).find("\"numRows\":1"), std::string::npos) << contents(meta);
}

// A sidecar that cannot be named at finish (its directory went away) fails the writer before the data is published.
TEST_F(FileSinkTest, ASidecarFailingAtFinishKeepsTheDataUnpublished) {
    std::vector<std::string> events;
    fs::create_directories(path("sidecars"));
    fs::create_symlink("sidecars/x.meta", path("x.dbdf.meta"));
    Writer writer(std::make_unique<RecordingSink>(&events, path("x.dbdf.meta")),
                  WriterDialect{Dialect::Daphne, path("x.dbdf.meta")});
    if (::rmdir(path("sidecars").c_str()) != 0) GTEST_SKIP() << "the sidecar's temporary file has a name here";
    try {
        write_daphne_value(writer);
        ADD_FAILURE() << "finish succeeded without its sidecar";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Io);
    }
    EXPECT_TRUE(events.empty()) << events.front();
    EXPECT_TRUE(writer.failed());
}

class WriteThroughTest : public FileSinkTest {};

// A FIFO stays a FIFO and gets the bytes as they come: nothing is renamed over it.
TEST_F(WriteThroughTest, AFifoIsWrittenThrough) {
    const fs::path fifo = path("fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // A writing end held here until the sink is done lets the reader see the end whatever the sink did with the
    // FIFO, so a regression cannot hang the test.
    const int keeper = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);
    const int reading = ::open(fifo.c_str(), O_RDONLY | O_CLOEXEC);
    std::string received;
    std::thread reader([&] {
        char buffer[4096];
        ssize_t n = 0;
        while ((n = ::read(reading, buffer, sizeof buffer)) > 0) received.append(buffer, static_cast<std::size_t>(n));
    });
    {
        auto sink = make_file_sink(fifo);
        EXPECT_TRUE(sink->writes_through());
        write_text(*sink, "through the fifo");
        sink->commit();
    }
    ::close(keeper);
    reader.join();
    ::close(reading);
    EXPECT_EQ(received, "through the fifo");
    struct stat status {};
    ASSERT_EQ(::lstat(fifo.c_str(), &status), 0);
    EXPECT_TRUE(S_ISFIFO(status.st_mode));
    EXPECT_EQ(names_in(directory_), std::vector<std::string>{"fifo"});
}

// A terminal is a character device like /dev/null: opened and written, never replaced, also when durable.
TEST_F(WriteThroughTest, ACharacterDeviceIsWrittenThroughAndNotSynced) {
    int controller = -1;
    int terminal = -1;
    char name[256] = {};
    ASSERT_EQ(::openpty(&controller, &terminal, name, nullptr, nullptr), 0);
    termios raw{};
    ASSERT_EQ(::tcgetattr(terminal, &raw), 0);
    ::cfmakeraw(&raw);
    ASSERT_EQ(::tcsetattr(terminal, TCSANOW, &raw), 0);
    {
        auto sink = make_file_sink(name, FileCommit::Durable);
        EXPECT_TRUE(sink->writes_through());
        write_text(*sink, "to the terminal");
        sink->commit();
    }
    std::string received(15, '\0');
    std::size_t got = 0;
    while (got < received.size()) {
        const ssize_t n = ::read(controller, received.data() + got, received.size() - got);
        ASSERT_GT(n, 0);
        got += static_cast<std::size_t>(n);
    }
    EXPECT_EQ(received, "to the terminal");
    struct stat status {};
    ASSERT_EQ(::lstat(name, &status), 0);
    EXPECT_TRUE(S_ISCHR(status.st_mode));
    ::close(terminal);
    ::close(controller);
}

// /dev/stdout leads through /proc/self/fd/1 to whatever the caller set up: a pipe here.
TEST_F(WriteThroughTest, DevStdoutReachesThePipeItNames) {
    int pipe_ends[2];
    ASSERT_EQ(::pipe(pipe_ends), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::dup2(pipe_ends[1], STDOUT_FILENO);
        ::close(pipe_ends[0]);
        ::close(pipe_ends[1]);
        int code = 0;
        try {
            auto sink = make_file_sink("/dev/stdout");
            code = sink->writes_through() ? 0 : 2;
            if (code == 0) {
                write_text(*sink, "via stdout");
                sink->commit();
            }
        } catch (...) {
            code = 1;
        }
        ::_exit(code);
    }
    ::close(pipe_ends[1]);
    std::string received;
    char buffer[64];
    ssize_t n = 0;
    while ((n = ::read(pipe_ends[0], buffer, sizeof buffer)) > 0) received.append(buffer, static_cast<std::size_t>(n));
    ::close(pipe_ends[0]);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(received, "via stdout");
}

// A shell's `>> file` behind a descriptor: the bytes are appended and the file is the same file afterwards.
TEST_F(WriteThroughTest, ARegularFileBehindADescriptorIsAppendedTo) {
    const fs::path file = path("log.bin");
    put(file, "kept|");
    const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    struct stat before {};
    ASSERT_EQ(::fstat(fd, &before), 0);
    const std::string descriptor = "/dev/fd/" + std::to_string(fd);
    EXPECT_EQ(detail::resolve_output_target(descriptor).kind, OutputTarget::Kind::WriteThrough);
    {
        auto sink = make_file_sink(descriptor);
        write_text(*sink, "appended");
        sink->commit();
    }
    struct stat after {};
    ASSERT_EQ(::stat(file.c_str(), &after), 0);
    EXPECT_EQ(after.st_ino, before.st_ino);
    EXPECT_EQ(contents(file), "kept|appended");
    EXPECT_EQ(names_in(directory_), std::vector<std::string>{"log.bin"});
    ::close(fd);
}

// Writing to /dev/null must leave the system's /dev/null a character device. Checked on the classification first,
// so that a sink that would replace it is never even opened on it.
TEST_F(WriteThroughTest, DevNullStaysTheNullDevice) {
    struct stat before {};
    ASSERT_EQ(::lstat("/dev/null", &before), 0);
    ASSERT_TRUE(S_ISCHR(before.st_mode));
    ASSERT_EQ(detail::resolve_output_target("/dev/null").kind, OutputTarget::Kind::WriteThrough);
    {
        auto sink = make_file_sink("/dev/null", FileCommit::Durable);
        ASSERT_TRUE(sink->writes_through());
        write_text(*sink, "discarded");
        sink->commit();
    }
    struct stat after {};
    ASSERT_EQ(::lstat("/dev/null", &after), 0);
    EXPECT_TRUE(S_ISCHR(after.st_mode));
    EXPECT_EQ(after.st_rdev, before.st_rdev);
    EXPECT_EQ(after.st_ino, before.st_ino);
}

}  // namespace
}  // namespace dbdf
