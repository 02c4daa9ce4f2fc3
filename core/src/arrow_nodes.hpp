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

#include "arrow_buffer_pool.hpp"
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
// fixed-size list of `list_size` values per row whose child holds length * list_size values (a matrix of no
// columns is a list of size 0), or a large list ("+L") whose `length` + 1 offsets are at `list_offsets` and whose
// child holds the `list_values` values.
struct ColumnArray {
    const void* values = nullptr;
    std::int64_t length = 0;
    std::int64_t list_size = kNotAList;
    const std::int64_t* list_offsets = nullptr;  // set: a large list
    std::int64_t list_values = 0;

    static constexpr std::int64_t kNotAList = -1;
};

// What a batch's buffers belong to: decoded values it owns, and whatever keeps lent memory alive. Owned buffers
// come from the stream's pool and go back to it when the batch is released, if the stream still exists.
struct BatchStorage {
    std::weak_ptr<BufferPool> pool;
    std::vector<OwnedBuffer> owned_buffers;
    std::vector<std::shared_ptr<const void>> keep_alive;

    BatchStorage() = default;
    explicit BatchStorage(std::weak_ptr<BufferPool> buffer_pool) : pool(std::move(buffer_pool)) {}
    BatchStorage(const BatchStorage&) = delete;
    BatchStorage& operator=(const BatchStorage&) = delete;
    ~BatchStorage();

    // A buffer of `bytes` bytes that the batch owns (never zero-filled), aligned to 64 bytes.
    std::byte* allocate(std::size_t bytes);
    // The bytes of the buffers the batch owns.
    std::size_t owned_bytes() const;
};

// Fills *out with a struct array of `length` rows whose children are `columns`; `storage` goes to the nodes.
void make_struct_array(std::shared_ptr<BatchStorage> storage, std::int64_t length,
                       const std::vector<ColumnArray>& columns, ArrowArray* out);

}  // namespace dbdf::detail
