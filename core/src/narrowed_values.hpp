// A dense block of doubles under automatic encoding, stored in the narrowest value type that holds every value seen
// so far, while the values are analysed: the block's dense payload in that type once the analysis is done, so that a
// block narrowed to u8 / i8, u16 / i16, u32 / i32 or f32 is written without reading its values a second time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "dbdf/types.hpp"
#include "spare_buffers.hpp"
#include "value_scan.hpp"

namespace dbdf::detail {

class NarrowedValues {
public:
    NarrowedValues() = default;  // stores nothing (type None)

    // Room for `cells` values of one byte: the narrowest type there is, and the one a block starts in. Not zeroed:
    // random doubles leave the analysis after one chunk and leave the rest untouched. Buffers come from `spares`
    // and go back to them for the next blocks (their owner, a writer, outlives this), or from new memory when it is
    // null.
    NarrowedValues(std::size_t cells, SpareBuffers* spares);

    ~NarrowedValues();
    NarrowedValues(NarrowedValues&& other) noexcept;
    NarrowedValues& operator=(NarrowedValues&& other) noexcept;

    // The type the values are stored in; None once no type of at most four bytes holds them (nothing stored).
    ValueType type() const { return type_; }
    bool storing() const { return type_ != ValueType::None; }

    // How the analysis's scan stores values of this type (ScanStore::None when not storing), and where.
    ScanStore scan_store() const { return scan_store_; }
    std::byte* at(std::size_t cell) { return values_.get() + cell * width_; }

    // Whether an integral range [low, high] fits the stored integer type (false for a float type and None).
    bool holds_range(double low, double high) const { return low >= range_low_ && high <= range_high_; }

    // The most bytes a block is stored in at a type wider than one byte: the largest spare buffer. A block of more
    // values than that holds at the wider type (more than 2^21 at four bytes, 2^22 at two: the automatic tiles hold
    // 2^19) stops being stored when it needs that type, and is narrowed by the copy after its analysis.
    static constexpr std::size_t kMostWiderBytes = SpareBuffers::kLargestSpare;

    // Makes `type` the stored type: the values of cells [0, cells_done), stored in the previous type, which held
    // them exactly, are converted to it (exact, since `type` holds them too); a wider type takes a larger buffer,
    // reusing the one there is when it is large enough. A type of more than four bytes stops the storing, and so
    // does a wider type whose payload would take more than kMostWiderBytes.
    void change_type(ValueType type, std::size_t cells_done);

    // Stores values[0..count) converted to the stored type (as the narrowing copy does) at `cell`: a chunk that the
    // scan did not store in this type.
    void store(const double* values, std::size_t count, std::size_t cell);

    // Starts again at one byte per value for another block of as many cells, keeping the buffer.
    void restart();

    // The stored values of all cells: the dense payload in type().
    std::span<const std::byte> payload() const { return {values_.get(), cells_ * width_}; }

private:
    void set_type(ValueType type);
    SpareBuffer take(std::size_t bytes, std::size_t& capacity);
    void release();  // the buffer goes back to the spares, if any

    SpareBuffers* spares_ = nullptr;
    SpareBuffer values_;
    std::size_t capacity_ = 0;  // bytes in values_
    std::size_t cells_ = 0;
    std::size_t width_ = 0;
    ValueType type_ = ValueType::None;
    ScanStore scan_store_ = ScanStore::None;
    double range_low_ = 1;  // the integer type's range; empty for a float type and None
    double range_high_ = 0;
};

}  // namespace dbdf::detail
