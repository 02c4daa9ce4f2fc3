// dbdf validate: every rule, every violation with its rule and byte offset. Findings go to stdout (one line each),
// the summary and hints to stderr. Exit 0 valid, 1 invalid or refused, 2 usage or I/O.
#include <cstdio>
#include <regex>
#include <string>

#include <fmt/format.h>

#include "../dialect_hint.hpp"
#include "../handles.hpp"
#include "../terminal_text.hpp"
#include "commands.hpp"

namespace dbdf_cli {
namespace {

struct ValidationTarget {
    std::string file;
    const char* layout_label;  // what a violation of the layout itself (rule 0) is called in this dialect
};

// Layout errors are named after the dialect whose layout they break, as the library's messages do
// (docs/format-decisions.md): "spec layout" for the published format, "daphne dialect" for DAPHNE's runtime.
const char* layout_label(dbdf_dialect_t dialect) {
    return dialect == DBDF_DIALECT_DAPHNE ? "daphne dialect" : "spec layout";
}

// The library's messages end by saying where and which rule (dbdf.h, conventions): " at byte N (rule R)",
// " at byte N (spec layout)" or, in the daphne dialect, " at byte N (daphne dialect)".
const std::regex& where_suffix() {
    static const std::regex kWhere(R"( at byte (\d+) \((?:rule (\d+)|spec layout|daphne dialect)\)$)");
    return kWhere;
}

// "FILE: rule R at byte N: what", the rule and offset first so that findings sort and grep by them; the message's
// own ending that says the same is left out.
void print_finding(const ValidationTarget& target, int rule, uint64_t offset, const char* message) {
    const std::string rule_text = rule == 0 ? std::string(target.layout_label) : fmt::format("rule {}", rule);
    std::string what = message;
    std::smatch where;
    if (std::regex_search(what, where, where_suffix()) && where[1].str() == std::to_string(offset) &&
        (where[2].matched ? where[2].str() == std::to_string(rule) : rule == 0)) {
        what.erase(static_cast<std::size_t>(where.position(0)));
    }
    fmt::print("{}: {} at byte {}: {}\n", terminal_text(target.file), rule_text, offset, terminal_text(what));
}

void print_violation(void* context, int rule, uint64_t offset, const char* message) {
    print_finding(*static_cast<const ValidationTarget*>(context), rule, offset, message);
}

// Findings go to stdout and the summary to stderr; stdout is flushed first so that the two keep their order when
// both go to one terminal or file.
void print_summary(const std::string& text) {
    std::fflush(stdout);
    fmt::print(stderr, "{}\n", terminal_text(text));
}

void print_violation_count(const std::string& file, std::uint64_t violations) {
    print_summary(fmt::format("{}: {} violation{}", file, violations, violations == 1 ? "" : "s"));
}

// A header that breaks a rule stops the file from opening, so dbdf_reader_validate never sees it; the failed open
// leaves its rule and byte offset as the last error's. It is printed like the violations dbdf_reader_validate
// reports.
void print_header_violation(const ValidationTarget& target) {
    const uint64_t offset = dbdf_last_error_offset();
    if (offset != DBDF_NO_OFFSET) {
        print_finding(target, dbdf_last_error_rule(), offset, dbdf_last_error_message());
    } else {
        fmt::print("{}: {}\n", terminal_text(target.file), terminal_text(dbdf_last_error_message()));
    }
}

void suggest_daphne_dialect(const std::string& file, dbdf_dialect_t dialect) {
    if (dialect == DBDF_DIALECT_SPEC && reads_as_daphne(file)) print_summary(kDaphneDialectHint);
}

}  // namespace

int run_validate(const ValidateOptions& options) {
    const dbdf_dialect_t dialect = parse_dialect(options.dialect);
    const ValidationTarget target{options.file, layout_label(dialect)};
    const std::string& file = target.file;
    dbdf_open_options_t open_options = DBDF_OPEN_OPTIONS_INIT;
    open_options.dialect = dialect;
    dbdf_reader_t* raw = nullptr;
    const dbdf_status_t opened = dbdf_reader_open_file_with_options(input_to_open(file).c_str(), &open_options, &raw);
    if (opened == DBDF_ERR_IO || opened == DBDF_ERR_NOMEM) check(opened, file);
    if (opened == DBDF_ERR_UNSUPPORTED) {
        // A file dbdf refuses to serve (a daphne string matrix, say) is not valid input for it: a finding, exit 1.
        fmt::print("{}: unsupported: {}\n", terminal_text(file), terminal_text(dbdf_last_error_message()));
        print_summary(file + ": not valid: dbdf cannot serve this file");
        return kExitInvalid;
    }
    if (opened == DBDF_ERR_FORMAT || opened == DBDF_ERR_TRUNCATED || opened == DBDF_ERR_RANGE) {
        print_header_violation(target);
        print_violation_count(file, 1);
        suggest_daphne_dialect(file, dialect);
        return kExitInvalid;
    }
    check(opened, file);
    Reader reader(raw);
    std::uint64_t violations = 0;
    const dbdf_status_t status =
        dbdf_reader_validate(reader.get(), print_violation, const_cast<ValidationTarget*>(&target), &violations);
    if (status == DBDF_OK) {
        fmt::print("ok\n");
        return kExitOk;
    }
    if (status == DBDF_ERR_FORMAT || status == DBDF_ERR_TRUNCATED || status == DBDF_ERR_RANGE) {
        print_violation_count(file, violations);
        suggest_daphne_dialect(file, dialect);
        return kExitInvalid;
    }
    check(status, file);
    return kExitUsageOrIo;
}

}  // namespace dbdf_cli
