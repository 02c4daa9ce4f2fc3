// Running the built dbdf tool from the tests: stdout and stderr are captured separately, so every test can check
// that results go to stdout and errors to stderr; the child can be given a umask, an address-space limit and bytes on
// its standard input.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace cli_test {

struct ToolRun {
    int exit_code = -1;  // -1 when the tool did not exit normally
    std::string out;     // stdout
    std::string err;     // stderr
};

struct RunSettings {
    std::optional<mode_t> umask;                       // the child's umask; the test's own when empty
    std::optional<std::uint64_t> address_space_bytes;  // RLIMIT_AS of the child, to prove bounded memory
    // RLIMIT_FSIZE of the child, to stop an endless output. Initialised, so that settings listing only the fields
    // above stay complete aggregates (-Wmissing-field-initializers).
    std::optional<std::uint64_t> file_size_bytes = std::nullopt;
    // Bytes for the child's standard input, through a pipe (which cannot be read twice or by its size); when empty,
    // the child inherits the test's standard input.
    std::optional<std::string> standard_input = std::nullopt;
};

// Runs `dbdf ARGUMENTS` through /bin/sh, so arguments may use shell quoting.
ToolRun run(const std::string& arguments, const RunSettings& settings = {});

// Runs `dbdf ARGUMENTS` through /bin/sh with stdin, stdout and stderr on a new pseudo-terminal, as from an interactive
// shell; `out` gets everything the tool wrote there (the terminal turns each "\n" into "\r\n"), `err` stays empty.
ToolRun run_on_terminal(const std::string& arguments);

// Runs a shell script with the tool's directory first on PATH (so it can call `dbdf`) in `directory`; stdout and
// stderr go to one stream, as on a terminal.
ToolRun run_script(const std::string& script, const std::filesystem::path& directory);

std::string vector_path(const std::string& name);
std::string contents(const std::string& path);

// A fresh directory per test under the system's temporary directory, removed at the end.
class ScratchDirectory {
public:
    explicit ScratchDirectory(const std::string& prefix);
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;
    ~ScratchDirectory();

    std::string path(const std::string& name) const { return (root_ / name).string(); }
    const std::filesystem::path& root() const { return root_; }
    void write(const std::string& name, const std::string& bytes) const;
    std::size_t file_count() const;

private:
    std::filesystem::path root_;
};

}  // namespace cli_test
