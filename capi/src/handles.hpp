// What the opaque handles of dbdf.h hold.
#pragma once

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
