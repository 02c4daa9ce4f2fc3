// An output file written to a temporary file beside the target and renamed over it on commit(), so a failed
// conversion never leaves a half-written file (the same guarantee the dbdf file writer gives).
#pragma once

#include <cstdio>
#include <string>

namespace dbdf_cli {

class AtomicOutput {
public:
    explicit AtomicOutput(const std::string& target);
    AtomicOutput(const AtomicOutput&) = delete;
    AtomicOutput& operator=(const AtomicOutput&) = delete;
    ~AtomicOutput();  // removes the temporary file unless committed

    std::FILE* file() { return file_; }
    void write(const void* data, std::size_t size);
    void write(const std::string& text) { write(text.data(), text.size()); }
    void commit();

private:
    std::string target_;
    std::string temporary_;
    std::FILE* file_ = nullptr;
    bool committed_ = false;
};

}  // namespace dbdf_cli
