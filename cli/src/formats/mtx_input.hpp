// Reading a Matrix Market (.mtx) file: the banner and the size line, then the entries one at a time with the line
// each comes from, so that errors found later (a duplicate entry) can still name the line.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>

#include "dbdf.h"

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

    // Integer files hold i64 values, real and pattern files f64 (pattern entries are ones).
    dbdf_value_type_t value_type() const { return field == MtxField::Integer ? DBDF_VALUE_I64 : DBDF_VALUE_F64; }
};

class MtxInput {
public:
    // Opens the file and reads the banner and size line; throws CliError (exit 1) naming the file and line.
    explicit MtxInput(const std::string& path);

    const MtxLayout& layout() const { return layout_; }

    // The value of one entry as 8 bytes of the layout's value type (i64 or f64), its 0-based position and the line.
    using OnEntry = std::function<void(std::uint64_t line, std::uint64_t row, std::uint64_t col, const void* value)>;

    // Reads every entry once, in file order (array files: column-major positions), and checks their number.
    // Mirrored entries of symmetric files are not made here.
    void read_entries(const OnEntry& on_entry);

    [[noreturn]] void invalid(std::uint64_t line, const std::string& what) const;

private:
    std::string path_;
    std::ifstream in_;
    std::uint64_t line_number_ = 0;
    MtxLayout layout_;
};

}  // namespace dbdf_cli
