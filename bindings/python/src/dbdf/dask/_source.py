"""Where Dask tasks read from: a path or an fsspec URL and the options to open it with. The graph holds this small
frozen object, never a reader handle, so that it pickles to any worker and each task opens its own reader."""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Union

from ..reader import Reader
from ..types import Dialect, dialect_of

#: What from_dbdf, read_dbdf and to_dbdf take as a location: a path or an fsspec URL ("protocol://...").
Location = Union[str, "os.PathLike[str]"]


def is_url(location: str) -> bool:
    """fsspec's convention: a location with a protocol ("memory://", "file://", "s3://") is a URL."""
    return "://" in location


@dataclass(frozen=True)
class Source:
    """A location and the reader options of every task that reads it."""
    location: str
    dialect: Dialect
    threads: int | None
    storage_options: tuple[tuple[str, Any], ...]  # a tuple, so that the object hashes and tokenizes by value

    @staticmethod
    def of(location: Location, dialect: Any, threads: int | None,
           storage_options: Mapping[str, Any] | None) -> Source:
        return Source(os.fspath(location), dialect_of(dialect), threads,
                      tuple(sorted((storage_options or {}).items())))

    @contextmanager
    def open(self) -> Iterator[Reader]:
        """A reader of the object: a file reader for a path, a byte-source reader over an fsspec file for a URL."""
        if not is_url(self.location):
            with Reader(self.location, self.dialect, threads=self.threads) as reader:
                yield reader
            return
        from fsspec.core import url_to_fs
        file_system, path = url_to_fs(self.location, **dict(self.storage_options))
        # The reader coalesces small reads itself (its read-ahead window) and asks only for the byte ranges it
        # needs; fsspec's own read-ahead cache (megabytes per miss on remote file systems) would fetch more.
        with file_system.open(path, "rb", cache_type="none") as file:
            with Reader(file, self.dialect, threads=self.threads) as reader:
                yield reader
