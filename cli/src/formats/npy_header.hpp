// The header of a NumPy .npy file (format versions 1.0, 2.0, 3.0): magic, version, header length, then a Python
// dictionary literal with exactly the keys 'descr', 'fortran_order' and 'shape', padded with spaces and a newline.
// The dictionary is read by a small linear parser of that literal (no regular expressions, whose backtracking
// recursion grows with the text), so a header of any legal length parses in time and stack proportional to it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dbdf.h"

namespace dbdf_cli {

class WindowedInput;

struct NpyHeader {
    dbdf_value_type_t value_type = DBDF_VALUE_NONE;
    bool big_endian = false;
    bool fortran_order = false;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    std::uint64_t data_offset = 0;
};

// The longest header accepted: 1 MiB. NumPy writes headers of tens of kB for arrays with many named fields (which
// dbdf refuses anyway, by their 'descr') and its own loader refuses more than 10,000 bytes unless told to trust the
// file; a longer header is refused before it is read.
inline constexpr std::uint64_t kMaxNpyHeaderBytes = std::uint64_t{1} << 20;

// The dtype code of a value type without its byte-order character ("f8"), the value type of such a code
// (DBDF_VALUE_NONE for a code that is not one of dbdf's value types), and all the codes for messages ("u1, ... f8").
std::string npy_dtype_code(dbdf_value_type_t type);
dbdf_value_type_t npy_value_type(std::string_view code);
std::string npy_dtype_codes_text();

// Parses and checks the header of an .npy file; throws CliError (exit 1) naming the file, the byte and what is wrong.
NpyHeader parse_npy_header(WindowedInput& file);

}  // namespace dbdf_cli
