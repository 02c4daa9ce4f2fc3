#include "narrowing_copy.hpp"

#include <cstring>

namespace dbdf::detail {

template <class E, class T>
void store_converted(const T* values, std::size_t count, std::byte* out) {
    if constexpr (kHostIsLittleEndian) {
        for (std::size_t i = 0; i < count; ++i) {
            const E value = converted_value<E>(values[i]);
            std::memcpy(out + i * sizeof(E), &value, sizeof(E));
        }
    } else {
        for (std::size_t i = 0; i < count; ++i) store_le<E>(out + i * sizeof(E), converted_value<E>(values[i]));
    }
}

#define DBDF_STORE_CONVERTED_INSTANCE(E, T) template void store_converted<E, T>(const T*, std::size_t, std::byte*);
DBDF_STORE_CONVERTED_PAIRS(DBDF_STORE_CONVERTED_INSTANCE)
#undef DBDF_STORE_CONVERTED_INSTANCE

}  // namespace dbdf::detail
