// Which byte layout a file follows: the published spec, or the dialect DAPHNE's runtime really writes
// (compat/daphne-runtime/DIALECT.md: its own value type codes, CSR as three arrays with 64-bit indices, frames
// without a block header, a scalar form). The dialect is always chosen explicitly; nothing guesses it, and
// strict spec reading never accepts the daphne layout.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "dbdf/types.hpp"

namespace dbdf {

enum class Dialect : std::uint8_t { Spec = 0, Daphne = 1 };

std::string_view name(Dialect dialect);                       // "spec", "daphne"; "unknown"
std::optional<Dialect> parse_dialect(std::string_view text);  // "spec", "daphne"

// DAPHNE's ValueTypeCode for a value type (0 SI8, 1 SI32, 2 SI64, 3 UI8, 4 UI32, 5 UI64, 6 F32, 7 F64);
// nullopt for u16, i16 and None, which have no code.
std::optional<std::uint8_t> daphne_value_code(ValueType type);
// The value type that DAPHNE code `code` stands for; nullopt for 8 (STR), 9 (FIXEDSTR16), 10 and above.
std::optional<ValueType> value_type_of_daphne_code(std::uint8_t code);
// The value type name DAPHNE's .meta files use ("si8" ... "f64"); empty for types without a DAPHNE code.
std::string_view daphne_meta_name(ValueType type);

}  // namespace dbdf
