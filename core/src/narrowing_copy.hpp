// Storing a run of values in another value type, little-endian, as one loop the compiler vectorizes: the payload
// of a block that automatic encoding narrowed (f64 -> u8 / i8 / i16 / i32 / f32, i64 -> i32, ...). The caller has
// established that every value converts exactly (rule 9), so nothing is checked here and nothing rounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "dbdf/endian.hpp"
#include "dbdf/types.hpp"

namespace dbdf::detail {

// The type a float-to-integer conversion goes through: int32 for targets it holds, which SSE2 converts two or four
// at a time (cvttpd2dq, cvttps2dq), then a truncation to the target's width; the target itself otherwise.
template <class E, class T>
using ConversionStep =
    std::conditional_t<std::is_floating_point_v<T> && std::is_integral_v<E> &&
                           std::numeric_limits<E>::digits <= std::numeric_limits<std::int32_t>::digits,
                       std::int32_t, E>;

template <class E, class T>
inline E converted_value(T value) {
    return static_cast<E>(static_cast<ConversionStep<E, T>>(value));
}

// out[i * sizeof(E)] = values[i] as E, little-endian, for i < count. `out` needs no alignment.
template <class E, class T>
void store_converted(const T* values, std::size_t count, std::byte* out);

// Defined and instantiated for every pair of value types in narrowing_copy.cpp, which is compiled with the loop
// vectorizer on: out of sight here, so that no caller inlines a copy of the loop built without it. The C++ types
// are those of DBDF_VALUE_TYPES (types.hpp), listed again because an X-macro cannot expand inside itself to form
// pairs; the static_assert below stops the build when the two lists differ in length.
// clang-format off
#define DBDF_STORE_CONVERTED_TO(T, X) \
    X(std::uint8_t, T)                \
    X(std::uint16_t, T)               \
    X(std::uint32_t, T)               \
    X(std::uint64_t, T)               \
    X(std::int8_t, T)                 \
    X(std::int16_t, T)                \
    X(std::int32_t, T)                \
    X(std::int64_t, T)                \
    X(float, T)                       \
    X(double, T)
#define DBDF_STORE_CONVERTED_PAIRS(X)             \
    DBDF_STORE_CONVERTED_TO(std::uint8_t, X)      \
    DBDF_STORE_CONVERTED_TO(std::uint16_t, X)     \
    DBDF_STORE_CONVERTED_TO(std::uint32_t, X)     \
    DBDF_STORE_CONVERTED_TO(std::uint64_t, X)     \
    DBDF_STORE_CONVERTED_TO(std::int8_t, X)       \
    DBDF_STORE_CONVERTED_TO(std::int16_t, X)      \
    DBDF_STORE_CONVERTED_TO(std::int32_t, X)      \
    DBDF_STORE_CONVERTED_TO(std::int64_t, X)      \
    DBDF_STORE_CONVERTED_TO(float, X)             \
    DBDF_STORE_CONVERTED_TO(double, X)
// clang-format on
#define DBDF_STORE_CONVERTED_COUNT_ONE(E, T) +1
static_assert((0 DBDF_STORE_CONVERTED_TO(double, DBDF_STORE_CONVERTED_COUNT_ONE)) == kValueTypeCount,
              "DBDF_STORE_CONVERTED_TO must list the C++ type of every value type of DBDF_VALUE_TYPES");
#undef DBDF_STORE_CONVERTED_COUNT_ONE
#define DBDF_STORE_CONVERTED_EXTERN(E, T) extern template void store_converted<E, T>(const T*, std::size_t, std::byte*);
DBDF_STORE_CONVERTED_PAIRS(DBDF_STORE_CONVERTED_EXTERN)
#undef DBDF_STORE_CONVERTED_EXTERN

}  // namespace dbdf::detail
