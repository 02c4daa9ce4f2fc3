// An output file of the tool's other formats (.npy, .mtx, .csv), written through dbdf.h's file output so that it is
// replaced exactly as the library replaces .dbdf outputs (dbdf_writer_open_file() in dbdf.h): a regular file or new
// path atomically on commit(), so a failed conversion never leaves a half-written file; a device, FIFO or
// /dev/stdout written through; symbolic links followed; permissions kept.
#pragma once

#include <string>
#include <vector>

#include "dbdf.h"

namespace dbdf_cli {

class AtomicOutput {
public:
    explicit AtomicOutput(const std::string& target);
    AtomicOutput(const AtomicOutput&) = delete;
    AtomicOutput& operator=(const AtomicOutput&) = delete;
    ~AtomicOutput();  // without commit(): the temporary file is removed, an existing target untouched

    void write(const void* data, std::size_t size);
    void write(const std::string& text) { write(text.data(), text.size()); }
    void commit();

private:
    void flush();

    std::string target_;
    dbdf_file_output_t* output_ = nullptr;
    // Text formats write many short pieces; they reach the library (one system call each) in large ones.
    std::vector<char> pending_;
};

}  // namespace dbdf_cli
