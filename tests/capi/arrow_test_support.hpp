// What the Arrow suites share: the golden vectors' bytes, a stream released when it goes out of scope, and a byte
// source that records how the export reads it.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "dbdf.h"

namespace dbdf_test {

inline std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every valid golden vector (the top level of tests/vectors/; the invalid ones live in a subdirectory), sorted.
inline std::vector<std::filesystem::path> golden_vectors() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(DBDF_VECTORS_DIR)) {
        if (entry.path().extension() == ".dbdf") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// An exported stream, released at the end of the scope unless the test released it.
struct Stream {
    ArrowArrayStream stream{};
    Stream() = default;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream() {
        if (stream.release != nullptr) stream.release(&stream);
    }
};

// Bytes in memory served through read_at, recording which threads call it and how many bytes it gives. A read of
// 64 KiB or more (a payload, which bypasses the read-ahead window) waits, while `wait_for_overlap` is set and up to
// two seconds, until a second read is in flight, so that a test sees decode threads overlap instead of hoping they
// do. Every read from byte `fail_from` on fails, naming its offset.
struct RecordingSource {
    std::vector<std::uint8_t> bytes;
    std::thread::id pulling_thread = std::this_thread::get_id();
    std::atomic<bool> wait_for_overlap{false};
    std::atomic<std::uint64_t> fail_from{UINT64_MAX};
    std::atomic<int> in_flight{0};
    std::atomic<int> most_in_flight{0};
    std::atomic<bool> read_off_the_pulling_thread{false};
    std::atomic<std::uint64_t> fetched{0};
};

inline int64_t recording_read_at(void* context, uint64_t offset, void* destination, size_t length) {
    auto& source = *static_cast<RecordingSource*>(context);
    if (std::this_thread::get_id() != source.pulling_thread) source.read_off_the_pulling_thread = true;
    const int now = ++source.in_flight;
    int most = source.most_in_flight.load();
    while (now > most && !source.most_in_flight.compare_exchange_weak(most, now)) {}
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (source.wait_for_overlap && length >= 65536 && source.most_in_flight < 2 &&
           std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    int64_t result = 0;
    if (offset >= source.fail_from) {
        dbdf_set_callback_error(("refused the read at byte " + std::to_string(offset) + ";").c_str());
        result = -1;
    } else if (offset < source.bytes.size()) {
        const std::size_t count = std::min<std::uint64_t>(length, source.bytes.size() - offset);
        std::memcpy(destination, source.bytes.data() + offset, count);
        source.fetched += count;
        result = static_cast<int64_t>(count);
    }
    --source.in_flight;
    return result;
}

// A source over `recording` with `flags` (DBDF_SOURCE_CONCURRENT_READS or 0).
inline dbdf_source_t recording_source(RecordingSource& recording, uint32_t flags) {
    dbdf_source_t source = DBDF_SOURCE_INIT;
    source.read_at = recording_read_at;
    source.context = &recording;
    source.size = recording.bytes.size();
    source.flags = flags;
    return source;
}

}  // namespace dbdf_test
