// A 128-bit unsigned integer for sizes and cell counts that must not overflow (products of two uint64 values).
#pragma once

namespace dbdf::detail {

__extension__ typedef unsigned __int128 WideCount;

}  // namespace dbdf::detail
