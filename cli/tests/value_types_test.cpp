// The tool's one dispatch over dbdf.h's value types (cli/src/value_types.hpp) against what the library says about
// each type, and the typed code built on it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../src/number_text.hpp"
#include "../src/typed_values.hpp"
#include "../src/value_types.hpp"
#include "dbdf.h"

namespace {

using dbdf_cli::all_value_types;
using dbdf_cli::is_float_type;
using dbdf_cli::visit_value_type;

TEST(CliValueTypes, TheToolKnowsEveryTypeOfTheLibraryInCodeOrder) {
    const auto& types = all_value_types();
    ASSERT_EQ(types.size(), 10u);  // the spec's ten
    for (std::size_t i = 0; i < types.size(); ++i) EXPECT_EQ(static_cast<int>(types[i]), static_cast<int>(i) + 1);
    EXPECT_EQ(types.front(), DBDF_VALUE_U8);
    EXPECT_EQ(types.back(), DBDF_VALUE_F64);
}

TEST(CliValueTypes, EachTypesCppTypeHasTheLibrarysSizeAndKind) {
    for (const dbdf_value_type_t type : all_value_types()) {
        const std::string name = dbdf_value_type_name(type);
        SCOPED_TRACE(name);
        visit_value_type(type, [&](auto tag) {
            using T = typename decltype(tag)::type;
            EXPECT_EQ(sizeof(T), dbdf_value_type_size(type));
            // The library's names say the kind: u.., i.., f..
            const char kind = std::is_floating_point_v<T> ? 'f' : std::is_signed_v<T> ? 'i' : 'u';
            EXPECT_EQ(name.front(), kind);
            EXPECT_EQ(name.substr(1), std::to_string(sizeof(T) * 8));
        });
        EXPECT_EQ(is_float_type(type), name.front() == 'f');
    }
    EXPECT_FALSE(is_float_type(DBDF_VALUE_NONE));
}

// Codes that are no value type, within the enum's range of values (0 to 15: casting a code outside it to the enum is
// undefined in C++, which clang's UndefinedBehaviorSanitizer reports).
TEST(CliValueTypes, CodesOutsideTheEnumAreRefusedNotReadAsF64) {
    for (const int code : {0, 11, 15}) {
        bool visited = false;
        EXPECT_THROW(visit_value_type(static_cast<dbdf_value_type_t>(code), [&](auto) { visited = true; }),
                     std::logic_error)
            << code;
        EXPECT_FALSE(visited);
    }
}

TEST(CliValueTypes, NumbersAreStoredInTheirTypesCell) {
    const dbdf_cli::NumberText minus_two = dbdf_cli::classify_number("-2");
    const dbdf_cli::NumberText half = dbdf_cli::classify_number("0.5");
    for (const dbdf_value_type_t type : all_value_types()) {
        SCOPED_TRACE(dbdf_value_type_name(type));
        const std::string name = dbdf_value_type_name(type);
        std::uint8_t cell[8] = {};
        EXPECT_EQ(dbdf_cli::store_number_in(minus_two, type, cell), name.front() != 'u');
        EXPECT_EQ(dbdf_cli::number_fits(half, type), name.front() == 'f');
        if (name.front() != 'u') {
            EXPECT_EQ(dbdf_cli::TypedBuffer::value_text(type, cell), "-2");
        }
    }
}

TEST(CliValueTypes, FileTextOfAnF32IsItsValueAsAnF64) {
    dbdf_cli::TypedBuffer buffer(DBDF_VALUE_F32, 1);
    const float tenth = 0.1f;
    std::memcpy(buffer.at(0), &tenth, sizeof tenth);
    std::string text;
    buffer.append_file_text(0, text);
    EXPECT_EQ(text, "0.10000000149011612");
    EXPECT_EQ(buffer.text(0), "0.1");
}

}  // namespace
