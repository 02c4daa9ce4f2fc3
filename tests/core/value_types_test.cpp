// The list of value types (DBDF_VALUE_TYPES in types.hpp) against the spec, NumPy and DAPHNE, and everything derived
// from it: codes, names, sizes, C++ types, npy and DAPHNE codes, the dispatch, the narrowing order.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "dbdf/dialect.hpp"
#include "dbdf/error.hpp"
#include "dbdf/types.hpp"
#include "value_analysis.hpp"

namespace dbdf {
namespace {

// The spec's table of value types (code, name, size), written out from the spec rather than from the list.
struct SpecRow {
    unsigned code;
    std::string_view name;
    std::size_t size;
};
constexpr SpecRow kSpecRows[] = {
    {1, "u8", 1},  {2, "u16", 2}, {3, "u32", 4}, {4, "u64", 8}, {5, "i8", 1},
    {6, "i16", 2}, {7, "i32", 4}, {8, "i64", 8}, {9, "f32", 4}, {10, "f64", 8},
};

TEST(ValueTypes, TheListHoldsTheSpecsTypesWithCodesOneToNWithoutGaps) {
    ASSERT_EQ(kValueTypeCount, std::size(kSpecRows));
    for (std::size_t i = 0; i < kValueTypeCount; ++i) {
        const ValueTypeInfo& info = kValueTypeInfos[i];
        SCOPED_TRACE(std::string(info.name));
        EXPECT_EQ(static_cast<unsigned>(info.type), i + 1);
        EXPECT_EQ(static_cast<unsigned>(info.type), kSpecRows[i].code);
        EXPECT_EQ(info.name, kSpecRows[i].name);
        EXPECT_EQ(info.size, kSpecRows[i].size);
        EXPECT_EQ(value_size(info.type), kSpecRows[i].size);
        EXPECT_TRUE(is_valid(info.type));
        EXPECT_EQ(find_value_type_info(info.type), &info);
    }
}

TEST(ValueTypes, CodesOutsideTheListAreNotValueTypes) {
    for (const unsigned code : {0u, 11u, 12u, 255u}) {
        const auto type = static_cast<ValueType>(code);
        SCOPED_TRACE(code);
        EXPECT_FALSE(is_valid(type));
        EXPECT_EQ(find_value_type_info(type), nullptr);
        EXPECT_EQ(value_size(type), 0u);
        EXPECT_FALSE(is_float(type) || is_signed_integer(type) || is_unsigned_integer(type));
        EXPECT_FALSE(daphne_value_code(type).has_value());
        EXPECT_EQ(npy_code(type), "");
        EXPECT_EQ(daphne_meta_name(type), "");
    }
    EXPECT_EQ(name(ValueType::None), "none");
    EXPECT_EQ(name(static_cast<ValueType>(11)), "unknown");
    EXPECT_EQ(invalid_value_type_reason(0), " is reserved");
    EXPECT_EQ(invalid_value_type_reason(11), " is unknown (valid: 1..10)");
}

TEST(ValueTypes, NamesAreUniqueAndParseBackToTheirCode) {
    std::set<std::string_view> seen{"none"};
    for (const ValueTypeInfo& info : kValueTypeInfos) {
        SCOPED_TRACE(std::string(info.name));
        EXPECT_TRUE(seen.insert(info.name).second);
        EXPECT_TRUE(seen.insert(info.long_name).second);
        EXPECT_EQ(name(info.type), info.name);
        EXPECT_EQ(parse_value_type(info.name), info.type);
        EXPECT_EQ(parse_value_type(info.long_name), info.type);
    }
    // The aliases outside the list name what they always named, and none of them is a name of the list.
    for (const auto& [alias, type] : {std::pair{"float", ValueType::F32}, std::pair{"double", ValueType::F64},
                                      std::pair{"si32", ValueType::I32}, std::pair{"si64", ValueType::I64}}) {
        EXPECT_TRUE(seen.insert(alias).second) << alias;
        EXPECT_EQ(parse_value_type(alias), type) << alias;
    }
    for (const char* refused : {"none", "unknown", "U8", "f16", "bool", "ui8", ""}) {
        EXPECT_FALSE(parse_value_type(refused).has_value()) << refused;
    }
}

TEST(ValueTypes, KindsAndCppTypesAgree) {
    for (const ValueTypeInfo& info : kValueTypeInfos) {
        SCOPED_TRACE(std::string(info.name));
        visit_value_type(info.type, [&](auto tag) {
            using T = typename decltype(tag)::type;
            EXPECT_EQ(sizeof(T), info.size);
            EXPECT_EQ(value_type_v<T>, info.type);
            EXPECT_EQ(std::is_floating_point_v<T>, info.kind == ValueKind::Float);
            EXPECT_EQ(std::is_integral_v<T> && std::is_signed_v<T>, info.kind == ValueKind::Signed);
            EXPECT_EQ(std::is_unsigned_v<T>, info.kind == ValueKind::Unsigned);
        });
        EXPECT_EQ(is_float(info.type), info.kind == ValueKind::Float);
        EXPECT_EQ(is_signed_integer(info.type), info.kind == ValueKind::Signed);
        EXPECT_EQ(is_unsigned_integer(info.type), info.kind == ValueKind::Unsigned);
    }
    EXPECT_EQ(value_type_v<std::int16_t>, ValueType::I16);
    EXPECT_EQ(value_type_v<float>, ValueType::F32);
}

TEST(ValueTypes, ForEachVisitsEveryTypeOnceInCodeOrder) {
    unsigned expected_code = 1;
    for_each_value_type([&](auto tag) {
        EXPECT_EQ(static_cast<unsigned>(value_type_v<typename decltype(tag)::type>), expected_code);
        ++expected_code;
    });
    EXPECT_EQ(expected_code, kValueTypeCount + 1);
}

TEST(ValueTypes, DispatchRefusesCodesOutsideTheListInsteadOfGuessing) {
    for (const unsigned code : {0u, 11u, 200u}) {
        bool visited = false;
        try {
            visit_value_type(static_cast<ValueType>(code), [&](auto) { visited = true; });
            ADD_FAILURE() << "code " << code << " was dispatched";
        } catch (const Error& error) {
            EXPECT_EQ(error.code(), ErrorCode::Internal);
            EXPECT_NE(std::string(error.what()).find("value type code " + std::to_string(code)), std::string::npos)
                << error.what();
        }
        EXPECT_FALSE(visited);
    }
}

// NumPy's dtype codes: kind character (u, i, f) and item size in bytes.
TEST(ValueTypes, NpyCodesAreNumpysKindAndItemSize) {
    std::set<std::string_view> seen;
    for (const ValueTypeInfo& info : kValueTypeInfos) {
        SCOPED_TRACE(std::string(info.name));
        const char kind = info.kind == ValueKind::Float ? 'f' : info.kind == ValueKind::Signed ? 'i' : 'u';
        EXPECT_EQ(info.npy_code, std::string(1, kind) + std::to_string(info.size));
        EXPECT_EQ(npy_code(info.type), info.npy_code);
        EXPECT_TRUE(seen.insert(info.npy_code).second);
        EXPECT_EQ(value_type_of_npy_code(info.npy_code), info.type);
    }
    EXPECT_EQ(npy_code(ValueType::F64), "f8");
    EXPECT_EQ(npy_code(ValueType::U8), "u1");
    for (const char* refused : {"<f8", "f2", "b1", "c16", "u", ""}) {
        EXPECT_FALSE(value_type_of_npy_code(refused).has_value()) << refused;
    }
}

// DAPHNE's ValueTypeCode (runtime/local/datastructures/ValueTypeCode.h) and its .meta names, written out from there.
TEST(ValueTypes, DaphneCodesAreThoseOfDaphnesRuntime) {
    const std::pair<ValueType, std::string_view> expected[] = {
        {ValueType::I8, "si8"},   {ValueType::I32, "si32"}, {ValueType::I64, "si64"}, {ValueType::U8, "ui8"},
        {ValueType::U32, "ui32"}, {ValueType::U64, "ui64"}, {ValueType::F32, "f32"},  {ValueType::F64, "f64"},
    };
    for (std::uint8_t code = 0; code < std::size(expected); ++code) {
        const auto& [type, meta_name] = expected[code];
        SCOPED_TRACE(std::string(name(type)));
        EXPECT_EQ(daphne_value_code(type), code);
        EXPECT_EQ(value_type_of_daphne_code(code), type);
        EXPECT_EQ(daphne_meta_name(type), meta_name);
    }
    for (const ValueType without : {ValueType::U16, ValueType::I16, ValueType::None}) {
        EXPECT_FALSE(daphne_value_code(without).has_value());
        EXPECT_EQ(daphne_meta_name(without), "");
    }
    for (const std::uint8_t code : {8, 9, 10, 255}) EXPECT_FALSE(value_type_of_daphne_code(code).has_value());
}

// Narrowing picks the smallest feasible type; among equal sizes the source's kind, then unsigned, signed, float.
TEST(ValueTypes, NarrowingOrderComesFromSizeAndKind) {
    using detail::mask_of;
    using detail::narrowest_type;
    const auto mask = [](std::initializer_list<ValueType> types) {
        detail::TypeMask bits = 0;
        for (const ValueType type : types) bits |= mask_of(type);
        return bits;
    };
    EXPECT_EQ(narrowest_type(mask({ValueType::U8, ValueType::I8, ValueType::I64}), ValueType::I64), ValueType::I8);
    EXPECT_EQ(narrowest_type(mask({ValueType::U8, ValueType::I8, ValueType::U64}), ValueType::U64), ValueType::U8);
    EXPECT_EQ(narrowest_type(mask({ValueType::U8, ValueType::I8, ValueType::F64}), ValueType::F64), ValueType::U8);
    EXPECT_EQ(narrowest_type(mask({ValueType::U32, ValueType::I32, ValueType::F32, ValueType::F64}), ValueType::F64),
              ValueType::F32);
    EXPECT_EQ(narrowest_type(mask({ValueType::I32, ValueType::F32, ValueType::I64}), ValueType::U64), ValueType::I32);
    EXPECT_EQ(narrowest_type(mask({ValueType::F64}), ValueType::F64), ValueType::F64);
    EXPECT_EQ(detail::mask_of_kind(ValueKind::Float), mask({ValueType::F32, ValueType::F64}));
}

}  // namespace
}  // namespace dbdf
