// Reads every golden file of tests/vectors/ as vectors.json describes it: header, blocks in file order, every
// cell's bits, no violations; and every invalid file fails with the listed status, rule and offset at the listed
// stage. The same files and descriptions drive the tests of every language.
#include <gtest/gtest.h>

#include <cstdint>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <functional>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"

namespace dbdf {
namespace {

using nlohmann::json;

json load_description() {
    std::ifstream file(std::string(DBDF_VECTORS_DIR) + "/vectors.json");
    return json::parse(file);
}

std::vector<std::byte> load_file(const std::string& name) {
    std::ifstream file(std::string(DBDF_VECTORS_DIR) + "/" + name, std::ios::binary);
    std::vector<char> chars{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    std::vector<std::byte> bytes(chars.size());
    if (!chars.empty()) std::memcpy(bytes.data(), chars.data(), chars.size());
    return bytes;
}

ValueType value_type_named(const json& text) { return *parse_value_type(text.get<std::string>()); }

// The cell's text as vectors.json writes it: decimal for integers, "0x" + hex bits for floats.
std::string cell_text(ValueType type, const std::byte* cell) {
    return visit_value_type(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_floating_point_v<T>) {
            using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
            static_assert(sizeof(Bits) == sizeof(T));
            Bits bits;
            std::memcpy(&bits, cell, sizeof bits);
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "0x%0*llx", static_cast<int>(2 * sizeof bits),
                          static_cast<unsigned long long>(bits));
            return std::string(buffer);
        } else {
            T value;
            std::memcpy(&value, cell, sizeof value);
            return std::to_string(+value);  // + promotes 8-bit values to int: a number, not a character
        }
    });
}

class ValidVector : public ::testing::TestWithParam<json> {};

TEST_P(ValidVector, ReadsAsDescribed) {
    const json& vector = GetParam();
    const auto bytes = load_file(vector["file"]);
    Reader reader = Reader::open_memory(bytes);
    const ObjectHeader& header = reader.header();
    EXPECT_EQ(name(header.data_type), vector["data_type"].get<std::string>());
    EXPECT_EQ(header.rows, vector["rows"].get<std::uint64_t>());
    EXPECT_EQ(header.cols, vector["cols"].get<std::uint64_t>());
    if (header.data_type == DataType::Frame) {
        ASSERT_EQ(header.column_types.size(), vector["column_types"].size());
        for (std::size_t c = 0; c < header.cols; ++c) {
            EXPECT_EQ(header.column_types[c], value_type_named(vector["column_types"][c]));
            EXPECT_EQ(header.labels[c], vector["labels"][c].get<std::string>());
        }
    } else {
        EXPECT_EQ(header.value_type, value_type_named(vector["value_type"]));
    }
    std::vector<BlockView> blocks;
    while (reader.next_block()) blocks.push_back(reader.block());
    ASSERT_EQ(blocks.size(), vector["blocks"].size());
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const json& expected = vector["blocks"][i];
        EXPECT_EQ(blocks[i].row, expected["row"].get<std::uint64_t>());
        EXPECT_EQ(blocks[i].col, expected["col"].get<std::uint64_t>());
        EXPECT_EQ(blocks[i].rows, expected["rows"].get<std::uint32_t>());
        EXPECT_EQ(blocks[i].cols, expected["cols"].get<std::uint32_t>());
        EXPECT_EQ(name(blocks[i].block_type), expected["block_type"].get<std::string>());
        if (expected["value_type"].is_null()) {
            EXPECT_EQ(blocks[i].value_type, ValueType::None);
        } else {
            EXPECT_EQ(blocks[i].value_type, value_type_named(expected["value_type"]));
        }
        EXPECT_EQ(blocks[i].stored_values, expected["stored_values"].get<std::uint64_t>());
    }
    // Every cell in its declared type, one column at a time (frame columns differ in type).
    for (std::uint64_t c = 0; c < header.cols; ++c) {
        const ValueType declared = header.type_of_column(c);
        const std::size_t width = value_size(declared);
        std::vector<std::byte> column(header.rows * width);
        reader.read_dense_window(declared, Window{0, c, header.rows, 1}, column.data(), header.rows, 1);
        for (std::uint64_t r = 0; r < header.rows; ++r) {
            EXPECT_EQ(cell_text(declared, column.data() + r * width), vector["values"][r][c].get<std::string>())
                << "cell (" << r << ", " << c << ")";
        }
    }
    EXPECT_EQ(reader.validate({}), 0u);
}

class InvalidVector : public ::testing::TestWithParam<json> {};

ErrorCode code_named(const std::string& status) {
    if (status == "truncated") return ErrorCode::Truncated;
    if (status == "range") return ErrorCode::Range;
    return ErrorCode::Format;
}

TEST_P(InvalidVector, FailsAsDescribed) {
    const json& vector = GetParam();
    const auto bytes = load_file(vector["file"]);
    const std::string stage = vector["fails_on"];
    const ErrorCode code = code_named(vector["status"]);
    const int rule = vector["rule"];
    const std::uint64_t offset = vector["offset"];
    auto expect_failure = [&](const std::function<void()>& action) {
        try {
            action();
            ADD_FAILURE() << "no error";
        } catch (const Error& error) {
            EXPECT_EQ(error.code(), code) << error.what();
            EXPECT_EQ(error.rule(), rule) << error.what();
            EXPECT_EQ(error.offset(), offset) << error.what();
        }
    };
    if (stage == "open") {
        expect_failure([&] { Reader::open_memory(bytes); });
        return;
    }
    Reader reader = Reader::open_memory(bytes);
    if (stage == "iterate") {
        expect_failure([&] {
            while (reader.next_block()) {}
        });
    } else {
        EXPECT_NO_THROW(reader.build_index());
        expect_failure([&] {
            const auto& header = reader.header();
            std::vector<double> all(header.rows * header.cols);
            reader.read_dense_window(ValueType::F64, Window{0, 0, header.rows, header.cols}, all.data(), all.size(), 0);
        });
    }
    std::vector<Violation> violations;
    reader.validate([&](const Violation& violation) { violations.push_back(violation); });
    ASSERT_FALSE(violations.empty());
    EXPECT_EQ(violations.front().rule, rule);
    EXPECT_EQ(violations.front().offset, offset);
}

std::string test_name(const ::testing::TestParamInfo<json>& info) {
    std::string name = info.param["file"].get<std::string>();
    for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return name;
}

INSTANTIATE_TEST_SUITE_P(Golden, ValidVector, ::testing::ValuesIn(load_description()["valid"].get<std::vector<json>>()),
                         test_name);
INSTANTIATE_TEST_SUITE_P(Golden, InvalidVector,
                         ::testing::ValuesIn(load_description()["invalid"].get<std::vector<json>>()), test_name);

}  // namespace
}  // namespace dbdf
