// The lines of a text input (.csv, .mtx), read through a small buffer with a bound on each line's length: a file of
// one endless line (a log, a binary file given as .csv) is refused at the limit instead of growing without end.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "input_file.hpp"

namespace dbdf_cli {

class TextLines {
public:
    // The longest line a text input may hold, without its newline: 32 MiB, several times a CSV row of a million
    // values. Memory follows it: a line is held whole while it is split into fields.
    static constexpr std::size_t kMaxLineBytes = std::size_t{32} << 20;

    // Opens a regular file (input_file.hpp); throws CliError (exit 2) when it cannot.
    explicit TextLines(const std::string& path);

    // The next line, without its '\n', in `line`; false at the end of the file. A last line without a newline is a
    // line. Throws CliError (exit 1) naming the file and line when a line is longer than kMaxLineBytes, and (exit 2)
    // when reading fails.
    bool next(std::string& line);

    const std::string& path() const { return file_.path(); }
    std::uint64_t line_number() const { return line_number_; }  // of the line `next` gave last, from 1
    std::uint64_t bytes_read() const { return bytes_read_; }    // bytes of the lines given so far, newlines included
    std::uint64_t file_size() const { return file_.size(); }

private:
    bool fill();

    InputFile file_;
    std::vector<char> buffer_;
    std::size_t begin_ = 0;  // unread bytes: buffer_[begin_, end_)
    std::size_t end_ = 0;
    bool at_end_ = false;
    std::uint64_t line_number_ = 0;
    std::uint64_t bytes_read_ = 0;
};

}  // namespace dbdf_cli
