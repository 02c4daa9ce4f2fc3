// Helpers shared by the core test suites: writing objects to memory and reading them back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"

namespace dbdf::testing {

// Runs `build` on a writer over a memory sink and returns the bytes after finish().
inline std::vector<std::byte> write_to_memory(const std::function<void(Writer&)>& build) {
    Writer writer(std::make_unique<MemorySink>());
    build(writer);
    writer.finish();
    return static_cast<MemorySink&>(writer.sink()).bytes();
}

template <class T>
std::vector<T> read_dense(std::span<const std::byte> bytes) {
    Reader reader = Reader::open_memory(bytes);
    const auto& header = reader.header();
    std::vector<T> values(header.rows * header.cols);
    reader.read_dense_window(value_type_v<T>, Window{0, 0, header.rows, header.cols}, values.data(), values.size(), 0);
    return values;
}

// Bytes of a value for bitwise comparison.
template <class T>
std::vector<std::uint8_t> bits_of(const std::vector<T>& values) {
    std::vector<std::uint8_t> bytes(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

inline std::vector<dbdf::BlockView> blocks_of(std::span<const std::byte> bytes) {
    Reader reader = Reader::open_memory(bytes);
    std::vector<BlockView> blocks;
    while (reader.next_block()) blocks.push_back(reader.block());
    return blocks;
}

// Builds inputs field by field, little-endian, following the spec's layout tables.
class Bytes {
public:
    Bytes& u8(std::uint8_t v) { return raw(&v, 1); }
    Bytes& u16(std::uint16_t v) { return raw(&v, 2); }
    Bytes& u32(std::uint32_t v) { return raw(&v, 4); }
    Bytes& u64(std::uint64_t v) { return raw(&v, 8); }
    Bytes& f32(float v) { return raw(&v, 4); }
    Bytes& f64(double v) { return raw(&v, 8); }
    Bytes& text(std::string_view v) { return raw(v.data(), v.size()); }
    // Matrix header: version 1, data type, #r, #c, value type.
    Bytes& matrix(std::uint8_t data_type, std::uint64_t rows, std::uint64_t cols, std::uint8_t value_type) {
        return u8(1).u8(data_type).u64(rows).u64(cols).u8(value_type);
    }
    // Block record start: rx, cx, #r, #c, block type.
    Bytes& block(std::uint64_t rx, std::uint64_t cx, std::uint32_t rows, std::uint32_t cols, std::uint8_t type) {
        return u64(rx).u64(cx).u32(rows).u32(cols).u8(type);
    }
    std::span<const std::byte> span() const { return bytes_; }
    std::size_t size() const { return bytes_.size(); }
    const std::vector<std::byte>& vector() const { return bytes_; }

private:
    Bytes& raw(const void* data, std::size_t size) {
        const auto* first = static_cast<const std::byte*>(data);
        bytes_.insert(bytes_.end(), first, first + size);  // tests run on little-endian hosts
        return *this;
    }
    std::vector<std::byte> bytes_;
};

}  // namespace dbdf::testing
