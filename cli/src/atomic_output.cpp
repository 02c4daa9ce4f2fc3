#include "atomic_output.hpp"

#include <cstring>

#include "handles.hpp"

namespace dbdf_cli {
namespace {

constexpr std::size_t kPendingBytes = std::size_t{1} << 20;

}  // namespace

AtomicOutput::AtomicOutput(const std::string& target) : target_(target) {
    check(dbdf_file_output_open(output_to_open(target).c_str(), 0, &output_), target);
    pending_.reserve(kPendingBytes);
}

AtomicOutput::~AtomicOutput() { dbdf_file_output_free(output_); }

void AtomicOutput::write(const void* data, std::size_t size) {
    if (pending_.size() + size > kPendingBytes) flush();
    if (size >= kPendingBytes) {
        check(dbdf_file_output_write(output_, data, size), target_);
        return;
    }
    const auto* bytes = static_cast<const char*>(data);
    pending_.insert(pending_.end(), bytes, bytes + size);
}

void AtomicOutput::flush() {
    if (pending_.empty()) return;
    check(dbdf_file_output_write(output_, pending_.data(), pending_.size()), target_);
    pending_.clear();
}

void AtomicOutput::commit() {
    flush();
    check(dbdf_file_output_commit(output_), target_);
}

}  // namespace dbdf_cli
