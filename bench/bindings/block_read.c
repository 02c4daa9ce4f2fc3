/* Binding-overhead baseline: decodes the only block of FILE (float64, dense) into a preallocated array REPEATS
 * times through the C ABI and prints one JSON line with the median and minimum seconds. The Java, C#, Rust and
 * Python programs next to this one do exactly the same through their bindings (bench/bindings/run.py). */
#include <dbdf.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_seconds(void) {
    struct timespec moment;
    clock_gettime(CLOCK_MONOTONIC, &moment);
    return (double)moment.tv_sec + (double)moment.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b) {
    const double left = *(const double *)a, right = *(const double *)b;
    return (left > right) - (left < right);
}

static int fail(const char *what) {
    fprintf(stderr, "block_read: %s: %s\n", what, dbdf_last_error_message());
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s FILE REPEATS\n", argv[0]);
        return 2;
    }
    const int repeats = atoi(argv[2]);
    if (repeats < 1) {
        fprintf(stderr, "block_read: REPEATS must be at least 1\n");
        return 2;
    }
    dbdf_reader_t *reader = NULL;
    if (dbdf_reader_open_file(argv[1], &reader) != DBDF_OK) return fail(argv[1]);
    dbdf_block_info_t block;
    if (dbdf_reader_next_block(reader, &block) != DBDF_OK) return fail("first block");
    const size_t count = (size_t)block.rows * block.cols;
    double *values = malloc(count * sizeof(double));
    double *seconds = malloc((size_t)repeats * sizeof(double));
    if (values == NULL || seconds == NULL) return 1;
    for (int run = -1; run < repeats; ++run) { /* run -1 warms up */
        const double start = now_seconds();
        if (dbdf_reader_block_decode_dense(reader, DBDF_VALUE_F64, values, count, 0) != DBDF_OK) {
            return fail("decode");
        }
        if (run >= 0) seconds[run] = now_seconds() - start;
    }
    qsort(seconds, (size_t)repeats, sizeof(double), compare_doubles);
    printf(
        "{\"language\": \"c\", \"median_seconds\": %.9f, \"min_seconds\": %.9f, \"bytes\": %zu, "
        "\"check\": %.17g}\n",
        seconds[repeats / 2], seconds[0], count * sizeof(double), values[count - 1]);
    free(seconds);
    free(values);
    dbdf_reader_free(reader);
    return 0;
}
