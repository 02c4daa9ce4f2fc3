// Little-endian loads and stores of every multi-byte field. No-ops on little-endian hosts (the compiler
// turns the memcpy into a plain load), byte swaps elsewhere. Never cast packed structs onto bytes.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace dbdf {

template <class T>
T byteswap_value(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    for (std::size_t i = 0; i < sizeof(T) / 2; ++i) {
        unsigned char tmp = bytes[i];
        bytes[i] = bytes[sizeof(T) - 1 - i];
        bytes[sizeof(T) - 1 - i] = tmp;
    }
    std::memcpy(&value, bytes, sizeof(T));
    return value;
}

template <class T>
T load_le(const std::byte* source) {
    T value;
    std::memcpy(&value, source, sizeof(T));
    if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) value = byteswap_value(value);
    return value;
}

template <class T>
void store_le(std::byte* target, T value) {
    if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) value = byteswap_value(value);
    std::memcpy(target, &value, sizeof(T));
}

inline constexpr bool kHostIsLittleEndian = std::endian::native == std::endian::little;

}  // namespace dbdf
