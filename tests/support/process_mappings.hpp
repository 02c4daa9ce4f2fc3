// What Linux reports about this process's mappings in /proc/self/smaps, for tests that check how memory was mapped
// (huge-page advice, pages resident) rather than only what it holds.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace dbdf::testing {

// The line that starts with `field` (such as "Rss:" or "VmFlags:") in the smaps entry of the mapping holding
// `address`; none when no mapping holds it or its entry has no such line.
inline std::optional<std::string> smaps_line_of_mapping_at(const void* address, std::string_view field) {
    const auto wanted = reinterpret_cast<std::uintptr_t>(address);
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t start = 0, end = 0;
        char dash = 0;
        std::istringstream range(line);
        if (range >> std::hex >> start >> dash >> end && dash == '-') {
            inside = wanted >= start && wanted < end;
        } else if (inside && line.starts_with(field)) {
            return line;
        }
    }
    return std::nullopt;
}

// The bytes of the mapping holding `address` that are resident (its "Rss:   123 kB" line); 0 when none is found.
inline std::uint64_t resident_bytes_of_mapping_at(const void* address) {
    const std::optional<std::string> line = smaps_line_of_mapping_at(address, "Rss:");
    return line ? std::stoull(line->substr(4)) * 1024 : 0;
}

// Whether the mapping holding `address` is marked for transparent huge pages (madvise MADV_HUGEPAGE): the flag "hg"
// among its VmFlags.
inline bool huge_page_advice_at(const void* address) {
    const std::optional<std::string> line = smaps_line_of_mapping_at(address, "VmFlags:");
    return line && (*line + " ").find(" hg ") != std::string::npos;
}

}  // namespace dbdf::testing
