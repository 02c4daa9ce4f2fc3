"""Loading libdbdf: search order, the error listing what was searched, the version check, prototypes, and the
Python enums against the library's own names."""

from __future__ import annotations

import ctypes.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import dbdf
from conftest import VECTORS_DIR
from dbdf import _library

SOURCE_PACKAGE_ROOT = Path(dbdf.__file__).resolve().parents[1]


def run_python(code: str, pythonpath: str, library: str | None,
               interpreter: str = sys.executable) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key not in ("DBDF_LIBRARY", "PYTHONPATH")}
    environment["PYTHONPATH"] = pythonpath
    if library is not None:
        environment["DBDF_LIBRARY"] = library
    return subprocess.run([interpreter, "-c", code], capture_output=True, text=True, env=environment)


def installed_library_found(prefix_only: bool = False) -> bool:
    """Whether a libdbdf in the install prefix or the system directories would be found without DBDF_LIBRARY."""
    for candidate in _library._default_candidates():
        if candidate.where.startswith("bundled"):
            continue
        if candidate.path is not None and (os.sep not in candidate.path or os.path.exists(candidate.path)):
            return True
    return False


def package_with_bundled_library(tmp_path) -> str:
    """A copy of the package under test with a copy of the library bundled next to it; returns its PYTHONPATH."""
    root = tmp_path / "bundled"
    shutil.copytree(SOURCE_PACKAGE_ROOT / "dbdf", root / "dbdf", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(os.environ["DBDF_LIBRARY"], root / "dbdf" / _library._file_names()[0])
    return str(root)


def prefix_with_installed_library(tmp_path) -> tuple[str, Path]:
    """A virtual environment whose lib/ holds a copy of the library: (its interpreter, the copy)."""
    prefix = tmp_path / "prefix"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(prefix)],
                   check=True)
    installed = prefix / "lib" / Path(_library._file_names()[0])
    shutil.copyfile(os.environ["DBDF_LIBRARY"], installed)
    return str(prefix / ("Scripts" if sys.platform == "win32" else "bin") / "python"), installed


def test_these_tests_use_the_library_named_by_the_environment_variable():
    assert dbdf.library_path == os.environ["DBDF_LIBRARY"]


def test_the_environment_variable_names_the_library():
    library = os.environ["DBDF_LIBRARY"]
    result = run_python("import dbdf; print(dbdf.library_path)", str(SOURCE_PACKAGE_ROOT), library)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == library


def test_the_environment_variable_comes_before_the_bundled_and_the_installed_library(tmp_path):
    package = package_with_bundled_library(tmp_path)
    interpreter, installed = prefix_with_installed_library(tmp_path)
    chosen = tmp_path / "chosen" / installed.name
    chosen.parent.mkdir()
    shutil.copyfile(os.environ["DBDF_LIBRARY"], chosen)
    result = run_python("import dbdf; print(dbdf.library_path)", package, str(chosen), interpreter)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(chosen)


def test_a_library_the_environment_variable_names_that_cannot_be_loaded_is_an_error(tmp_path):
    package = package_with_bundled_library(tmp_path)  # its bundled library must not be loaded instead
    missing = str(tmp_path / "nowhere" / "libdbdf.so")
    result = run_python("import dbdf", package, missing)
    assert result.returncode != 0
    assert "ImportError: dbdf: cannot load the shared library libdbdf that DBDF_LIBRARY names" in result.stderr
    assert f"environment variable DBDF_LIBRARY: {missing}: not found" in result.stderr
    assert "unset it to use the bundled or installed library" in result.stderr
    assert "bundled next to the package" not in result.stderr


def test_without_the_variable_the_bundled_library_comes_first(tmp_path):
    package = package_with_bundled_library(tmp_path)
    interpreter, _ = prefix_with_installed_library(tmp_path)
    result = run_python("import dbdf; print(dbdf.library_path)", package, None, interpreter)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(Path(package) / "dbdf" / _library._file_names()[0])


def test_the_built_package_loads_its_bundled_library():
    staged = os.environ.get("DBDF_STAGED_PACKAGE")
    if not staged:
        pytest.skip("DBDF_STAGED_PACKAGE (the package staged by the CMake build) is not set")
    result = run_python("import dbdf; print(dbdf.library_path); print(dbdf.load(" + repr(
        str(VECTORS_DIR / "dense_u8.dbdf")) + ").tolist())", staged, None)
    assert result.returncode == 0, result.stderr
    library_path, values = result.stdout.splitlines()
    assert Path(library_path).parent == Path(staged) / "dbdf"
    assert Path(library_path).name.startswith("libdbdf")
    assert values == "[[0, 1, 255], [7, 128, 2]]"


def test_without_the_variable_a_library_in_the_install_prefix_is_found(tmp_path):
    interpreter, installed = prefix_with_installed_library(tmp_path)
    result = run_python("import dbdf; print(dbdf.library_path)", str(SOURCE_PACKAGE_ROOT), None, interpreter)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(installed)


def test_a_missing_library_is_reported_with_every_place_searched():
    if installed_library_found():
        pytest.skip("an installed libdbdf would be found on this machine")
    result = run_python("import dbdf", str(SOURCE_PACKAGE_ROOT), None)
    assert result.returncode != 0
    assert "ImportError: dbdf: cannot find the shared library libdbdf. Searched, in order:" in result.stderr
    lines = result.stderr.splitlines()

    def first_line_with(text: str) -> int:
        return next(number for number, line in enumerate(lines) if text in line)

    assert (first_line_with("environment variable DBDF_LIBRARY: not set")
            < first_line_with(f"bundled next to the package: {SOURCE_PACKAGE_ROOT / 'dbdf'}")
            < first_line_with("install prefix: " + str(Path(sys.prefix) / "lib"))
            < first_line_with("ctypes.util.find_library('dbdf')"))


def test_a_file_that_is_not_a_library_is_reported(tmp_path):
    fake = tmp_path / "libdbdf.so"
    fake.write_text("not a shared library")
    result = run_python("import dbdf", str(SOURCE_PACKAGE_ROOT), str(fake))
    assert result.returncode != 0
    assert f"environment variable DBDF_LIBRARY: {fake}: cannot be loaded" in result.stderr


def test_a_library_that_is_not_libdbdf_is_reported():
    other = ctypes.util.find_library("m") or ctypes.util.find_library("c")
    if other is None:
        pytest.skip("no C library to stand in for a wrong one")
    result = run_python("import dbdf", str(SOURCE_PACKAGE_ROOT), other)
    assert result.returncode != 0
    assert f"environment variable DBDF_LIBRARY: {other}: is not libdbdf (it has no dbdf_version)" in result.stderr


def test_version_check():
    assert dbdf.library_version() == "0.2.0"
    assert _library.lib.dbdf_version() // 10000 == _library.ABI_MAJOR
    _library.check_version(200, "lib")
    _library.check_version(299, "lib")
    _library.check_version(305, "lib")
    # 0.1 lacks the byte sources and the error's rule and offset that this package calls.
    with pytest.raises(ImportError, match="libdbdf 0.1.9, but this package needs 0.x with x >= 2"):
        _library.check_version(109, "lib")
    with pytest.raises(ImportError, match="libdbdf 1.0.0, but this package needs 0.x"):
        _library.check_version(10000, "lib")
    with pytest.raises(ImportError, match="libdbdf 0.0.5"):
        _library.check_version(5, "lib")


def test_every_function_called_has_a_declared_prototype():
    called = set()
    for source in Path(dbdf.__file__).parent.glob("*.py"):
        called |= set(re.findall(r"\blib\.(dbdf_\w+)", source.read_text()))
    assert called
    assert called <= set(_library._PROTOTYPES)
    for name in _library._PROTOTYPES:
        assert getattr(_library.lib, name).argtypes is not None


def names(enum_type, c_function) -> dict[int, str]:
    return {int(member): c_function(int(member)).decode() for member in enum_type}


def test_enums_agree_with_the_library():
    lib = _library.lib
    for status, name in names(dbdf.Status, lib.dbdf_status_name).items():
        assert dbdf.Status(status).name.lower() == name
    for value_type, name in names(dbdf.ValueType, lib.dbdf_value_type_name).items():
        assert dbdf.ValueType(value_type).name.lower() == name
    for data_type, name in names(dbdf.DataType, lib.dbdf_data_type_name).items():
        assert dbdf.DataType(data_type).name.lower() == name
    for block_type, name in names(dbdf.BlockType, lib.dbdf_block_type_name).items():
        assert dbdf.BlockType(block_type).name.lower() == name
    for encoding, name in names(dbdf.Encoding, lib.dbdf_encoding_name).items():
        assert dbdf.Encoding(encoding).name.lower().replace("_", "-") == name
    for dialect, name in names(dbdf.Dialect, lib.dbdf_dialect_name).items():
        assert dbdf.Dialect(dialect).name.lower() == name
        parsed = ctypes.c_int(-1)
        assert lib.dbdf_dialect_from_name(name.encode(), ctypes.byref(parsed)) == dbdf.Status.OK
        assert parsed.value == dialect
    assert lib.dbdf_dialect_name(2) == b"unknown"
    for value_type in dbdf.ValueType:
        if value_type is not dbdf.ValueType.NONE:
            assert lib.dbdf_value_type_size(value_type) == value_type.dtype.itemsize
    assert lib.dbdf_status_name(-12) == b"unknown"


def test_an_unknown_status_code_still_makes_an_error():
    error = dbdf.DbdfError(-99, "from a newer library")
    assert error.status == -99 and error.code == -99
    assert str(error) == "unknown: from a newer library"


@pytest.mark.parametrize("struct_type, init_name, defaults", [
    (_library.WriteOptionsStruct, "dbdf_write_options_init", {"encoding": 0, "block_rows": 0, "block_cols": 0}),
    (_library.OpenOptionsStruct, "dbdf_open_options_init", {"dialect": 0, "threads": 0, "memory_map": 0}),
    (_library.WriterOptionsStruct, "dbdf_writer_options_init", {"dialect": 0, "write_meta": 1, "durable": 0,
                                                                "threads": 0}),
])
def test_options_structs_have_the_layout_of_the_header(struct_type, init_name, defaults):
    """The library's init function writes sizeof(its struct) into struct_size, and its defaults into the fields:
    both must land where this package's ctypes struct has them. The buffer is larger than the struct, so a larger
    struct in the library fails the comparison instead of overwriting memory."""
    buffer = (ctypes.c_char * (ctypes.sizeof(struct_type) + 64))()
    ctypes.memset(buffer, 0xAB, ctypes.sizeof(buffer))
    options = struct_type.from_buffer(buffer)
    getattr(_library.lib, init_name)(ctypes.byref(options))
    assert options.struct_size == ctypes.sizeof(struct_type)
    assert {field: getattr(options, field) for field in defaults} == defaults
    assert bytes(buffer[ctypes.sizeof(struct_type):]) == b"\xab" * 64
