// dbdf: inspect, validate, print and convert .dbdf files. A client of dbdf.h like any other program.
#include <csignal>
#include <cstdio>
#include <new>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands/commands.hpp"
#include "formats/format_table.hpp"
#include "handles.hpp"
#include "signal_cleanup.hpp"
#include "terminal_text.hpp"

int main(int argc, char** argv) {
    using namespace dbdf_cli;
    // An output that outgrows the file size limit (ulimit -f) should fail like a full disk, with a message, exit 2 and
    // its temporary file removed; by default the kernel kills the process instead (SIGXFSZ), leaving that file behind.
    std::signal(SIGXFSZ, SIG_IGN);
    remove_temporary_files_on_signals();
    CLI::App app{fmt::format("dbdf {}: the DAPHNE binary data format (.dbdf) tool", dbdf_version_string())};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string(dbdf_version_string()));
    // Usage errors start with "dbdf: " like every other error of the tool.
    app.failure_message([](const CLI::App* failed, const CLI::Error& error) {
        return "dbdf: " + CLI::FailureMessage::simple(failed, error);
    });

    InfoOptions info;
    auto* info_command = app.add_subcommand(
        "info", "Show the header, every block and how the space is used (`dbdf map` draws the blocks)");
    info_command->add_option("FILE", info.file, "a .dbdf file (- for standard input)")->required();
    info_command->add_flag("--json", info.json, "print one JSON document (fields in cli/README.md)");
    info_command->add_flag("--non-zeros", info.non_zeros,
                           "also count each block's non-zeros, which reads every dense block's values");
    const std::string dialect_help = "layout of the file: spec (default) or daphne (DAPHNE's runtime)";
    info_command->add_option("--dialect", info.dialect, dialect_help);

    ValidateOptions validate;
    auto* validate_command =
        app.add_subcommand("validate", "Check every rule; exit 0 valid, 1 invalid or refused, 2 usage or I/O error");
    validate_command->add_option("FILE", validate.file, "a .dbdf file (- for standard input)")->required();
    validate_command->add_option("--dialect", validate.dialect, dialect_help);

    CatOptions cat;
    auto* cat_command = app.add_subcommand("cat", "Print values as aligned text (a window; frames with labels)");
    cat_command->add_option("FILE", cat.file, "a .dbdf file (- for standard input)")->required();
    cat_command->add_option("--rows", cat.rows, "rows A:B (end exclusive; either bound may be left out)");
    cat_command->add_option("--cols", cat.cols, "columns A:B");
    cat_command->add_option("--limit", cat.limit_rows, "rows shown when --rows is not given")->capture_default_str();
    cat_command->add_option("--dialect", cat.dialect, dialect_help);

    ConvertOptions convert;
    auto* convert_command = app.add_subcommand(
        "convert", fmt::format("Convert between .dbdf and {}, or re-encode .dbdf (formats by extension)",
                               other_formats_extensions()));
    convert_command->add_option("IN", convert.input, "input file (- for standard input, with --from)")->required();
    convert_command
        ->add_option("OUT", convert.output, "output file (written atomically; - for standard output, with --to)")
        ->required();
    convert_command->add_option("--from", convert.from, "input format: " + format_names());
    convert_command->add_option("--to", convert.to, "output format: " + format_names());
    convert_command->add_option("--encoding", convert.encoding, "auto, dense, csr, coo or as-is")
        ->capture_default_str();
    convert_command->add_option("--block", convert.block, "block shape ROWSxCOLS (default: blocks of about 4 MiB)");
    convert_command->add_option("--value-type", convert.value_type,
                                "value type of the output (u8..i64, f32, f64); exact or an error");
    convert_command->add_option("--data-type", convert.data_type, "dense, csr or frame");
    convert_command->add_option("--schema", convert.schema, "CSV frames: column types as name:type,name:type");
    convert_command->add_option("--header", convert.header,
                                "CSV input: whether the first row holds labels: yes, no or auto (default)");
    convert_command->add_option("--dialect", convert.dialect,
                                "dialect of a .dbdf input: spec or daphne (same as --dialect-in)");
    convert_command->add_option("--dialect-in", convert.dialect_in, "dialect of a .dbdf input: spec or daphne");
    convert_command->add_option("--dialect-out", convert.dialect_out,
                                "dialect of a .dbdf output: spec or daphne (one block, and OUT.meta for DaphneDSL)");
    convert_command->add_flag("--no-meta", convert.no_meta, "daphne output: do not write OUT.meta");
    convert_command->add_flag("--densify", convert.densify,
                              "Futhark output: write a sparse (CSR) input as dense arrays (refused otherwise)");
    convert_command->add_flag("--bool", convert.bool_elements,
                              "Futhark output: write u8 values (each 0 or 1) as Futhark bool");

    MapOptions map;
    auto* map_command = app.add_subcommand(
        "map", "Draw the object's blocks as an SVG picture (position, shape, block type, values per cell)");
    map_command->add_option("FILE", map.file, "a .dbdf file (- for standard input)")->required();
    map_command->add_option("OUT", map.output, "the SVG file to write (written atomically; - for standard output)")
        ->required();
    map_command->add_option("--dialect", map.dialect, dialect_help);

    const std::string exit_codes =
        "Exit codes: 0 success; 1 the input is invalid or refused, or a value does not fit; 2 usage or I/O error.";
    app.footer(exit_codes);
    for (CLI::App* command : app.get_subcommands({})) command->footer(exit_codes);
    convert_command->footer(formats_help() + "\n" + exit_codes);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        // CLI11 gives each kind of usage error its own exit code (104, 105, 106, 109, ...); the tool promises 2 for
        // every usage error so that scripts can tell them from an invalid file (1). --help and --version stay 0.
        return app.exit(error) == 0 ? kExitOk : kExitUsageOrIo;
    }
    try {
        if (*info_command) return run_info(info);
        if (*validate_command) return run_validate(validate);
        if (*cat_command) return run_cat(cat);
        if (*convert_command) return run_convert(convert);
        if (*map_command) return run_map(map);
    } catch (const CliError& error) {
        std::fflush(stdout);
        // Messages may quote a file's name or what it holds (a line of a text input): escaped.
        fmt::print(stderr, "dbdf: {}\n", terminal_text(error.what()));
        if (!error.hint().empty()) fmt::print(stderr, "{}\n", error.hint());
        return error.exit_code();
    } catch (const std::exception& error) {
        // Not an error the commands foresaw (memory running out while a conversion buffers its input, say): still
        // name the file being worked on.
        const std::string& file = *info_command       ? info.file
                                  : *validate_command ? validate.file
                                  : *cat_command      ? cat.file
                                  : *map_command      ? map.file
                                                      : convert.input;
        const bool out_of_memory = dynamic_cast<const std::bad_alloc*>(&error) != nullptr;
        std::fflush(stdout);
        fmt::print(stderr, "dbdf: {}: {}\n", terminal_text(file),
                   terminal_text(out_of_memory ? "out of memory" : error.what()));
        return kExitUsageOrIo;
    }
    return kExitUsageOrIo;
}
