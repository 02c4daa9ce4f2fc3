// Copying payload bytes to caller memory at memory speed whatever the two addresses are.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace dbdf::detail {

// memcpy, except for the one placement where glibc's memcpy (which uses `rep movsb` for large copies) falls to a
// fraction of memory bandwidth on some x86 processors: a destination a few bytes past the source modulo the 4 KiB
// page size, where every load waits on a store it falsely aliases. Payloads sit at arbitrary offsets in a mapped
// file or a caller buffer, so this placement does occur (measured: 1.6 GB/s instead of 15 GB/s on AMD EPYC).
// There the bytes go through 64-byte pieces, which the compiler turns into vector loads and stores.
inline void copy_bytes(void* destination, const void* source, std::size_t count) {
    constexpr std::size_t kPiece = 64;
    const auto distance = (reinterpret_cast<std::uintptr_t>(destination) - reinterpret_cast<std::uintptr_t>(source)) &
                          std::uintptr_t{4095};
    if (count < 2048 || distance == 0 || distance >= kPiece) {
        std::memcpy(destination, source, count);
        return;
    }
    auto* out = static_cast<std::byte*>(destination);
    const auto* in = static_cast<const std::byte*>(source);
    std::size_t done = 0;
    for (; done + kPiece <= count; done += kPiece) {
        std::byte piece[kPiece];
        std::memcpy(piece, in + done, kPiece);
        std::memcpy(out + done, piece, kPiece);
    }
    std::memcpy(out + done, in + done, count - done);
}

}  // namespace dbdf::detail
