/* A minimal program using an installed dbdf: writes a 2 x 2 matrix to memory and reads it back. */
#include <stdio.h>

#include <dbdf.h>

int main(void) {
    const double values[4] = {1.0, 0.0, -2.5, 4.0};
    double read_back[4] = {0};
    dbdf_writer_t *writer = NULL;
    dbdf_reader_t *reader = NULL;
    const void *bytes = NULL;
    size_t size = 0;
    if (dbdf_version() / 10000 != DBDF_VERSION_MAJOR) return 1;
    if (dbdf_writer_open_memory(&writer) != DBDF_OK) return 1;
    if (dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 2) != DBDF_OK ||
        dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values, 4, 0, NULL) != DBDF_OK ||
        dbdf_writer_finish(writer) != DBDF_OK || dbdf_writer_memory(writer, &bytes, &size) != DBDF_OK ||
        dbdf_reader_open_memory(bytes, size, &reader) != DBDF_OK ||
        dbdf_reader_read_dense(reader, DBDF_VALUE_F64, read_back, 4, 0) != DBDF_OK) {
        fprintf(stderr, "%s\n", dbdf_last_error_message());
        return 1;
    }
    for (int i = 0; i < 4; ++i) {
        if (read_back[i] != values[i]) return 1;
    }
    printf("round trip ok (%zu bytes)\n", size);
    dbdf_reader_free(reader);
    dbdf_writer_free(writer);
    return 0;
}
