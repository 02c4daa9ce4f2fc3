// What the opaque handles of dbdf.h hold.
#pragma once

#include <memory>

#include "dbdf/reader.hpp"
#include "dbdf/sink.hpp"
#include "dbdf/writer.hpp"

struct dbdf_reader {
    dbdf::Reader reader;
};

struct dbdf_writer {
    dbdf::Writer writer;
    dbdf::MemorySink* memory = nullptr;  // the writer's own sink when writing to memory, else null
};

struct dbdf_file_output {
    std::unique_ptr<dbdf::FileSink> sink;
    bool ended = false;  // committed, or a commit failed: only free remains
};
