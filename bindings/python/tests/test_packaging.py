"""The package's version is dbdf.h's (pyproject.toml derives it with the regular expression tested here), and the
errors derive from the built-in exceptions Python code catches for them."""

import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import dbdf
from dbdf import errors

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
HEADER = PACKAGE_ROOT.parent.parent / "capi" / "include" / "dbdf.h"


def header_version() -> str:
    text = HEADER.read_text()
    parts = [re.search(rf"^#define DBDF_VERSION_{part} (\d+)$", text, re.M).group(1)
             for part in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def test_the_package_version_is_the_headers():
    assert dbdf.__version__ == header_version()


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib is new in Python 3.11")
def test_pyproject_derives_the_version_from_the_header():
    import tomllib
    project = tomllib.loads((PACKAGE_ROOT / "pyproject.toml").read_text())
    assert "version" in project["project"]["dynamic"]
    settings = project["tool"]["scikit-build"]["metadata"]["version"]
    assert (PACKAGE_ROOT / settings["input"]).resolve() == HEADER.resolve()
    match = re.search(settings["regex"], HEADER.read_text())
    assert match is not None
    assert settings["result"].format(**match.groupdict()) == header_version()


def test_the_package_is_marked_as_typed():
    assert (Path(dbdf.__file__).parent / "py.typed").is_file()


def test_a_missing_file_raises_file_not_found(tmp_path):
    missing = tmp_path / "missing.dbdf"
    with pytest.raises(FileNotFoundError) as raised:
        dbdf.load(missing)
    error = raised.value
    assert isinstance(error, dbdf.DbdfError) and isinstance(error, errors.DbdfIOError)
    assert error.status == dbdf.Status.IO and (error.rule, error.offset) == (None, None)
    assert error.filename == str(missing) and error.errno == 2
    assert str(error).startswith("io: ") and "missing.dbdf" in str(error)
    with pytest.raises(FileNotFoundError):
        dbdf.Reader(str(missing))


def test_a_writer_into_a_missing_folder_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as raised:
        dbdf.save(tmp_path / "no-such-folder" / "m.dbdf", np.zeros((2, 2)))
    assert raised.value.status == dbdf.Status.IO
    assert not (tmp_path / "no-such-folder").exists()


def test_format_errors_are_value_errors_with_rule_and_offset():
    with pytest.raises(ValueError) as raised:
        dbdf.load(b"definitely not a dbdf file")
    error = raised.value
    assert isinstance(error, errors.DbdfFormatError) and error.status == dbdf.Status.FORMAT
    assert error.offset is not None
    with pytest.raises(errors.DbdfFormatError) as raised:
        dbdf.load(b"")
    assert raised.value.status == dbdf.Status.TRUNCATED


def test_range_and_argument_errors_are_value_errors():
    data = dbdf.Writer.to_memory()
    data.begin_matrix("dense", np.float64, 1, 2)
    data.write_dense(np.array([[0.5, 300.0]]))
    data.finish()
    with pytest.raises(errors.DbdfRangeError) as raised:
        dbdf.load(data.getvalue(), dtype=np.uint8)
    assert isinstance(raised.value, ValueError) and raised.value.status == dbdf.Status.RANGE
    with dbdf.Reader.from_bytes(data.getvalue()) as reader:
        with pytest.raises(errors.DbdfArgumentError) as raised:
            reader.read_window(0, 0, 5, 5)
    assert isinstance(raised.value, ValueError) and raised.value.status == dbdf.Status.INVALID_ARGUMENT


def test_other_statuses_are_plain_dbdf_errors():
    writer = dbdf.Writer.to_memory()
    with pytest.raises(dbdf.DbdfError) as raised:
        writer.finish()
    assert type(raised.value) is dbdf.DbdfError and raised.value.status == dbdf.Status.CALL_ORDER
    writer.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may open any file")
def test_an_unreadable_file_raises_permission_error(tmp_path):
    path = tmp_path / "m.dbdf"
    dbdf.save(path, np.zeros((2, 2)))
    path.chmod(0)
    with pytest.raises(PermissionError):
        dbdf.load(path)
