// The tool's subcommands. Each returns the process exit code or throws CliError.
#pragma once

#include <cstdint>
#include <string>

namespace dbdf_cli {

struct InfoOptions {
    std::string file;
    bool json = false;
    bool non_zeros = false;  // count each block's non-zeros, which reads every dense payload
    std::string dialect = "spec";
};
int run_info(const InfoOptions& options);

struct ValidateOptions {
    std::string file;
    std::string dialect = "spec";
};
int run_validate(const ValidateOptions& options);

struct CatOptions {
    std::string file;
    std::string dialect = "spec";
    std::string rows;  // "A:B", empty for the default
    std::string cols;
    std::uint64_t limit_rows = 20;
    std::uint64_t limit_cols = 10;
};
int run_cat(const CatOptions& options);

struct ConvertOptions {
    std::string input;
    std::string output;
    std::string from;  // format of the input: dbdf, npy, mtx, csv, futhark; empty: by extension
    std::string to;    // format of the output
    std::string encoding = "auto";
    std::string block;           // "ROWSxCOLS"
    std::string value_type;      // output value type
    std::string data_type;       // dense, csr, frame
    std::string schema;          // csv frames: "name:type,name:type"
    std::string header;          // csv input: yes, no or auto (empty: auto)
    std::string dialect;         // --dialect: the input's dialect, as --dialect-in
    std::string dialect_in;      // --dialect-in
    std::string dialect_out;     // --dialect-out
    bool no_meta = false;        // --no-meta: no <OUT>.meta for daphne output
    bool densify = false;        // --densify: Futhark output of a CSR input, as dense arrays
    bool bool_elements = false;  // --bool: Futhark output of u8 values as bool
};
int run_convert(const ConvertOptions& options);

struct MapOptions {
    std::string file;
    std::string output;  // the SVG file (written atomically)
    std::string dialect = "spec";
};

int run_map(const MapOptions& options);

}  // namespace dbdf_cli
