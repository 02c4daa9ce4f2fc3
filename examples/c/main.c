/*
 * The C example: writes a tiled matrix with automatic encoding, reads it back block by block and prints what it
 * read. Subcommands make it the C side of the cross-language checks:
 *
 *   dbdf_example_c                 demo: write, read back, print a summary
 *   dbdf_example_c write FILE      write the cross-language matrix
 *   dbdf_example_c check FILE      exit 0 iff FILE holds exactly the cross-language matrix
 *   dbdf_example_c layout FILE     print the block layout of any .dbdf file
 *
 * The cross-language matrix: a 6 x 5 DenseMatrix of f64, value(i, j) = 0 if (i + j) % 3 == 0 else
 * (i * 5 + j) * 0.5, written with 4 x 3 tiles and automatic encoding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbdf.h"

enum { CROSS_ROWS = 6, CROSS_COLS = 5 };

static double cross_value(int row, int col) { return (row + col) % 3 == 0 ? 0.0 : (row * 5 + col) * 0.5; }

/* Prints the failing call's status and message; returns 1 for use as an exit code. */
static int report(const char *what, dbdf_status_t status) {
    fprintf(stderr, "%s failed: %s: %s\n", what, dbdf_status_name(status), dbdf_last_error_message());
    return 1;
}

static int write_cross_matrix(const char *path) {
    double values[CROSS_ROWS * CROSS_COLS];
    for (int row = 0; row < CROSS_ROWS; ++row) {
        for (int col = 0; col < CROSS_COLS; ++col) values[row * CROSS_COLS + col] = cross_value(row, col);
    }
    dbdf_writer_t *writer = NULL;
    dbdf_status_t status = dbdf_writer_open_file(path, &writer);
    if (status != DBDF_OK) return report("dbdf_writer_open_file", status);
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.block_rows = 4;
    options.block_cols = 3;
    status = dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, CROSS_ROWS, CROSS_COLS);
    if (status == DBDF_OK) {
        status = dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values, CROSS_ROWS * CROSS_COLS, 0, &options);
    }
    if (status == DBDF_OK) status = dbdf_writer_finish(writer);
    if (status != DBDF_OK) {
        report("writing the cross-language matrix", status);
        dbdf_writer_free(writer); /* discards the temporary file */
        return 1;
    }
    dbdf_writer_free(writer);
    return 0;
}

static int check_cross_matrix(const char *path) {
    dbdf_reader_t *reader = NULL;
    dbdf_status_t status = dbdf_reader_open_file(path, &reader);
    if (status != DBDF_OK) return report("dbdf_reader_open_file", status);
    dbdf_object_info_t info;
    status = dbdf_reader_object_info(reader, &info);
    if (status != DBDF_OK) {
        report("dbdf_reader_object_info", status);
        dbdf_reader_free(reader);
        return 1;
    }
    int result = 0;
    if (info.data_type != DBDF_DATA_DENSE || info.rows != CROSS_ROWS || info.cols != CROSS_COLS) {
        fprintf(stderr, "%s: expected a 6 x 5 dense matrix, found a %llu x %llu %s\n", path,
                (unsigned long long)info.rows, (unsigned long long)info.cols, dbdf_data_type_name(info.data_type));
        result = 1;
    } else {
        double values[CROSS_ROWS * CROSS_COLS];
        status = dbdf_reader_read_dense(reader, DBDF_VALUE_F64, values, CROSS_ROWS * CROSS_COLS, 0);
        if (status != DBDF_OK) {
            result = report("dbdf_reader_read_dense", status);
        } else {
            for (int row = 0; row < CROSS_ROWS; ++row) {
                for (int col = 0; col < CROSS_COLS; ++col) {
                    if (values[row * CROSS_COLS + col] != cross_value(row, col)) {
                        fprintf(stderr, "%s: cell (%d, %d) is %.17g, expected %.17g\n", path, row, col,
                                values[row * CROSS_COLS + col], cross_value(row, col));
                        result = 1;
                    }
                }
            }
        }
    }
    dbdf_reader_free(reader);
    if (result == 0) printf("%s holds the cross-language matrix\n", path);
    return result;
}

/* Prints the object header and one line per block; returns an exit code. */
static int print_layout(const char *path) {
    dbdf_reader_t *reader = NULL;
    dbdf_status_t status = dbdf_reader_open_file(path, &reader);
    if (status != DBDF_OK) return report("dbdf_reader_open_file", status);
    dbdf_object_info_t info;
    status = dbdf_reader_object_info(reader, &info);
    if (status != DBDF_OK) {
        report("dbdf_reader_object_info", status);
        dbdf_reader_free(reader);
        return 1;
    }
    printf("%s: %s %llu x %llu", path, dbdf_data_type_name(info.data_type), (unsigned long long)info.rows,
           (unsigned long long)info.cols);
    if (info.data_type == DBDF_DATA_FRAME) {
        printf("\n");
        for (uint64_t column = 0; column < info.cols; ++column) {
            dbdf_value_type_t type;
            const char *label;
            size_t length;
            status = dbdf_reader_column_type(reader, column, &type);
            if (status == DBDF_OK) status = dbdf_reader_column_label(reader, column, &label, &length);
            if (status != DBDF_OK) {
                report("reading the frame's column types and labels", status);
                dbdf_reader_free(reader);
                return 1;
            }
            printf("  column %llu: %.*s (%s)\n", (unsigned long long)column, (int)length, label,
                   dbdf_value_type_name(type));
        }
    } else {
        printf(" of %s\n", dbdf_value_type_name(info.value_type));
    }
    uint64_t blocks = 0;
    uint64_t stored = 0;
    dbdf_block_info_t block;
    while ((status = dbdf_reader_next_block(reader, &block)) == DBDF_OK) {
        printf("  block %llu at (%llu, %llu): %u x %u %-5s %-4s %llu stored values, %llu bytes\n",
               (unsigned long long)block.index, (unsigned long long)block.row, (unsigned long long)block.col,
               block.rows, block.cols, dbdf_block_type_name(block.block_type),
               block.block_type == DBDF_BLOCK_EMPTY ? "-" : dbdf_value_type_name(block.value_type),
               (unsigned long long)block.stored_values, (unsigned long long)block.encoded_bytes);
        ++blocks;
        stored += block.stored_values;
    }
    int result = 0;
    if (status != DBDF_END_OF_BLOCKS) {
        result = report("dbdf_reader_next_block", status);
    } else {
        printf("  %llu blocks, %llu stored values, %llu bytes in all\n", (unsigned long long)blocks,
               (unsigned long long)stored, (unsigned long long)info.total_bytes);
    }
    dbdf_reader_free(reader);
    return result;
}

/* The demo: a 1000 x 800 matrix, mostly zero with a dense band, tiled 256 x 256 with automatic encoding. */
static int demo(void) {
    enum { ROWS = 1000, COLS = 800 };
    double *values = calloc((size_t)ROWS * COLS, sizeof *values);
    if (values == NULL) return 1;
    for (int row = 0; row < ROWS; ++row) {
        for (int col = 0; col < COLS; ++col) {
            if (row < 200 && col < 200)
                values[row * COLS + col] = row + col; /* dense corner: small ints */
            else if ((row * 7 + col) % 997 == 0)
                values[row * COLS + col] = 0.1 * row; /* a few scattered doubles */
        }
    }
    const char *path = "dbdf_example_c_demo.dbdf";
    printf("dbdf %s: writing a %d x %d matrix to %s\n", dbdf_version_string(), ROWS, COLS, path);
    dbdf_writer_t *writer = NULL;
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.block_rows = 256;
    options.block_cols = 256;
    dbdf_status_t status = dbdf_writer_open_file(path, &writer);
    if (status == DBDF_OK) status = dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, ROWS, COLS);
    if (status == DBDF_OK)
        status = dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values, (size_t)ROWS * COLS, 0, &options);
    if (status == DBDF_OK) status = dbdf_writer_finish(writer);
    dbdf_writer_free(writer);
    if (status != DBDF_OK) {
        free(values);
        return report("writing the demo matrix", status);
    }
    int result = print_layout(path);
    double plain_dense_bytes = 19.0 + (double)ROWS * COLS * sizeof(double);
    double file_bytes = 0;
    FILE *file = fopen(path, "rb");
    if (file != NULL) {
        fseek(file, 0, SEEK_END);
        file_bytes = (double)ftell(file);
        fclose(file);
    }
    /* Read the whole matrix back and compare. */
    double *read_back = malloc((size_t)ROWS * COLS * sizeof *read_back);
    dbdf_reader_t *reader = NULL;
    status = dbdf_reader_open_file(path, &reader);
    if (status == DBDF_OK && read_back != NULL) {
        status = dbdf_reader_read_dense(reader, DBDF_VALUE_F64, read_back, (size_t)ROWS * COLS, 0);
    }
    if (status != DBDF_OK) {
        result = report("reading the demo matrix", status);
    } else if (read_back == NULL) {
        fprintf(stderr, "out of memory for reading the demo matrix back\n");
        result = 1;
    } else if (memcmp(read_back, values, (size_t)ROWS * COLS * sizeof *values) != 0) {
        fprintf(stderr, "the matrix read back differs from the one written\n");
        result = 1;
    } else {
        printf("read back all %d values: identical; the file is %.1f%% of a plain dense encoding\n", ROWS * COLS,
               100.0 * file_bytes / plain_dense_bytes);
    }
    dbdf_reader_free(reader);
    remove(path);
    free(read_back);
    free(values);
    return result;
}

int main(int argc, char **argv) {
    if (argc == 1) return demo();
    if (argc == 3 && strcmp(argv[1], "write") == 0) return write_cross_matrix(argv[2]);
    if (argc == 3 && strcmp(argv[1], "check") == 0) return check_cross_matrix(argv[2]);
    if (argc == 3 && strcmp(argv[1], "layout") == 0) return print_layout(argv[2]);
    fprintf(stderr, "usage: %s [write FILE | check FILE | layout FILE]\n", argv[0]);
    return 2;
}
