#include "narrowing_copy.hpp"

namespace dbdf::detail {

#define DBDF_STORE_CONVERTED_INSTANCE(E, T) template void store_converted<E, T>(const T*, std::size_t, std::byte*);
DBDF_STORE_CONVERTED_PAIRS(DBDF_STORE_CONVERTED_INSTANCE)
#undef DBDF_STORE_CONVERTED_INSTANCE

}  // namespace dbdf::detail
