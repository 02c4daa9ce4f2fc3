#include "tool_run.hpp"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <pty.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iterator>

namespace cli_test {
namespace fs = std::filesystem;
namespace {

std::string read_all(std::FILE* file) {
    std::string text;
    std::rewind(file);
    char buffer[4096];
    std::size_t read = 0;
    while ((read = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, read);
    return text;
}

// Runs `sh -c command` with stdout and stderr in unnamed temporary files (stderr into stdout's when `merge`).
// Everything the child needs is prepared before fork, since the test process may have threads.
ToolRun run_shell(const std::string& command, const RunSettings& settings, bool merge) {
    ToolRun result;
    std::FILE* out = std::tmpfile();
    std::FILE* err = std::tmpfile();
    if (out == nullptr || err == nullptr) {
        ADD_FAILURE() << "cannot create capture files";
        return result;
    }
    const int out_fd = ::fileno(out);
    const int err_fd = merge ? out_fd : ::fileno(err);
    int input_pipe[2] = {-1, -1};
    if (settings.standard_input && ::pipe2(input_pipe, O_CLOEXEC) != 0) {
        ADD_FAILURE() << "cannot create the standard input pipe";
        return result;
    }
    // A child that stops reading early must not end the test with SIGPIPE: the write below fails with EPIPE instead.
    if (settings.standard_input) std::signal(SIGPIPE, SIG_IGN);
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child == 0) {
        if (settings.standard_input) {
            std::signal(SIGPIPE, SIG_DFL);  // an ignored signal would stay ignored across exec
            ::dup2(input_pipe[0], STDIN_FILENO);
        }
        ::dup2(out_fd, STDOUT_FILENO);
        ::dup2(err_fd, STDERR_FILENO);
        if (settings.umask) ::umask(*settings.umask);
        if (settings.address_space_bytes) {
            const rlimit limit{*settings.address_space_bytes, *settings.address_space_bytes};
            if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(126);
        }
        if (settings.file_size_bytes) {
            // The signal a write beyond the limit raises is left at its default: the tool must deal with it itself.
            const rlimit limit{*settings.file_size_bytes, *settings.file_size_bytes};
            if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(126);
        }
        ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    if (settings.standard_input) {
        ::close(input_pipe[0]);
        const std::string& bytes = *settings.standard_input;
        for (std::size_t done = 0; child > 0 && done < bytes.size();) {
            const ssize_t written = ::write(input_pipe[1], bytes.data() + done, bytes.size() - done);
            if (written < 0 && errno == EINTR) continue;
            if (written <= 0) break;  // the child closed its end
            done += static_cast<std::size_t>(written);
        }
        ::close(input_pipe[1]);
    }
    int status = 0;
    if (child > 0 && ::waitpid(child, &status, 0) == child && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    result.out = read_all(out);
    result.err = merge ? std::string() : read_all(err);
    std::fclose(out);
    std::fclose(err);
    return result;
}

}  // namespace

ToolRun run(const std::string& arguments, const RunSettings& settings) {
    return run_shell(std::string(DBDF_CLI_PATH) + " " + arguments, settings, false);
}

ToolRun run_on_terminal(const std::string& arguments) {
    ToolRun result;
    const std::string command = std::string(DBDF_CLI_PATH) + " " + arguments;
    std::fflush(nullptr);
    int terminal = -1;
    const pid_t child = ::forkpty(&terminal, nullptr, nullptr, nullptr);
    if (child == 0) {
        ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    if (child < 0) {
        ADD_FAILURE() << "forkpty failed";
        return result;
    }
    // Read until the child's side is closed: Linux then reports EIO rather than end of file.
    char buffer[4096];
    for (;;) {
        const ssize_t read = ::read(terminal, buffer, sizeof buffer);
        if (read > 0) {
            result.out.append(buffer, static_cast<std::size_t>(read));
        } else if (read < 0 && errno == EINTR) {
            continue;
        } else {
            break;
        }
    }
    ::close(terminal);
    int status = 0;
    if (::waitpid(child, &status, 0) == child && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    return result;
}

ToolRun run_script(const std::string& script, const fs::path& directory) {
    const std::string tool_directory = fs::path(DBDF_CLI_PATH).parent_path().string();
    const std::string command =
        "cd '" + directory.string() + "' && PATH='" + tool_directory + "':\"$PATH\" && " + "export PATH && " + script;
    return run_shell(command, {}, true);
}

std::string vector_path(const std::string& name) { return std::string(DBDF_VECTORS_DIR) + "/" + name; }

std::string contents(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

ScratchDirectory::ScratchDirectory(const std::string& prefix) {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::temp_directory_path() /
            (prefix + "_" + std::to_string(::getpid()) + "_" + (test != nullptr ? test->name() : "scratch"));
    fs::remove_all(root_);
    fs::create_directories(root_);
}

ScratchDirectory::~ScratchDirectory() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
}

void ScratchDirectory::write(const std::string& name, const std::string& bytes) const {
    std::ofstream file(path(name), std::ios::binary);
    file << bytes;
}

std::size_t ScratchDirectory::file_count() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(root_), fs::directory_iterator()));
}

}  // namespace cli_test
