#include "dbdf/sink.hpp"

#include "dbdf/error.hpp"

namespace dbdf {

void MemorySink::write(std::span<const std::byte> bytes) { bytes_.insert(bytes_.end(), bytes.begin(), bytes.end()); }

void CallbackSink::write(std::span<const std::byte> bytes) {
    if (!write_(bytes)) throw Error(ErrorCode::Sink, "the write callback reported a failure");
}

}  // namespace dbdf
