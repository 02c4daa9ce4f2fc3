#include "callback_errors.hpp"

#include "dbdf/error.hpp"

namespace dbdf::capi {
namespace {

thread_local std::string callback_message;

}  // namespace

void clear_callback_error() noexcept { callback_message.clear(); }

std::string callback_error_suffix() { return callback_message.empty() ? std::string() : ": " + callback_message; }

std::function<std::size_t(std::uint64_t, std::span<std::byte>)> read_function(dbdf_read_at_fn read_at, void* context) {
    return [read_at, context](std::uint64_t offset, std::span<std::byte> destination) -> std::size_t {
        clear_callback_error();
        const std::int64_t got = read_at(context, offset, destination.data(), destination.size());
        if (got < 0) {
            throw Error(ErrorCode::Io,
                        "the byte source failed reading " + std::to_string(destination.size()) + " bytes at byte " +
                            std::to_string(offset) + callback_error_suffix(),
                        0, offset);
        }
        // More than asked for is reported by the core, which names the byte the same way.
        return static_cast<std::size_t>(got);
    };
}

std::function<bool(std::span<const std::byte>)> write_function(dbdf_write_fn write, void* context) {
    return [write, context](std::span<const std::byte> bytes) {
        clear_callback_error();
        if (write(context, bytes.data(), bytes.size()) == 0) return true;
        if (callback_message.empty()) return false;  // the sink's own message
        throw Error(ErrorCode::Sink, "the write callback reported a failure" + callback_error_suffix());
    };
}

}  // namespace dbdf::capi

extern "C" void dbdf_set_callback_error(const char* message) {
    try {
        if (message == nullptr) {
            dbdf::capi::callback_message.clear();
        } else {
            dbdf::capi::callback_message.assign(message);
        }
    } catch (...) {
        dbdf::capi::callback_message.clear();  // no memory for the text: the failure is reported without it
    }
}
