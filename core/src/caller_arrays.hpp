// Caller arrays need not be aligned for their type: the C ABI takes them as void* / uint32_t* / uint64_t*, and a
// NumPy view at an odd offset or a pointer into a packed buffer is a valid argument. Reading or writing such memory
// as T through a T* is undefined behaviour (it faults on some targets and may be miscompiled anywhere), so the core
// touches a caller's array either through the byte-safe loads and stores below (memcpy, which compiles to the same
// plain moves as a typed access), or through an aligned copy of one bounded piece (AlignedScratch). Arrays that are
// aligned take the typed path as they always did.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "dbdf/types.hpp"

namespace dbdf::detail {

inline bool is_aligned_for(const void* array, std::size_t alignment) {
    return reinterpret_cast<std::uintptr_t>(array) % alignment == 0;
}

template <class T>
bool is_aligned_for(const void* array) {
    return is_aligned_for(array, alignof(T));
}

// The alignment the C++ type of `type` needs (1 for an invalid code, which the callers refuse elsewhere).
inline std::size_t value_alignment(ValueType type) {
    std::size_t alignment = 1;
    if (is_valid(type)) visit_value_type(type, [&](auto tag) { alignment = alignof(typename decltype(tag)::type); });
    return alignment;
}

// array[index] of a caller's array of T, whatever its address.
template <class T>
T load_element(const void* array, std::uint64_t index) {
    T value;
    std::memcpy(&value, static_cast<const std::byte*>(array) + index * sizeof(T), sizeof(T));
    return value;
}

// array[index] = value in a caller's array of T, whatever its address.
template <class T>
void store_element(void* array, std::uint64_t index, T value) {
    std::memcpy(static_cast<std::byte*>(array) + index * sizeof(T), &value, sizeof(T));
}

// Copies `rows` rows of `row_bytes` bytes from rows `from_pitch` bytes apart to rows `to_pitch` bytes apart: a
// strided caller array to or from a compact staged copy.
inline void copy_rows(void* to, std::uint64_t to_pitch, const void* from, std::uint64_t from_pitch, std::uint64_t rows,
                      std::size_t row_bytes) {
    if (row_bytes == 0) return;
    for (std::uint64_t r = 0; r < rows; ++r) {
        std::memcpy(static_cast<std::byte*>(to) + r * to_pitch, static_cast<const std::byte*>(from) + r * from_pitch,
                    row_bytes);
    }
}

// Bytes up to which one piece of a misaligned caller array is staged at a time (at least one row).
inline constexpr std::uint64_t kStagedPieceBytes = std::uint64_t{4} << 20;

// Memory aligned for every value and index type, for staging a piece of a misaligned caller array. Its contents
// are not initialised; it grows to the largest request and is reused.
class AlignedScratch {
public:
    void* bytes(std::size_t count) {
        const std::size_t words = (count + sizeof(Word) - 1) / sizeof(Word);
        if (words > capacity_words_) {
            words_ = std::make_unique_for_overwrite<Word[]>(words);
            capacity_words_ = words;
        }
        return words_.get();
    }

private:
    using Word = std::uint64_t;  // as aligned as the widest value type (8 bytes)
    std::unique_ptr<Word[]> words_;
    std::size_t capacity_words_ = 0;
};

// A caller's output array, written through an aligned copy when the caller's memory is not aligned for its element
// type (`alignment`): decode into at(bytes), then deliver(bytes) copies what was written to the caller's memory. An
// aligned array is written in place and deliver() does nothing.
class OutputArray {
public:
    OutputArray(void* caller, std::size_t alignment) : caller_(caller), staged_(!is_aligned_for(caller, alignment)) {}

    void* at(std::size_t bytes) { return staged_ ? scratch_.bytes(bytes) : caller_; }
    void deliver(std::size_t bytes) {
        if (staged_ && bytes > 0) std::memcpy(caller_, scratch_.bytes(bytes), bytes);
    }

private:
    void* caller_;
    bool staged_;
    AlignedScratch scratch_;
};

}  // namespace dbdf::detail
