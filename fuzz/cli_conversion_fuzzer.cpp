// libFuzzer target for the command-line tool's conversions from .dbdf: the input (after two option bytes) is a .dbdf
// file, converted to .dbdf with a fuzzer-chosen block shape and encoding, then to every other format of the tool's
// format table (.npy, .mtx, .csv, ...). Each must end
// in success or in the tool's own error (CliError). A crash, a sanitizer report, any other exception, a hang or an
// allocation beyond libFuzzer's -malloc_limit_mb is a bug.
//
// A valid file of a few dozen bytes may describe a matrix of 2^64 cells, whose text is astronomically large; such
// conversions must stream. So the process's file size limit (RLIMIT_FSIZE) is set to 1 MiB, as `ulimit -f` would,
// and a write beyond it fails like a full disk (the tool ignores SIGXFSZ): a conversion that streams stops there
// with its error, one that floods memory or loops without writing is found by -malloc_limit_mb or -timeout. 1 MiB is
// about 40,000 empty blocks, enough to show that tiles stream while keeping a sanitized run well inside -timeout.
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/format_table.hpp"
#include "handles.hpp"
#include "scratch_directory.hpp"

namespace {

constexpr rlim_t kOutputLimitBytes = rlim_t{1} << 20;

using dbdf_fuzz::scratch;

void limit_output_size() {
    static const bool limited = [] {
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{kOutputLimitBytes, kOutputLimitBytes};
        if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) std::abort();
        return true;
    }();
    (void)limited;
}

// The .dbdf to .dbdf settings from one byte: the encoding (auto, dense, csr, coo, as-is) and whether a block shape
// is given, and the shape from another: 1 to 16 rows and columns, small enough that a tile's buffer stays small
// while a large object yields many tiles.
dbdf_cli::OutputSettings reencoding_settings(std::uint8_t choice, std::uint8_t shape) {
    dbdf_cli::OutputSettings settings;
    constexpr dbdf_encoding_t kEncodings[] = {DBDF_ENCODING_AUTO, DBDF_ENCODING_DENSE, DBDF_ENCODING_CSR,
                                              DBDF_ENCODING_COO};
    const unsigned encoding = choice % 5;
    if (encoding == 4) {
        settings.keep_blocks = true;
        return settings;
    }
    settings.options.encoding = kEncodings[encoding];
    if ((choice / 5) % 2 == 1) {
        settings.options.block_rows = 1 + (shape & 0x0F);
        settings.options.block_cols = 1 + (shape >> 4);
    }
    return settings;
}

template <class Convert>
void attempt(const Convert& convert, const std::filesystem::path& output) {
    try {
        convert();
    } catch (const dbdf_cli::CliError&) {
        // The tool's own clear error: what the target expects for malformed input and for outputs beyond the limit.
    }
    std::error_code ignored;
    std::filesystem::remove(output, ignored);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    limit_output_size();
    const std::filesystem::path input = scratch().path() / "input.dbdf";
    {
        std::ofstream file(input, std::ios::binary | std::ios::trunc);
        file.write(reinterpret_cast<const char*>(data + 2), static_cast<std::streamsize>(size - 2));
        if (!file) std::abort();
    }
    const std::string in = input.string();
    for (const dbdf_cli::ConversionFormat& format : dbdf_cli::conversion_formats()) {
        const bool reencoding = &format == &dbdf_cli::dbdf_format();
        const std::filesystem::path output =
            scratch().path() / ("output" + (format.extensions.empty() ? "." + std::string(format.name)
                                                                      : std::string(format.extensions[0])));
        // --densify, so that a sparse input reaches the Futhark writer too (other formats ignore it).
        const dbdf_cli::Conversion conversion{
            in,
            output.string(),
            reencoding ? reencoding_settings(data[0], data[1]) : dbdf_cli::OutputSettings{},
            "",
            "",
            true};
        attempt([&] { format.from_dbdf(conversion); }, output);
    }
    return 0;
}
