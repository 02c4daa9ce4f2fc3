// A buffer of values of one runtime value type, and their text form: integers exactly, floats in the shortest
// form that reads back to the same value.
//
// Text files (.csv, .mtx) do not say whether a real number was an f32 or an f64, and readers take such text as an
// f64. So values written to files are printed as f64: an f32 as the shortest text of its exact value as an f64
// (0.1f as 0.10000000149011612, not 0.1, which reads back as another number). Read as f64 that text is the f32's
// value exactly, which converts back to the same f32; read as f32 it is the same f32 as well.
#pragma once

#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "dbdf.h"
#include "value_types.hpp"

namespace dbdf_cli {

class TypedBuffer {
public:
    // A count whose bytes do not fit size_t is memory that cannot be had, not a smaller buffer.
    TypedBuffer(dbdf_value_type_t type, std::size_t count)
        : type_(type), width_(dbdf_value_type_size(type)), bytes_(checked_bytes(count, width_)) {}

    dbdf_value_type_t type() const { return type_; }
    std::size_t size() const { return width_ == 0 ? 0 : bytes_.size() / width_; }
    std::size_t width() const { return width_; }
    void* data() { return bytes_.data(); }
    const void* data() const { return bytes_.data(); }
    std::uint8_t* at(std::size_t index) { return bytes_.data() + index * width_; }
    const std::uint8_t* at(std::size_t index) const { return bytes_.data() + index * width_; }

    // For people (dbdf cat): an f32 in the shortest form that reads back as that f32.
    std::string text(std::size_t index) const { return value_text(type_, at(index)); }
    // For files: an f32 in the shortest form that reads back as its value in f64 (see above). Appended to `out`,
    // since converters write millions of values.
    void append_file_text(std::size_t index, std::string& out) const {
        const std::uint8_t* cell = at(index);
        // Formatting into a local buffer first spares a string append per character. No value's text is longer
        // than 24 characters (-2.2250738585072014e-308; integers at most 20).
        auto append = [&](auto value) {
            char text[32];
            const char* end = fmt::format_to(text, FMT_COMPILE("{}"), value);
            out.append(text, static_cast<std::size_t>(end - text));
        };
        visit_value_type(type_, [&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr (std::is_floating_point_v<T>) {
                append(static_cast<double>(load<T>(cell)));  // as f64: see the top of this file
            } else {
                append(load<T>(cell));
            }
        });
    }

    static std::string value_text(dbdf_value_type_t type, const std::uint8_t* cell) {
        return visit_value_type(type,
                                [&](auto tag) { return fmt::format("{}", load<typename decltype(tag)::type>(cell)); });
    }

private:
    static std::size_t checked_bytes(std::size_t count, std::size_t width) {
        std::size_t bytes = 0;
        if (__builtin_mul_overflow(count, width, &bytes)) throw std::bad_alloc();
        return bytes;
    }

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

}  // namespace dbdf_cli
