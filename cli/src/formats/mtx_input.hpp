// Reading a Matrix Market (.mtx) file: the banner and the size line, then the entries one at a time with the line
// each comes from, so that errors found later (a duplicate entry) can still name the line.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "dbdf.h"
#include "text_lines.hpp"

namespace dbdf_cli {

enum class MtxField { Real, Integer, Pattern };
enum class MtxSymmetry { General, Symmetric, SkewSymmetric };

struct MtxLayout {
    bool coordinate = true;  // coordinate (entries in any order) or array (every value, column-major)
    MtxField field = MtxField::Real;
    MtxSymmetry symmetry = MtxSymmetry::General;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    std::uint64_t entries = 0;  // value lines: the announced count, or rows x cols for arrays
    bool needs_u64 = false;     // an integer file holds a value above 2^63 - 1 (and no negative one)

    // Integer files hold i64 values, or u64 when one needs it; real and pattern files f64 (pattern entries are
    // ones). An integer file's type is known once its entries have been read.
    dbdf_value_type_t value_type() const {
        if (field != MtxField::Integer) return DBDF_VALUE_F64;
        return needs_u64 ? DBDF_VALUE_U64 : DBDF_VALUE_I64;
    }
};

class MtxInput {
public:
    // Opens the file, which must be a regular file (input_file.hpp), and reads the banner and size line; throws
    // CliError (exit 1) naming the file and line. Lines are at most TextLines::kMaxLineBytes long.
    explicit MtxInput(const std::string& path);

    const MtxLayout& layout() const { return layout_; }

    // The value of one entry as 8 bytes of the layout's value type (i64, u64 or f64: i64 and u64 share the bytes of
    // the values both hold), its 0-based position and the line.
    using OnEntry = std::function<void(std::uint64_t line, std::uint64_t row, std::uint64_t col, const void* value)>;

    // Reads every entry once, in file order (array files: column-major positions), and checks their number.
    // Mirrored entries of symmetric files are not made here. Integer values that fit neither i64 nor u64, or that
    // need both (a negative value and one above 2^63 - 1), are errors naming their lines; a real value is stored
    // as number_text.hpp says (an integer text only when f64 holds it exactly).
    void read_entries(const OnEntry& on_entry);

    [[noreturn]] void invalid(std::uint64_t line, const std::string& what) const;

    // Bytes of the file read so far, and its size: the progress of reading it.
    std::uint64_t bytes_read() const { return lines_.bytes_read(); }
    std::uint64_t file_size() const { return lines_.file_size(); }

private:
    void check_announced_entries_fit() const;

    TextLines lines_;
    MtxLayout layout_;
};

}  // namespace dbdf_cli
