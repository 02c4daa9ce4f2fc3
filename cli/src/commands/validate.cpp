// dbdf validate: every rule, every violation with its rule and byte offset. Exit 0 valid, 1 invalid, 2 I/O.
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "../dialect_hint.hpp"
#include "../handles.hpp"
#include "commands.hpp"

namespace dbdf_cli {

int run_validate(const ValidateOptions& options) {
    const std::string& file = options.file;
    dbdf_open_options_t open_options = DBDF_OPEN_OPTIONS_INIT;
    open_options.dialect = parse_dialect(options.dialect);
    dbdf_reader_t* raw = nullptr;
    const dbdf_status_t opened = dbdf_reader_open_file_with_options(file.c_str(), &open_options, &raw);
    if (opened == DBDF_ERR_IO || opened == DBDF_ERR_NOMEM) check(opened, file);
    if (opened == DBDF_ERR_UNSUPPORTED) check(opened, file);
    const bool spec = open_options.dialect == DBDF_DIALECT_SPEC;
    if (opened != DBDF_OK) {
        fmt::print("{}: {}\n", file, dbdf_last_error_message());
        if (spec && reads_as_daphne(file)) fmt::print(stderr, "{}\n", kDaphneDialectHint);
        return 1;
    }
    Reader reader(raw);
    std::uint64_t violations = 0;
    const dbdf_status_t status = dbdf_reader_validate(
        reader.get(),
        [](void* context, int rule, uint64_t offset, const char* message) {
            const auto* name = static_cast<const std::string*>(context);
            const std::string rule_text = rule == 0 ? "spec layout" : fmt::format("rule {}", rule);
            fmt::print("{}: {} at byte {}: {}\n", *name, rule_text, offset, message);
        },
        const_cast<std::string*>(&file), &violations);
    if (status == DBDF_OK) {
        fmt::print("ok\n");
        return 0;
    }
    if (status == DBDF_ERR_FORMAT || status == DBDF_ERR_TRUNCATED || status == DBDF_ERR_RANGE) {
        fmt::print(stderr, "{}: {} violation{}\n", file, violations, violations == 1 ? "" : "s");
        if (spec && reads_as_daphne(file)) fmt::print(stderr, "{}\n", kDaphneDialectHint);
        return 1;
    }
    check(status, file);
    return 2;
}

}  // namespace dbdf_cli
