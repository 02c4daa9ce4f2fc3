/* The daphne dialect from plain C (C11): read a file DAPHNE's runtime wrote, and write the runtime's bytes. Exits 0
 * when every check holds; otherwise prints what failed and exits 1. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbdf.h"

static int failures = 0;

#define CHECK(condition)                                                                      \
    do {                                                                                      \
        if (!(condition)) {                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__, #condition, \
                    dbdf_last_error_message());                                               \
            ++failures;                                                                       \
        }                                                                                     \
    } while (0)

static unsigned char *load(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    fseek(file, 0, SEEK_END);
    const long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(length > 0 ? (size_t)length : 1);
    *size = fread(bytes, 1, (size_t)length, file);
    fclose(file);
    return bytes;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s DAPHNE_RUNTIME_VECTORS_DIR\n", argv[0]);
        return 2;
    }
    char path[4096];

    /* Reading: csr_f64_6x5.dbdf holds (0,1,1.5) (0,4,-2.25) (2,0,3.0) (3,2,4.5) (3,3,5.0) (3,4,6.75) (4,1,7.125). */
    snprintf(path, sizeof path, "%s/csr_f64_6x5.dbdf", argv[1]);
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = DBDF_DIALECT_DAPHNE;
    dbdf_reader_t *reader = NULL;
    CHECK(dbdf_reader_open_file_with_options(path, &options, &reader) == DBDF_OK);
    if (reader != NULL) {
        dbdf_object_info_t info;
        CHECK(dbdf_reader_object_info(reader, &info) == DBDF_OK);
        CHECK(info.data_type == DBDF_DATA_CSR && info.value_type == DBDF_VALUE_F64 && info.rows == 6 && info.cols == 5);
        double dense[30];
        CHECK(dbdf_reader_read_dense(reader, DBDF_VALUE_F64, dense, 30, 0) == DBDF_OK);
        CHECK(dense[0 * 5 + 1] == 1.5 && dense[0 * 5 + 4] == -2.25 && dense[2 * 5 + 0] == 3.0 &&
              dense[3 * 5 + 4] == 6.75 && dense[4 * 5 + 1] == 7.125 && dense[5 * 5 + 0] == 0.0);
        dbdf_dialect_t dialect = DBDF_DIALECT_SPEC;
        CHECK(dbdf_reader_dialect(reader, &dialect) == DBDF_OK && dialect == DBDF_DIALECT_DAPHNE);
        dbdf_reader_free(reader);
    }
    /* The spec dialect stays strict. */
    CHECK(dbdf_reader_open_file_with_options(path, NULL, &reader) == DBDF_OK);
    if (reader != NULL) {
        CHECK(dbdf_reader_validate(reader, NULL, NULL, NULL) != DBDF_OK);
        dbdf_reader_free(reader);
    }

    /* Writing: dense_si8_2x5.dbdf is the 2 x 5 int8 matrix 5r + c - 5. */
    int8_t values[10];
    for (int k = 0; k < 10; ++k) values[k] = (int8_t)(k - 5);
    dbdf_writer_options_t writer_options = DBDF_WRITER_OPTIONS_INIT;
    writer_options.dialect = DBDF_DIALECT_DAPHNE;
    dbdf_writer_t *writer = NULL;
    CHECK(dbdf_writer_open_memory_with_options(&writer_options, &writer) == DBDF_OK);
    CHECK(dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_I8, 2, 5) == DBDF_OK);
    CHECK(dbdf_writer_write_dense(writer, DBDF_VALUE_I8, values, 10, 0, NULL) == DBDF_OK);
    CHECK(dbdf_writer_finish(writer) == DBDF_OK);
    const void *written = NULL;
    size_t written_size = 0;
    CHECK(dbdf_writer_memory(writer, &written, &written_size) == DBDF_OK);
    snprintf(path, sizeof path, "%s/dense_si8_2x5.dbdf", argv[1]);
    size_t expected_size = 0;
    unsigned char *expected = load(path, &expected_size);
    CHECK(expected != NULL && written_size == expected_size && memcmp(written, expected, expected_size) == 0);
    free(expected);
    dbdf_writer_free(writer);

    if (failures == 0) printf("daphne dialect from C: ok\n");
    return failures == 0 ? 0 : 1;
}
