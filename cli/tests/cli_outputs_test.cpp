// How convert replaces its output, for .dbdf outputs (the library's file writer) and the tool's own formats (.npy
// here): symbolic links followed, FIFOs, terminals, /dev/stdout and /dev/null written through, permissions kept,
// long names, the daphne pair committed together, and no temporary file left by SIGINT or SIGTERM.
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli_fixture.hpp"

namespace {

using namespace cli_test;
namespace fs = std::filesystem;

using CliOutputs = CliTest;

std::vector<std::string> names_in(const fs::path& directory) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(directory)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

mode_t mode_of(const std::string& path) {
    struct stat status {};
    return ::stat(path.c_str(), &status) == 0 ? status.st_mode : 0;
}

// Converts `input` into the FIFO `fifo` (as `format`) while a thread reads it; returns what was read. The test
// holds a writing end of its own until the tool is done, so the reader never waits forever, whatever the tool did
// with the FIFO (a tool that renamed a file over it would never open it).
std::string convert_into_fifo(const std::string& input, const std::string& fifo, const std::string& format,
                              ToolRun* run_out) {
    const int keeper = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);
    if (keeper < 0) return "cannot open the FIFO";
    const int reading = ::open(fifo.c_str(), O_RDONLY | O_CLOEXEC);
    std::string received;
    std::thread reader([&] {
        char buffer[65536];
        ssize_t n = 0;
        while ((n = ::read(reading, buffer, sizeof buffer)) > 0) received.append(buffer, static_cast<std::size_t>(n));
    });
    *run_out = run("convert " + input + " " + fifo + " --to " + format);
    ::close(keeper);
    reader.join();
    ::close(reading);
    return received;
}

TEST_F(CliOutputs, AFifoIsWrittenThroughAndStaysAFifo) {
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("file.npy")).exit_code, 0);
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("file.dbdf")).exit_code, 0);
    ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
    for (const std::string format : {"npy", "dbdf"}) {
        SCOPED_TRACE(format);
        ToolRun converted;
        const std::string received = convert_into_fifo(path("matrix.dbdf"), path("fifo"), format, &converted);
        EXPECT_EQ(converted.exit_code, 0) << converted.err;
        EXPECT_EQ(received, contents(path("file." + format)));
        EXPECT_TRUE(S_ISFIFO(mode_of(path("fifo"))));
    }
    EXPECT_EQ(names_in(scratch_.root()), (std::vector<std::string>{"fifo", "file.dbdf", "file.npy", "matrix.dbdf"}));
}

// /dev/stdout and /dev/null are tried only once a FIFO has been seen written through: a tool that replaced device
// nodes must not get to replace the system's.
TEST_F(CliOutputs, DevStdoutAndDevNullAreWrittenThrough) {
    ASSERT_EQ(::mkfifo(path("probe").c_str(), 0600), 0);
    ToolRun probe;
    convert_into_fifo(path("matrix.dbdf"), path("probe"), "npy", &probe);
    ASSERT_EQ(probe.exit_code, 0) << probe.err;
    ASSERT_TRUE(S_ISFIFO(mode_of(path("probe")))) << "devices are replaced: /dev/stdout and /dev/null are not tried";

    struct stat null_before {};
    ASSERT_EQ(::lstat("/dev/null", &null_before), 0);
    ASSERT_TRUE(S_ISCHR(null_before.st_mode));
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("file.npy")).exit_code, 0);
    // Through a pipe, as in `dbdf convert x.dbdf /dev/stdout --to npy | ...`.
    const ToolRun piped = run("convert " + path("matrix.dbdf") + " /dev/stdout --to npy | cat");
    EXPECT_EQ(piped.exit_code, 0) << piped.err;
    EXPECT_EQ(piped.out, contents(path("file.npy")));
    const ToolRun dbdf_piped = run("convert " + path("matrix.dbdf") + " /dev/stdout --to dbdf | cat");
    EXPECT_EQ(dbdf_piped.exit_code, 0) << dbdf_piped.err;
    EXPECT_EQ(dbdf_piped.out.substr(0, 1), std::string(1, '\x01')) << "a .dbdf file starts with its version byte";
    for (const std::string format : {"npy", "dbdf"}) {
        const ToolRun discarded = run("convert " + path("matrix.dbdf") + " /dev/null --to " + format);
        EXPECT_EQ(discarded.exit_code, 0) << discarded.err;
    }
    const ToolRun daphne = run("convert " + path("matrix.dbdf") + " /dev/null --to dbdf --dialect-out daphne");
    EXPECT_EQ(daphne.exit_code, 0) << daphne.err;
    struct stat null_after {};
    ASSERT_EQ(::lstat("/dev/null", &null_after), 0);
    EXPECT_TRUE(S_ISCHR(null_after.st_mode));
    EXPECT_EQ(null_after.st_rdev, null_before.st_rdev);
    EXPECT_EQ(null_after.st_ino, null_before.st_ino);
    EXPECT_FALSE(fs::exists("/dev/null.meta"));
}

TEST_F(CliOutputs, ALinkIsFollowedToTheFileItNames) {
    fs::create_directories(path("data"));
    write_bytes("data/real.npy", "old");
    write_bytes("data/real.dbdf", "old");
    fs::create_symlink("data/real.npy", path("link.npy"));
    fs::create_symlink("data/real.dbdf", path("middle.dbdf"));
    fs::create_symlink("middle.dbdf", path("link.dbdf"));
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("file.npy")).exit_code, 0);
    for (const std::string name : {"link.npy", "link.dbdf"}) {
        const ToolRun converted = run("convert " + path("matrix.dbdf") + " " + path(name));
        EXPECT_EQ(converted.exit_code, 0) << converted.err;
        EXPECT_TRUE(fs::is_symlink(path(name))) << name;
    }
    EXPECT_TRUE(fs::is_symlink(path("middle.dbdf")));
    EXPECT_EQ(contents(path("data/real.npy")), contents(path("file.npy")));
    EXPECT_TRUE(holds_values(path("data/real.dbdf")));
    EXPECT_EQ(names_in(path("data")), (std::vector<std::string>{"real.dbdf", "real.npy"}));
}

TEST_F(CliOutputs, AReplacedOutputKeepsItsMode) {
    for (const std::string name : {"secret.npy", "secret.dbdf", "secret.csv"}) {
        write_bytes(name, "old");
        ASSERT_EQ(::chmod(path(name).c_str(), 0600), 0);
        const ToolRun converted =
            run("convert " + path("matrix.dbdf") + " " + path(name), RunSettings{mode_t{022}, {}});
        EXPECT_EQ(converted.exit_code, 0) << converted.err;
        EXPECT_EQ(mode_of(path(name)) & 07777, 0600u) << name;
        EXPECT_NE(contents(path(name)), "old");
    }
}

// NAME_MAX is 255: the temporary file's name must fit too.
TEST_F(CliOutputs, A245CharacterOutputNameCanBeWritten) {
    for (const std::string extension : {".npy", ".dbdf", ".csv"}) {
        const std::string name = std::string(245 - extension.size(), 'o') + extension;
        const ToolRun converted = run("convert " + path("matrix.dbdf") + " " + path(name));
        EXPECT_EQ(converted.exit_code, 0) << converted.err;
        EXPECT_TRUE(fs::exists(path(name))) << extension;
    }
    EXPECT_EQ(files_in_directory(), 4u);
}

// A sidecar that cannot be written fails the conversion before a data file appears, and leaves an existing pair.
TEST_F(CliOutputs, DaphneOutputAndItsSidecarAppearTogether) {
    fs::create_directories(path("pair.dbdf.meta"));
    const ToolRun failed = run("convert " + path("matrix.dbdf") + " " + path("pair.dbdf") + " --dialect-out daphne");
    EXPECT_EQ(failed.exit_code, 2);
    EXPECT_NE(failed.err.find("pair.dbdf.meta"), std::string::npos) << failed.err;
    EXPECT_FALSE(fs::exists(path("pair.dbdf")));
    EXPECT_EQ(names_in(scratch_.root()), (std::vector<std::string>{"matrix.dbdf", "pair.dbdf.meta"}));
}

// The tool is stopped in the middle of a conversion, its output open, by a terminal whose output is suspended
// (XOFF): its first progress line blocks. Then it gets the signal. Nothing but the input may remain.
void expect_no_leftover_after(int signal_number, const std::string& input, const std::string& output,
                              const fs::path& directory) {
    int controller = -1;
    int terminal = -1;
    ASSERT_EQ(::openpty(&controller, &terminal, nullptr, nullptr, nullptr), 0);
    termios settings{};
    ASSERT_EQ(::tcgetattr(terminal, &settings), 0);
    settings.c_iflag |= IXON;
    ASSERT_EQ(::tcsetattr(terminal, TCSANOW, &settings), 0);
    const char stop = static_cast<char>(settings.c_cc[VSTOP]);
    ASSERT_EQ(::write(controller, &stop, 1), 1);
    // The terminal's output is suspended once a write to it no longer goes through.
    const int probe = ::open(::ttyname(terminal), O_WRONLY | O_NONBLOCK | O_NOCTTY);
    ASSERT_GE(probe, 0);
    bool stopped = false;
    for (int attempt = 0; attempt < 10000 && !stopped; ++attempt) {
        stopped = ::write(probe, ".", 1) < 0 && errno == EAGAIN;
        if (!stopped) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ::close(probe);
    ASSERT_TRUE(stopped) << "the terminal did not stop its output";

    const std::string tool = DBDF_CLI_PATH;
    std::fflush(nullptr);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::dup2(terminal, STDOUT_FILENO);
        ::dup2(terminal, STDERR_FILENO);
        ::close(controller);
        ::execl(tool.c_str(), tool.c_str(), "convert", input.c_str(), output.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    // Wait until the tool has its output open: a descriptor of it leads into the directory, other than the input.
    const fs::path descriptors = fs::path("/proc") / std::to_string(child) / "fd";
    bool writing = false;
    for (int attempt = 0; attempt < 60000 && !writing; ++attempt) {
        std::error_code error;
        for (const auto& entry : fs::directory_iterator(descriptors, error)) {
            const std::string target = fs::read_symlink(entry.path(), error).string();
            if (!error && target.rfind(directory.string() + "/", 0) == 0 && target != input) writing = true;
        }
        if (!writing) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_TRUE(writing) << "the tool never opened its output";
    ::kill(child, signal_number);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ::close(terminal);
    ::close(controller);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the tool finished before the signal";
    EXPECT_EQ(WTERMSIG(status), signal_number);
    EXPECT_EQ(names_in(directory), std::vector<std::string>{fs::path(input).filename().string()});
}

TEST_F(CliOutputs, AnInterruptedConversionLeavesNoTemporaryFile) {
    for (const int signal_number : {SIGINT, SIGTERM}) {
        for (const std::string output : {"out.npy", "out.dbdf"}) {
            SCOPED_TRACE(output + " " + std::to_string(signal_number));
            expect_no_leftover_after(signal_number, path("matrix.dbdf"), path(output), scratch_.root());
        }
    }
}

}  // namespace
