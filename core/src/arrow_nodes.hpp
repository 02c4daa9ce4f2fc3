// Arrow schemas and arrays whose every node can be released on its own, in any order (the C data interface lets a
// consumer move a child out and release it after its parent). All nodes of one tree share one storage: each node's
// private_data is a shared pointer to it, so the storage (and the buffers it owns or keeps alive) goes with the
// last node released.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "dbdf/arrow_c_data.h"

namespace dbdf::detail {

// A field: its format, name and children (a fixed-size list has one).
struct SchemaField {
    std::string format;
    std::string name;
    std::vector<SchemaField> children;
};

// Fills *out with a struct schema ("+s") whose children are `fields`. No field is nullable: the format has no
// missing values.
void make_struct_schema(const std::vector<SchemaField>& fields, ArrowSchema* out);

// A column of a batch: `length` values at `values` (owned by the batch's storage or kept alive by it), or a
// fixed-size list of `list_size` values per row whose child holds length * list_size values.
struct ColumnArray {
    const void* values = nullptr;
    std::int64_t length = 0;
    std::int64_t list_size = 0;  // 0: a primitive column
};

// What a batch's buffers belong to: decoded values it owns, and whatever keeps lent memory alive.
struct BatchStorage {
    std::vector<std::unique_ptr<std::byte[]>> owned_buffers;
    std::vector<std::shared_ptr<const void>> keep_alive;

    // A buffer of `bytes` bytes that the batch owns (never zero-filled).
    std::byte* allocate(std::size_t bytes);
};

// Fills *out with a struct array of `length` rows whose children are `columns`; `storage` goes to the nodes.
void make_struct_array(std::shared_ptr<BatchStorage> storage, std::int64_t length,
                       const std::vector<ColumnArray>& columns, ArrowArray* out);

}  // namespace dbdf::detail
