"""The hostile cases of "safe to embed", run end to end under the limits a host process lives with: every run of
the tool or of a Python program over the binding gets a 512 MiB address-space cap (RLIMIT_AS) and a time bound
far above what the work needs, so that a memory flood ends in a refused allocation and a hang or a quadratic walk
in a failed run rather than in a stuck suite. Each case states what the tool must answer, not only that it
survives. The component suites test each mechanism in detail; this one proves the cases together, as a user
meets them.

Environment (set by CTest): DBDF_CLI, the tool; DBDF_LIBRARY and PYTHONPATH, the Python binding; DBDF_VECTORS_DIR,
the golden vectors."""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import struct
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import hostile_files as files

CLI = os.environ["DBDF_CLI"]
VECTORS_DIR = Path(os.environ["DBDF_VECTORS_DIR"])
ADDRESS_SPACE_CAP = 512 << 20
# Far above what any case needs once its work is proportional to what exists: reached only by a hang, an endless
# loop or a super-linear walk (the staircase took 40 s, the wide frame more than two minutes).
TIME_BOUND_SECONDS = 30


def _limits(file_size_cap: int | None):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_CAP, ADDRESS_SPACE_CAP))
        if file_size_cap is not None:
            # A write past the cap then fails with EFBIG instead of killing the process with SIGXFSZ.
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_cap, file_size_cap))
    return apply


def run_tool(*arguments, cwd: Path | None = None, file_size_cap: int | None = None, stdout=subprocess.PIPE,
             timeout: float = TIME_BOUND_SECONDS) -> subprocess.CompletedProcess:
    """The tool under the caps; fails the test (instead of waiting) when it outlives the time bound."""
    return subprocess.run([CLI, *map(str, arguments)], cwd=cwd, stdout=stdout, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, timeout=timeout, preexec_fn=_limits(file_size_cap))


def run_python(program: str, *arguments) -> subprocess.CompletedProcess:
    """A Python program over the binding, under the caps."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(program), *map(str, arguments)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                          timeout=TIME_BOUND_SECONDS, preexec_fn=_limits(None))


def text(completed: subprocess.CompletedProcess) -> str:
    return completed.stdout.decode("utf-8", "replace") + completed.stderr.decode("utf-8", "replace")


def leftovers(directory: Path, *expected: str) -> list[str]:
    return sorted(entry.name for entry in directory.iterdir() if entry.name not in expected)


# -- 1. a file that shrinks under a reader -------------------------------------------------------------------------


def test_a_file_truncated_under_an_open_reader_raises_in_python(tmp_path):
    data = tmp_path / "m.dbdf"
    files.write(data, files.matrix_header(files.DENSE, 64, 64, files.F64) +
                b"".join(files.dense_f64_block(row, 0, [[float(row)] * 64] * 8) for row in range(0, 64, 8)))
    completed = run_python("""
        import os, sys, dbdf
        path = sys.argv[1]
        reader = dbdf.Reader(path)
        blocks = list(reader)
        os.truncate(path, 100)
        for attempt in (lambda: reader.seek(7).decode_dense(), lambda: reader.read()):
            try:
                attempt()
                print("read")
            except dbdf.DbdfError as error:
                print("raised:", error)
        """, data)
    assert completed.returncode == 0, text(completed)
    lines = completed.stdout.decode().splitlines()
    assert len(lines) == 2 and all(line.startswith("raised:") for line in lines), text(completed)


# -- 2, 17. .npy headers ---------------------------------------------------------------------------------------------


def test_a_legal_npy_header_of_50_kilobytes_converts(tmp_path):
    values = [1.5, -2.0, 0.25, 8.0, 0.0, 3.0]
    # numpy writes and loads such a header (np.load with max_header_size raised): the spaces are inside the shape.
    source = files.npy(tmp_path / "big-header.npy", "(2," + " " * 50_000 + "3)",
                       data=b"".join(struct.pack("<d", v) for v in values))
    completed = run_tool("convert", source, tmp_path / "out.dbdf")
    assert completed.returncode == 0, text(completed)
    completed = run_tool("convert", tmp_path / "out.dbdf", tmp_path / "out.csv")
    assert completed.returncode == 0, text(completed)
    assert (tmp_path / "out.csv").read_text().split() == ["1.5,-2,0.25", "8,0,3"]


def test_an_npy_with_a_negative_dimension_is_refused(tmp_path):
    source = files.npy(tmp_path / "negative.npy", "(-2, 3)")
    completed = run_tool("convert", source, tmp_path / "out.dbdf")
    assert completed.returncode == 1, text(completed)
    assert "negative" in text(completed)
    assert leftovers(tmp_path, "negative.npy") == []


# -- 3. memory bounded by blocks and rows, whatever the shape --------------------------------------------------------


def test_a_huge_empty_matrix_reencodes_to_dbdf_at_once(tmp_path):
    source = files.huge_empty_matrix(tmp_path / "huge.dbdf")
    completed = run_tool("convert", source, tmp_path / "out.dbdf")
    assert completed.returncode == 0, text(completed)
    info = run_tool("info", tmp_path / "out.dbdf", "--json")
    assert info.returncode == 0, text(info)
    document = json.loads(info.stdout)
    assert (document["rows"], document["cols"]) == (2**32 - 1, 2**32 - 1)
    assert all(block["block_type"] == "empty" for block in document["blocks"])


def test_a_huge_empty_matrix_streams_to_csv_in_bounded_memory(tmp_path):
    source = files.huge_empty_matrix(tmp_path / "huge.dbdf")
    # The text would be about 2^65 bytes: the file-size cap ends it; memory must stay under the address-space cap
    # until then, and the failure leaves nothing behind.
    completed = run_tool("convert", source, tmp_path / "out.csv", file_size_cap=8 << 20)
    assert completed.returncode == 2, text(completed)
    assert leftovers(tmp_path, "huge.dbdf") == []


def test_an_npy_output_that_cannot_exist_is_refused_up_front(tmp_path):
    source = files.huge_empty_matrix(tmp_path / "huge.dbdf")
    completed = run_tool("convert", source, tmp_path / "out.npy")
    assert completed.returncode == 1, text(completed)
    assert leftovers(tmp_path, "huge.dbdf") == []


# -- 4. work proportional to the cells and blocks that exist ---------------------------------------------------------


def test_a_tall_matrix_without_columns_reencodes_in_one_by_one_blocks(tmp_path):
    source = files.write(tmp_path / "tall.dbdf", files.matrix_header(files.DENSE, 2**63, 0, files.F64))
    completed = run_tool("convert", source, tmp_path / "out.dbdf", "--block", "1x1")
    assert completed.returncode == 0, text(completed)


def test_a_wide_matrix_without_rows_converts_to_mtx(tmp_path):
    source = files.write(tmp_path / "wide.dbdf", files.matrix_header(files.DENSE, 0, 2**63, files.F64))
    completed = run_tool("convert", source, tmp_path / "out.mtx")
    assert completed.returncode == 0, text(completed)
    assert (tmp_path / "out.mtx").read_text().splitlines()[-1].split() == ["0", str(2**63)]


def test_an_npy_of_many_rows_and_no_columns_converts(tmp_path):
    source = files.npy(tmp_path / "rows.npy", "(%d, 0)" % (2**63 - 1))
    completed = run_tool("convert", source, tmp_path / "out.dbdf")
    assert completed.returncode == 0, text(completed)
    info = json.loads(run_tool("info", tmp_path / "out.dbdf", "--json").stdout)
    assert (info["rows"], info["cols"]) == (2**63 - 1, 0)


def test_a_matrix_market_array_without_columns_converts(tmp_path):
    source = files.write(tmp_path / "array.mtx", b"%%MatrixMarket matrix array real general\n1000000000000 0\n")
    completed = run_tool("convert", source, tmp_path / "out.dbdf")
    assert completed.returncode == 0, text(completed)


# -- 5, 6. near-linear work on valid layouts -----------------------------------------------------------------------


def test_a_staircase_of_60k_blocks_validates(tmp_path):
    source = files.staircase(tmp_path / "staircase.dbdf", 30_000)
    completed = run_tool("validate", source)
    assert completed.returncode == 0, text(completed)
    assert completed.stdout.decode().strip() == "ok"


def test_a_frame_of_a_million_columns_converts_to_csv(tmp_path):
    columns = 1_000_000
    source = files.wide_frame(tmp_path / "wide.dbdf", columns)
    completed = run_tool("convert", source, tmp_path / "wide.csv")
    assert completed.returncode == 0, text(completed)
    with open(tmp_path / "wide.csv") as csv:
        labels, values = csv.readline().rstrip("\n").split(","), csv.readline().rstrip("\n").split(",")
    assert labels[:3] == ["c0", "c1", "c2"] and len(labels) == columns
    assert values[-1] == str(columns - 1) and len(values) == columns


def test_a_frame_of_160k_columns_loads_in_python(tmp_path):
    # The Python case: 160k columns took 14 s when every column's read walked every block. Python pays a
    # library call per column (no bulk call exists), so this stays at the size.
    columns = 160_000
    source = files.wide_frame(tmp_path / "wide.dbdf", columns)
    loaded = run_python("""
        import sys, dbdf
        with dbdf.Reader(sys.argv[1]) as reader:
            frame = reader.read_frame()
        last = list(frame)[-1]
        print(len(frame), last, frame[last][0])
        """, source)
    assert loaded.returncode == 0, text(loaded)
    assert loaded.stdout.decode().split() == [str(columns), "c%d" % (columns - 1), "%.1f" % (columns - 1)]


# -- 7, 16. long CSV lines and fields ------------------------------------------------------------------------------


def test_a_10_megabyte_csv_line_converts_in_bounded_memory(tmp_path):
    fields = 3_300_000
    source = files.write(tmp_path / "line.csv", ",".join(["17"] * fields).encode() + b"\n")
    completed = run_tool("convert", source, tmp_path / "line.dbdf", "--header", "no")
    assert completed.returncode == 0, text(completed)
    info = json.loads(run_tool("info", tmp_path / "line.dbdf", "--json").stdout)
    assert (info["rows"], info["cols"]) == (1, fields)


def test_a_10_megabyte_csv_field_is_quoted_as_an_excerpt(tmp_path):
    source = files.write(tmp_path / "field.csv", b"a,b\n1," + b"x" * 10_000_000 + b"\n")
    completed = run_tool("convert", source, tmp_path / "field.dbdf")
    assert completed.returncode == 1, text(completed)
    assert len(completed.stderr) < 1000
    assert leftovers(tmp_path, "field.csv") == []


# -- 8. inputs that are not regular files --------------------------------------------------------------------------


def test_a_fifo_without_writer_is_refused_at_once(tmp_path):
    for name, command in (("in.csv", ["convert", tmp_path / "in.csv", tmp_path / "out.dbdf"]),
                          ("in.npy", ["convert", tmp_path / "in.npy", tmp_path / "out.dbdf"]),
                          ("in.mtx", ["convert", tmp_path / "in.mtx", tmp_path / "out.dbdf"]),
                          ("in.dbdf", ["info", tmp_path / "in.dbdf"]),
                          ("in2.dbdf", ["convert", tmp_path / "in2.dbdf", tmp_path / "out.npy"])):
        os.mkfifo(tmp_path / name)
        completed = run_tool(*command)
        assert completed.returncode == 2, text(completed)
        assert "FIFO" in text(completed) or "regular file" in text(completed)


def test_a_character_device_as_csv_input_is_refused(tmp_path):
    completed = run_tool("convert", "/dev/zero", tmp_path / "out.dbdf", "--from", "csv")
    assert completed.returncode == 2, text(completed)
    assert leftovers(tmp_path) == []


# -- 10-13. outputs ------------------------------------------------------------------------------------------------


def small_matrix(tmp_path) -> Path:
    return files.write(tmp_path / "small.dbdf", files.matrix_header(files.DENSE, 2, 2, files.F64) +
                       files.dense_f64_block(0, 0, [[1.0, 2.0], [3.0, 4.0]]))


def test_dev_stdout_is_written_through_a_pipe(tmp_path):
    source = small_matrix(tmp_path)
    completed = run_tool("convert", source, "/dev/stdout", "--to", "csv")
    assert completed.returncode == 0, text(completed)
    assert completed.stdout.decode().split() == ["1,2", "3,4"]
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_dev_null_stays_a_device(tmp_path):
    source = small_matrix(tmp_path)
    completed = run_tool("convert", source, "/dev/null", "--to", "npy")
    assert completed.returncode == 0, text(completed)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_symbolic_link_is_followed_and_a_replaced_file_keeps_its_mode(tmp_path):
    source = small_matrix(tmp_path)
    target = files.write(tmp_path / "target.csv", b"old\n")
    target.chmod(0o600)
    (tmp_path / "link.csv").symlink_to("target.csv")
    completed = run_tool("convert", source, tmp_path / "link.csv")
    assert completed.returncode == 0, text(completed)
    assert (tmp_path / "link.csv").is_symlink()
    assert target.read_text().split() == ["1,2", "3,4"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_daphne_output_appears_with_its_meta_or_not_at_all(tmp_path):
    source = small_matrix(tmp_path)
    (tmp_path / "out.dbdf.meta").mkdir()  # the sidecar cannot be written
    completed = run_tool("convert", source, tmp_path / "out.dbdf", "--dialect-out", "daphne")
    assert completed.returncode == 2, text(completed)
    assert leftovers(tmp_path, "small.dbdf", "out.dbdf.meta") == []


def test_a_target_name_of_245_characters_is_written(tmp_path):
    source = small_matrix(tmp_path)
    name = "n" * 240 + ".dbdf"
    completed = run_tool("convert", source, tmp_path / name)
    assert completed.returncode == 0, text(completed)
    assert leftovers(tmp_path, "small.dbdf") == [name]


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_leaves_no_temporary_file(tmp_path, signal_number):
    source = files.huge_empty_matrix(tmp_path / "huge.dbdf")
    child = subprocess.Popen([CLI, "convert", str(source), str(tmp_path / "out.csv")], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, preexec_fn=_limits(None))
    try:
        # The conversion streams for ever; wait until it has written a few MiB, wherever its bytes go.
        deadline = time.monotonic() + TIME_BOUND_SECONDS
        while time.monotonic() < deadline:
            if child.poll() is not None:
                pytest.fail("the conversion ended before the signal: " + child.stderr.read().decode())
            written = int(next(line for line in Path(f"/proc/{child.pid}/io").read_text().splitlines()
                               if line.startswith("wchar:")).split()[1])
            if written > (4 << 20):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the conversion wrote nothing")
        child.send_signal(signal_number)
        child.wait(timeout=TIME_BOUND_SECONDS)
    finally:
        child.kill()
        child.wait()
    assert child.returncode != 0
    assert leftovers(tmp_path, "huge.dbdf") == []


# -- 14, 15. errors and what reaches the terminal --------------------------------------------------------------------


def invalid_vectors():
    return json.loads((VECTORS_DIR / "vectors.json").read_text())["invalid"]


@pytest.mark.parametrize("vector", invalid_vectors(), ids=lambda vector: vector["file"])
def test_conversions_of_an_invalid_file_name_a_rule_validate_finds(tmp_path, vector):
    source = VECTORS_DIR / vector["file"]
    validate = run_tool("validate", source)
    assert validate.returncode == 1, text(validate)
    rules = {word.rstrip(":") for word in text(validate).split() if word.rstrip(":").isdigit()}
    for output in ("out.npy", "out.csv", "out.mtx", "out.dbdf"):
        completed = run_tool("convert", source, tmp_path / output)
        assert completed.returncode == 1, (output, text(completed))
        said = text(completed)
        if "rule " in said:
            assert said.split("rule ")[1].split()[0].rstrip(",:;)") in rules, (output, said, text(validate))
    assert leftovers(tmp_path) == []


def test_labels_reach_the_terminal_escaped(tmp_path):
    source = files.frame_with_labels(tmp_path / "labels.dbdf", [b"\x1b[31mred", b"two\nlines", b"bad\xffutf8"])
    for command in (["info", source], ["cat", source]):
        completed = run_tool(*command)
        assert completed.returncode == 0, text(completed)
        assert b"\x1b" not in completed.stdout and b"\xff" not in completed.stdout
        assert b"two\nlines" not in completed.stdout
        assert b"\\x1b[31mred" in completed.stdout or b"\\e[31mred" in completed.stdout


# -- 18. integers out of the C types' range --------------------------------------------------------------------------


def test_python_refuses_integers_beyond_64_bits(tmp_path):
    source = small_matrix(tmp_path)
    completed = run_python("""
        import sys, dbdf
        reader = dbdf.Reader(sys.argv[1])
        writer = dbdf.Writer.to_memory()
        for attempt in (lambda: reader.read_column(2**64), lambda: reader.seek(2**64),
                        lambda: reader.read_column(-1),
                        lambda: writer.begin_matrix("dense", "float64", 2**64 + 3, 1)):
            try:
                attempt()
                print("accepted")
            except (OverflowError, ValueError, dbdf.DbdfError) as error:
                print("refused:", type(error).__name__)
        """, source)
    assert completed.returncode == 0, text(completed)
    lines = completed.stdout.decode().splitlines()
    assert len(lines) == 4 and all(line.startswith("refused:") for line in lines), text(completed)
