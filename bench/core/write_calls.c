/* The write of a 512 MiB float64 matrix (4096 x 16384, uniform random doubles by default) to a new file in the
 * page cache, in several ways in turn within one process, so that what the kernel charges for each way of asking
 * can be told apart from what the writer does in user space:
 *
 *   numpy      what numpy.save asks of the kernel: open(O_CREAT | O_TRUNC), fallocate(FALLOC_FL_KEEP_SIZE) of the
 *              whole file, write() of a 128-byte header, one write() of the whole array, close.
 *   calls      what dbdf_writer_write_dense asks of the kernel for the same matrix, with no user-space work at all:
 *              an unnamed temporary file (O_TMPFILE), write() of the object header, fallocate(FALLOC_FL_KEEP_SIZE)
 *              of the rest, one writev() per 4 MiB block (its 26-byte record header, then its values straight from
 *              the array), ftruncate, linkat and renameat. The header bytes are zeros of the right sizes: only the
 *              calls matter here.
 *   dbdf1      dbdf_writer_write_dense with automatic encoding on the calling thread only (threads = 1).
 *   dbdf2      the same with a helper thread for the analysis (threads = 2; dbdf.save's default on two cores).
 *   dense      dbdf_writer_write_dense with the dense encoding given: no analysis and no count, the same bytes as
 *              automatic encoding writes for random doubles.
 *
 * Usage: dbdf_write_calls DIRECTORY [ROUNDS [DATA [OFFSET [WAYS...]]]]; DATA is random (default), integers (0..99),
 * sparse (1% integers 1..99), wide (integers 0..30000: u16) or halves (0.5 to 99.5 in steps of one: f32); OFFSET is the array's address modulo 4096 (default 16, where glibc puts a large
 * allocation such as a NumPy array's: what matters for the kernel's copy is the distance between a value's address
 * and its file offset modulo 4096, see bench/RESULTS.md). Each round runs every way once, in turn, each to a new file (the previous one removed,
 * untimed); the first round is a warm-up. Printed: per way the median wall time, the median CPU time of the
 * process during the call (user + system, both threads), and the median of the per-round ratios of numpy's wall
 * time to the way's (above 1: faster than numpy). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "dbdf.h"

enum { kCols = 16384, kMaxRounds = 64, kMaxWays = 8 };
/* 4096 rows (512 MiB) unless DBDF_WRITE_CALLS_ROWS gives another multiple of 32 (the smoke test runs 64). */
static size_t kRows = 4096;
static const size_t kBandRows = 32;          /* the automatic tile of this matrix: full rows, 4 MiB */
static const size_t kFileHeaderBytes = 19;   /* a dense f64 matrix's object header */
static const size_t kRecordHeaderBytes = 26; /* a block's position, type and value type */

static void fail(const char *what) {
    fprintf(stderr, "%s: %s\n", what, errno != 0 ? strerror(errno) : dbdf_last_error_message());
    exit(1);
}

static double now_seconds(void) {
    struct timespec clock;
    clock_gettime(CLOCK_MONOTONIC, &clock);
    return (double)clock.tv_sec + (double)clock.tv_nsec * 1e-9;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 + (double)usage.ru_stime.tv_sec +
           (double)usage.ru_stime.tv_usec * 1e-6;
}

static void write_all(int fd, const void *bytes, size_t count) {
    const char *next = bytes;
    while (count > 0) {
        const ssize_t written = write(fd, next, count);
        if (written < 0) fail("write");
        next += written;
        count -= (size_t)written;
    }
}

static void numpy_like(const char *path, const double *values) {
    const size_t payload = (size_t)kRows * kCols * sizeof(double);
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) fail("open");
    static const char header[128] = {0};
    if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)(sizeof header + payload)) != 0) fail("fallocate");
    write_all(fd, header, sizeof header);
    write_all(fd, values, payload);
    if (close(fd) != 0) fail("close");
}

static void writev_all(int fd, struct iovec *pieces, int count) {
    while (count > 0) {
        ssize_t written = writev(fd, pieces, count);
        if (written < 0) fail("writev");
        while (count > 0 && (size_t)written >= pieces->iov_len) {
            written -= (ssize_t)pieces->iov_len;
            ++pieces;
            --count;
        }
        if (count > 0) {
            pieces->iov_base = (char *)pieces->iov_base + written;
            pieces->iov_len -= (size_t)written;
        }
    }
}

static void dbdf_calls(const char *directory, const char *path, const double *values) {
    const size_t band_bytes = kBandRows * kCols * sizeof(double);
    const size_t bands = kRows / kBandRows;
    const off_t total = (off_t)(kFileHeaderBytes + bands * (kRecordHeaderBytes + band_bytes));
    const int fd = open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (fd < 0) fail("open O_TMPFILE");
    static char headers[64];
    write_all(fd, headers, kFileHeaderBytes);
    if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)kFileHeaderBytes, total - (off_t)kFileHeaderBytes) != 0) {
        fail("fallocate");
    }
    for (size_t band = 0; band < bands; ++band) {
        struct iovec pieces[2] = {{headers, kRecordHeaderBytes},
                                  {(void *)(values + band * kBandRows * kCols), band_bytes}};
        writev_all(fd, pieces, 2);
    }
    if (ftruncate(fd, total) != 0) fail("ftruncate");
    char temporary[4096], descriptor[64];
    snprintf(temporary, sizeof temporary, "%s/.calls-temporary", directory);
    snprintf(descriptor, sizeof descriptor, "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, descriptor, AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) != 0) fail("linkat");
    if (rename(temporary, path) != 0) fail("rename");
    if (close(fd) != 0) fail("close");
}

static void check(dbdf_status_t status, const char *what) {
    if (status != DBDF_OK) {
        errno = 0;
        fail(what);
    }
}

static void dbdf_write(const char *path, const double *values, unsigned threads, dbdf_encoding_t encoding) {
    dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
    options.threads = threads;
    dbdf_writer_t *writer = NULL;
    check(dbdf_writer_open_file_with_options(path, &options, &writer), "open");
    check(dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, kRows, kCols), "begin_matrix");
    dbdf_write_options_t write_options = DBDF_WRITE_OPTIONS_INIT;
    write_options.encoding = encoding;
    check(dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values, (size_t)kRows * kCols, kCols, &write_options),
          "write_dense");
    check(dbdf_writer_finish(writer), "finish");
    dbdf_writer_free(writer);
}

/* xorshift64*: the same values on every run, without the cost of a better generator. */
static uint64_t next_random(uint64_t *state) {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ull;
}

static double *make_values(const char *data, size_t offset) {
    const size_t count = (size_t)kRows * kCols;
    char *memory = aligned_alloc(4096, count * sizeof(double) + 4096);
    if (memory == NULL) fail("aligned_alloc");
    /* NumPy asks for transparent huge pages for every array of 4 MiB or more (hugepage_madvise): the kernel's copy
       out of the array then misses the TLB far less often, as it does under numpy.save. */
    madvise(memory, count * sizeof(double) + 4096, MADV_HUGEPAGE);
    double *values = (double *)(memory + offset);
    const int integers = strcmp(data, "integers") == 0, sparse = strcmp(data, "sparse") == 0;
    const int wide = strcmp(data, "wide") == 0, halves = strcmp(data, "halves") == 0;
    uint64_t state = 88172645463325252ull;
    for (size_t i = 0; i < count; ++i) {
        const uint64_t bits = next_random(&state);
        if (integers) {
            values[i] = (double)(bits % 100);
        } else if (wide) {
            values[i] = (double)(bits % 30001);
        } else if (halves) {
            values[i] = (double)(bits % 100) + 0.5;
        } else if (sparse) {
            values[i] = bits % 100 == 0 ? (double)(1 + (bits >> 32) % 99) : 0.0;
        } else {
            values[i] = (double)(bits >> 11) * 0x1.0p-53;
        }
    }
    return values;
}

static int by_value(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *figures, int count) {
    qsort(figures, (size_t)count, sizeof *figures, by_value);
    return count % 2 == 1 ? figures[count / 2] : (figures[count / 2 - 1] + figures[count / 2]) / 2;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr,
                "usage: %s DIRECTORY [ROUNDS [random|integers|sparse|wide|halves [OFFSET "
                "[numpy|calls|dbdf1|dbdf2|dense ...]]]]\n",
                argv[0]);
        return 2;
    }
    const char *directory = argv[1];
    const char *rows = getenv("DBDF_WRITE_CALLS_ROWS");
    if (rows != NULL && atoi(rows) >= 32) kRows = (size_t)atoi(rows) / kBandRows * kBandRows;
    int rounds = argc > 2 ? atoi(argv[2]) : 7;
    if (rounds < 1 || rounds > kMaxRounds) rounds = 7;
    const char *data = argc > 3 ? argv[3] : "random";
    const char *default_ways[] = {"numpy", "calls", "dbdf1", "dbdf2"};
    const size_t offset = argc > 4 ? (size_t)atoi(argv[4]) % 4096 / sizeof(double) * sizeof(double) : 16;
    const char **ways = argc > 5 ? (const char **)argv + 5 : default_ways;
    const int way_count = argc > 5 ? argc - 5 : 4;
    if (way_count > kMaxWays) return 2;
    double *values = make_values(data, offset);
    char path[4096];
    snprintf(path, sizeof path, "%s/write-calls.out", directory);
    static double walls[kMaxWays][kMaxRounds], cpus[kMaxWays][kMaxRounds], ratios[kMaxWays][kMaxRounds];
    for (int round = 0; round <= rounds; ++round) {
        double numpy_wall = 0;
        for (int way = 0; way < way_count; ++way) {
            unlink(path);
            const double cpu_before = cpu_seconds(), start = now_seconds();
            if (strcmp(ways[way], "numpy") == 0) {
                numpy_like(path, values);
            } else if (strcmp(ways[way], "calls") == 0) {
                dbdf_calls(directory, path, values);
            } else if (strcmp(ways[way], "dbdf1") == 0 || strcmp(ways[way], "dbdf2") == 0) {
                dbdf_write(path, values, ways[way][4] == '1' ? 1u : 2u, DBDF_ENCODING_AUTO);
            } else if (strcmp(ways[way], "dense") == 0) {
                dbdf_write(path, values, 1u, DBDF_ENCODING_DENSE);
            } else {
                fprintf(stderr, "unknown way %s\n", ways[way]);
                return 2;
            }
            const double wall = now_seconds() - start, cpu = cpu_seconds() - cpu_before;
            if (strcmp(ways[way], "numpy") == 0) numpy_wall = wall;
            if (round == 0) continue;
            walls[way][round - 1] = wall;
            cpus[way][round - 1] = cpu;
            ratios[way][round - 1] = numpy_wall > 0 ? numpy_wall / wall : 0;
        }
    }
    unlink(path);
    printf("%s doubles, %zu x %d, array at 4096k + %zu, %d rounds\n%-8s %9s %9s %14s\n", data, kRows, kCols, offset,
           rounds, "way", "median s", "CPU s", "numpy / way");
    for (int way = 0; way < way_count; ++way) {
        printf("%-8s %9.4f %9.4f %14.3f\n", ways[way], median(walls[way], rounds), median(cpus[way], rounds),
               median(ratios[way], rounds));
    }
    free((char *)values - offset);
    return 0;
}
