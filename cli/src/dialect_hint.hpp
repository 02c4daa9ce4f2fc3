// The dialect is never guessed; when a file fails in the spec dialect, the tool may still say that it reads
// completely in the daphne dialect, so that the user can choose it.
#pragma once

#include <string>

#include "handles.hpp"

namespace dbdf_cli {

inline constexpr const char* kDaphneDialectHint = "this looks like the daphne dialect; try --dialect daphne";

// Whether the whole file reads in the daphne dialect: header, blocks and every payload check.
inline bool reads_as_daphne(const std::string& file) {
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    dbdf_reader_t* raw = nullptr;
    if (dbdf_reader_open_file_with_options(input_to_open(file).c_str(), &options, &raw) != DBDF_OK) return false;
    Reader reader(raw);
    std::uint64_t violations = 0;
    return dbdf_reader_validate(reader.get(), nullptr, nullptr, &violations) == DBDF_OK;
}

}  // namespace dbdf_cli
