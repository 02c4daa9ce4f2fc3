"""A program using dbdf as an installed package: writes a matrix, reads it back, and catches a missing file."""

import numpy as np

import dbdf

matrix = np.arange(12.0).reshape(3, 4)
dbdf.save("matrix.dbdf", matrix)
loaded = dbdf.load("matrix.dbdf")
assert loaded.dtype == np.float64 and np.array_equal(loaded, matrix), loaded
print("read back", loaded.shape, "matrix of", loaded.dtype, "with libdbdf", dbdf.library_version())

try:
    dbdf.load("no-such-file.dbdf")
except FileNotFoundError as error:
    print("missing file:", error)
