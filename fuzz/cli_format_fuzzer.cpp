// libFuzzer target for the readers of the command-line tool's foreign formats (.npy, .mtx, .csv, Futhark binary
// data): any input is
// converted to .dbdf with automatic encoding and must end in success or in the tool's own error (CliError, exit
// code 1 or 2). A crash, a sanitizer report, any other exception, a hang or an allocation beyond libFuzzer's
// -malloc_limit_mb is a bug. Built once per format; DBDF_FUZZ_FORMAT (npy, mtx, csv, futhark) names the row of the tool's
// format table whose reader it runs.
//
// The converters read and write files (they map their input and write atomically), so each input goes through a
// private directory in /dev/shm; nothing there outlives a run.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "formats/format_table.hpp"
#include "handles.hpp"
#include "scratch_directory.hpp"

#ifndef DBDF_FUZZ_FORMAT
#error "DBDF_FUZZ_FORMAT must name the format: npy, mtx, csv or futhark"
#endif
#define DBDF_FUZZ_STRINGIFY_INNER(x) #x
#define DBDF_FUZZ_STRINGIFY(x) DBDF_FUZZ_STRINGIFY_INNER(x)

namespace {

constexpr std::string_view kFormat = DBDF_FUZZ_STRINGIFY(DBDF_FUZZ_FORMAT);

using dbdf_fuzz::scratch;

const dbdf_cli::ConversionFormat& fuzzed_format() {
    static const dbdf_cli::ConversionFormat* format = [] {
        const dbdf_cli::ConversionFormat* named = dbdf_cli::format_named(kFormat);
        if (named == nullptr || named == &dbdf_cli::dbdf_format()) {
            std::fprintf(stderr, "DBDF_FUZZ_FORMAT %s is not a format of the table other than dbdf (%s)\n",
                         std::string(kFormat).c_str(), dbdf_cli::format_names().c_str());
            std::abort();
        }
        return named;
    }();
    return *format;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // A format without a standard extension (Futhark's binary data) is named by its row, as --from names it.
    const auto& extensions = fuzzed_format().extensions;
    const std::filesystem::path input =
        scratch().path() / ("input" + (extensions.empty() ? ".bin" : std::string(extensions[0])));
    const std::filesystem::path output = scratch().path() / "output.dbdf";
    {
        std::ofstream file(input, std::ios::binary | std::ios::trunc);
        file.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        if (!file) std::abort();
    }
    try {
        fuzzed_format().to_dbdf(dbdf_cli::Conversion{input.string(), output.string(), {}, "", ""});
        // What was written must be a valid .dbdf object.
        dbdf_reader_t* reader = nullptr;
        if (dbdf_reader_open_file(output.string().c_str(), &reader) != DBDF_OK) std::abort();
        uint64_t violations = 0;
        const dbdf_status_t status = dbdf_reader_validate(reader, nullptr, nullptr, &violations);
        dbdf_reader_free(reader);
        if (status != DBDF_OK || violations != 0) std::abort();
    } catch (const dbdf_cli::CliError&) {
        // The tool's own clear error: what the target expects for malformed input.
    }
    std::error_code ignored;
    std::filesystem::remove(output, ignored);
    return 0;
}
