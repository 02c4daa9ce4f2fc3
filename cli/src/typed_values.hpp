// A buffer of values of one runtime value type, and their text form: integers exactly, floats in the shortest
// form that reads back to the same value.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dbdf.h"

namespace dbdf_cli {

class TypedBuffer {
public:
    TypedBuffer(dbdf_value_type_t type, std::size_t count)
        : type_(type), width_(dbdf_value_type_size(type)), bytes_(count * width_) {}

    dbdf_value_type_t type() const { return type_; }
    std::size_t size() const { return width_ == 0 ? 0 : bytes_.size() / width_; }
    std::size_t width() const { return width_; }
    void* data() { return bytes_.data(); }
    const void* data() const { return bytes_.data(); }
    std::uint8_t* at(std::size_t index) { return bytes_.data() + index * width_; }
    const std::uint8_t* at(std::size_t index) const { return bytes_.data() + index * width_; }

    std::string text(std::size_t index) const { return value_text(type_, at(index)); }

    static std::string value_text(dbdf_value_type_t type, const std::uint8_t* cell) {
        switch (type) {
            case DBDF_VALUE_U8: return fmt::format("{}", load<std::uint8_t>(cell));
            case DBDF_VALUE_U16: return fmt::format("{}", load<std::uint16_t>(cell));
            case DBDF_VALUE_U32: return fmt::format("{}", load<std::uint32_t>(cell));
            case DBDF_VALUE_U64: return fmt::format("{}", load<std::uint64_t>(cell));
            case DBDF_VALUE_I8: return fmt::format("{}", load<std::int8_t>(cell));
            case DBDF_VALUE_I16: return fmt::format("{}", load<std::int16_t>(cell));
            case DBDF_VALUE_I32: return fmt::format("{}", load<std::int32_t>(cell));
            case DBDF_VALUE_I64: return fmt::format("{}", load<std::int64_t>(cell));
            case DBDF_VALUE_F32: return fmt::format("{}", load<float>(cell));
            default: return fmt::format("{}", load<double>(cell));
        }
    }

private:
    template <class T>
    static T load(const std::uint8_t* cell) {
        T value;
        std::memcpy(&value, cell, sizeof value);
        return value;
    }

    dbdf_value_type_t type_;
    std::size_t width_;
    std::vector<std::uint8_t> bytes_;
};

inline bool is_float_type(dbdf_value_type_t type) { return type == DBDF_VALUE_F32 || type == DBDF_VALUE_F64; }

}  // namespace dbdf_cli
