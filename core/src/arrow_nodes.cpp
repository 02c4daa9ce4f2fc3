#include "arrow_nodes.hpp"

namespace dbdf::detail {

namespace {

// Releases a node's children that are still in place (a child moved out has release NULL there), then the node's
// share of the storage.
template <class Node, class Storage>
void release_node(Node* node) {
    for (std::int64_t i = 0; i < node->n_children; ++i) {
        Node* child = node->children[i];
        if (child->release != nullptr) child->release(child);
    }
    delete static_cast<std::shared_ptr<Storage>*>(node->private_data);
    node->release = nullptr;
}

struct SchemaNode {
    ArrowSchema schema{};
    std::string format;
    std::string name;
    std::vector<ArrowSchema*> children;
};

struct SchemaStorage {
    std::deque<SchemaNode> nodes;  // a deque: nodes never move while the tree grows
};

void release_schema(ArrowSchema* schema) { release_node<ArrowSchema, SchemaStorage>(schema); }

// Fills `target` from `node` (whose strings and children live in `storage`).
void link_schema(const std::shared_ptr<SchemaStorage>& storage, SchemaNode& node, ArrowSchema* target) {
    *target = ArrowSchema{};
    target->format = node.format.c_str();
    target->name = node.name.c_str();
    target->n_children = static_cast<std::int64_t>(node.children.size());
    target->children = node.children.empty() ? nullptr : node.children.data();
    target->private_data = new std::shared_ptr<SchemaStorage>(storage);
    target->release = release_schema;
}

SchemaNode& add_field(const std::shared_ptr<SchemaStorage>& storage, const SchemaField& field) {
    SchemaNode& node = storage->nodes.emplace_back();
    node.format = field.format;
    node.name = field.name;
    for (const SchemaField& child : field.children) node.children.push_back(&add_field(storage, child).schema);
    link_schema(storage, node, &node.schema);
    return node;
}

struct ArrayNode {
    ArrowArray array{};
    std::vector<const void*> buffers;
    std::vector<ArrowArray*> children;
};

struct ArrayStorage {
    std::shared_ptr<BatchStorage> batch;
    std::deque<ArrayNode> nodes;
};

void release_array(ArrowArray* array) { release_node<ArrowArray, ArrayStorage>(array); }

// Where an empty column's data buffer points: consumers may refuse a NULL data buffer even of no bytes.
alignas(64) constexpr std::byte kNoValues[64]{};

void link_array(const std::shared_ptr<ArrayStorage>& storage, ArrayNode& node, std::int64_t length,
                ArrowArray* target) {
    *target = ArrowArray{};
    target->length = length;
    target->n_buffers = static_cast<std::int64_t>(node.buffers.size());
    target->buffers = node.buffers.data();
    target->n_children = static_cast<std::int64_t>(node.children.size());
    target->children = node.children.empty() ? nullptr : node.children.data();
    target->private_data = new std::shared_ptr<ArrayStorage>(storage);
    target->release = release_array;
}

ArrayNode& add_primitive(const std::shared_ptr<ArrayStorage>& storage, const void* values, std::int64_t length) {
    ArrayNode& node = storage->nodes.emplace_back();
    node.buffers = {nullptr, values != nullptr ? values : kNoValues};
    link_array(storage, node, length, &node.array);
    return node;
}

ArrayNode& add_column(const std::shared_ptr<ArrayStorage>& storage, const ColumnArray& column) {
    if (column.list_offsets != nullptr) {
        ArrowArray* child = &add_primitive(storage, column.values, column.list_values).array;
        ArrayNode& node = storage->nodes.emplace_back();
        node.buffers = {nullptr, column.list_offsets};
        node.children = {child};
        link_array(storage, node, column.length, &node.array);
        return node;
    }
    if (column.list_size == ColumnArray::kNotAList) return add_primitive(storage, column.values, column.length);
    ArrowArray* child = &add_primitive(storage, column.values, column.length * column.list_size).array;
    ArrayNode& node = storage->nodes.emplace_back();
    node.buffers = {nullptr};
    node.children = {child};
    link_array(storage, node, column.length, &node.array);
    return node;
}

}  // namespace

BatchStorage::~BatchStorage() {
    if (const std::shared_ptr<BufferPool> stream_pool = pool.lock()) {
        for (OwnedBuffer& buffer : owned_buffers) stream_pool->give_back(std::move(buffer));
    }
}

std::byte* BatchStorage::allocate(std::size_t bytes) {
    const std::shared_ptr<BufferPool> stream_pool = pool.lock();
    owned_buffers.push_back(stream_pool ? stream_pool->take(bytes) : OwnedBuffer::allocate(bytes));
    return owned_buffers.back().bytes.get();
}

std::size_t BatchStorage::owned_bytes() const {
    std::size_t bytes = 0;
    for (const OwnedBuffer& buffer : owned_buffers) bytes += buffer.capacity;
    return bytes;
}

void make_struct_schema(const std::vector<SchemaField>& fields, ArrowSchema* out) {
    auto storage = std::make_shared<SchemaStorage>();
    SchemaNode& root = storage->nodes.emplace_back();
    root.format = "+s";
    for (const SchemaField& field : fields) root.children.push_back(&add_field(storage, field).schema);
    // The root's own struct in the storage stays unused: the consumer's *out is the root.
    link_schema(storage, root, out);
}

void make_struct_array(std::shared_ptr<BatchStorage> storage, std::int64_t length,
                       const std::vector<ColumnArray>& columns, ArrowArray* out) {
    auto arrays = std::make_shared<ArrayStorage>();
    arrays->batch = std::move(storage);
    ArrayNode& root = arrays->nodes.emplace_back();
    root.buffers = {nullptr};
    for (const ColumnArray& column : columns) root.children.push_back(&add_column(arrays, column).array);
    link_array(arrays, root, length, out);
}

}  // namespace dbdf::detail
