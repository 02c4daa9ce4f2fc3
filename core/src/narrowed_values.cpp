#include "narrowed_values.hpp"

#include <limits>
#include <utility>
#include <type_traits>

#include "dbdf/endian.hpp"
#include "narrowing_copy.hpp"

namespace dbdf::detail {
namespace {

// The stored value types and how a scan stores each. Types of eight bytes are never stored: a block of doubles
// that keeps eight bytes a value is written from its source, which is not a narrowing.
constexpr ScanStore scan_store_of(ValueType type) {
    switch (type) {
        case ValueType::U8:
        case ValueType::I8: return ScanStore::Bytes;
        case ValueType::U16:
        case ValueType::I16: return ScanStore::Halves;
        case ValueType::U32:
        case ValueType::I32: return ScanStore::Words;
        case ValueType::F32: return ScanStore::Floats;
        case ValueType::None:
        case ValueType::U64:
        case ValueType::I64:
        case ValueType::F64: return ScanStore::None;
    }
    return ScanStore::None;
}

// Every stored type is stored at its own width (value_size), and the eight-byte types are never stored.
constexpr bool stored_widths_agree() {
    for (const ValueType type : {ValueType::U8, ValueType::I8, ValueType::U16, ValueType::I16, ValueType::U32,
                                 ValueType::I32, ValueType::F32, ValueType::U64, ValueType::I64, ValueType::F64}) {
        const ScanStore store = scan_store_of(type);
        if (store != ScanStore::None && scan_store_width(store) != value_size(type)) return false;
        if (store == ScanStore::None && value_size(type) != 8) return false;
    }
    return true;
}
static_assert(stored_widths_agree(), "a scan would store a narrowed type at another width than its own");

// An exact value of From as To: integers widen (zero- or sign-extended as From says), integers become floats, and
// integral floats become integers through int64 (exact: every stored value lies in both types' ranges).
template <class To, class From>
To converted_exactly(From value) {
    if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
        return static_cast<To>(static_cast<std::int64_t>(value));
    } else {
        return static_cast<To>(value);
    }
}

// Converts count values of From at `from` to To at `to`. The two may overlap as a wider type stored over a narrower
// one in the same buffer does (to == from): going from the last value to the first, each value is read before the
// wider ones stored after it reach its bytes.
template <class To, class From>
void convert_stored(const std::byte* from, std::byte* to, std::size_t count) {
    static_assert(sizeof(To) >= sizeof(From));
    for (std::size_t i = count; i-- > 0;) {
        store_le<To>(to + i * sizeof(To), converted_exactly<To>(load_le<From>(from + i * sizeof(From))));
    }
}

}  // namespace

NarrowedValues::NarrowedValues(std::size_t cells, SpareBuffers* spares) : spares_(spares), cells_(cells) {
    values_ = take(cells, capacity_);  // in the body: capacity_'s initializer runs before it
    set_type(ValueType::U8);
}

NarrowedValues::~NarrowedValues() { release(); }

NarrowedValues::NarrowedValues(NarrowedValues&& other) noexcept
    : spares_(other.spares_),
      values_(std::move(other.values_)),
      capacity_(std::exchange(other.capacity_, 0)),
      cells_(other.cells_),
      width_(other.width_),
      type_(std::exchange(other.type_, ValueType::None)),
      scan_store_(std::exchange(other.scan_store_, ScanStore::None)),
      range_low_(other.range_low_),
      range_high_(other.range_high_) {
    other.width_ = 0;
}

NarrowedValues& NarrowedValues::operator=(NarrowedValues&& other) noexcept {
    if (this != &other) {
        release();
        spares_ = other.spares_;
        values_ = std::move(other.values_);
        capacity_ = std::exchange(other.capacity_, 0);
        cells_ = other.cells_;
        width_ = std::exchange(other.width_, 0);
        type_ = std::exchange(other.type_, ValueType::None);
        scan_store_ = std::exchange(other.scan_store_, ScanStore::None);
        range_low_ = other.range_low_;
        range_high_ = other.range_high_;
    }
    return *this;
}

SpareBuffer NarrowedValues::take(std::size_t bytes, std::size_t& capacity) {
    // Not zeroed: every cell is stored before it is read.
    if (spares_ != nullptr) return spares_->take(bytes, capacity);
    return allocate_spare_buffer(bytes, capacity);
}

void NarrowedValues::release() {
    if (spares_ != nullptr) spares_->give_back(std::move(values_), capacity_);
    values_.reset();
    capacity_ = 0;
}

void NarrowedValues::set_type(ValueType type) {
    scan_store_ = scan_store_of(type);
    type_ = scan_store_ == ScanStore::None ? ValueType::None : type;
    width_ = type_ == ValueType::None ? 0 : value_size(type_);
    range_low_ = 1;
    range_high_ = 0;
    if (type_ == ValueType::None || type_ == ValueType::F32) return;
    visit_value_type(type_, [&](auto tag) {
        using Stored = typename decltype(tag)::type;
        range_low_ = static_cast<double>(std::numeric_limits<Stored>::lowest());
        range_high_ = static_cast<double>(std::numeric_limits<Stored>::max());
    });
}

void NarrowedValues::change_type(ValueType type, std::size_t cells_done) {
    if (type == type_ || !storing()) return;
    const ValueType previous = type_;
    const std::size_t previous_width = width_;
    set_type(type);
    // A block too large for a wider type's buffer is narrowed by the copy after its analysis, as it was before
    // values were stored: what an analysis holds beyond the byte a value it starts with stays bounded.
    if (storing() && width_ > 1 && cells_ * width_ > kMostWiderBytes) set_type(ValueType::None);
    // u8 and i8 (u16 and i16, u32 and i32) store the same bits for every value both hold.
    const bool same_bits = width_ == previous_width && previous != ValueType::F32 && type_ != ValueType::F32;
    if (!storing()) {
        release();
        return;
    }
    if (same_bits) return;
    std::byte* from = values_.get();
    SpareBuffer larger;
    std::size_t larger_capacity = 0;
    if (cells_ * width_ > capacity_) larger = take(cells_ * width_, larger_capacity);
    std::byte* to = larger != nullptr ? larger.get() : values_.get();
    visit_value_type(previous, [&](auto from_tag) {
        using From = typename decltype(from_tag)::type;
        visit_value_type(type_, [&](auto to_tag) {
            using To = typename decltype(to_tag)::type;
            if constexpr (sizeof(To) >= sizeof(From) && sizeof(To) <= 4) {
                convert_stored<To, From>(from, to, cells_done);
            }
        });
    });
    if (larger != nullptr) {
        release();
        values_ = std::move(larger);
        capacity_ = larger_capacity;
    }
}

void NarrowedValues::store(const double* values, std::size_t count, std::size_t cell) {
    visit_value_type(type_, [&](auto tag) {
        using Stored = typename decltype(tag)::type;
        if constexpr (sizeof(Stored) <= 4) store_converted<Stored>(values, count, at(cell));
    });
}

void NarrowedValues::restart() {
    if (capacity_ < cells_) {
        release();
        values_ = take(cells_, capacity_);
    }
    set_type(ValueType::U8);
}

}  // namespace dbdf::detail
