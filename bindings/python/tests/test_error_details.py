"""What a DbdfError tells besides its status: the rule and byte offset as numbers (None when absent), the whole
message, and the same "status: message" text as every binding."""

from __future__ import annotations

import numpy as np
import pytest

import dbdf
from conftest import VECTORS_DIR


def vector_bytes(name: str) -> bytearray:
    return bytearray((VECTORS_DIR / name).read_bytes())


def decode_every_block(reader: dbdf.Reader) -> None:
    for block in reader:
        block.decode_dense(dtype=np.float64)


def test_a_changed_byte_gives_its_rule_and_offset():
    data = vector_bytes("dense_f64.dbdf")
    data[18] = 0  # the object's value type: 0 is reserved (rule 6)
    with pytest.raises(dbdf.DbdfError) as reserved:
        dbdf.Reader.from_bytes(bytes(data))
    assert (reserved.value.status, reserved.value.rule, reserved.value.offset) == (dbdf.Status.FORMAT, 6, 18)
    assert str(reserved.value) == "format: object value type 0 is reserved at byte 18 (rule 6)"

    data[18] = 10
    data[1] = 9  # data type 9 does not exist: the spec's layout itself, no numbered rule
    with pytest.raises(dbdf.DbdfError) as unknown:
        dbdf.Reader.from_bytes(bytes(data))
    assert (unknown.value.rule, unknown.value.offset) == (None, 1)
    assert unknown.value.message.endswith(" at byte 1 (spec layout)")


def test_a_broken_payload_gives_its_rule_and_offset_when_decoded():
    with dbdf.Reader.from_bytes(bytes(vector_bytes("invalid/csr_unsorted_columns.dbdf"))) as reader:
        with pytest.raises(dbdf.DbdfError) as caught:
            decode_every_block(reader)
    assert (caught.value.status, caught.value.rule, caught.value.offset) == (dbdf.Status.FORMAT, 12, 69)


def test_a_truncated_file_gives_where_it_ends():
    with dbdf.Reader.from_bytes(bytes(vector_bytes("dense_f64.dbdf")[:-1])) as reader:
        with pytest.raises(dbdf.DbdfError) as caught:
            decode_every_block(reader)
    assert (caught.value.status, caught.value.rule, caught.value.offset) == (dbdf.Status.TRUNCATED, 5, 19)


def test_failures_of_other_kinds_have_no_rule_and_no_offset(tmp_path):
    with pytest.raises(dbdf.DbdfError) as missing:
        dbdf.Reader(tmp_path / "absent.dbdf")
    assert (missing.value.status, missing.value.rule, missing.value.offset) == (dbdf.Status.IO, None, None)
    assert str(missing.value).startswith("io: cannot open '")

    writer = dbdf.Writer.to_memory()
    with pytest.raises(dbdf.DbdfError) as call_order:
        writer.finish()
    assert (call_order.value.status, call_order.value.rule, call_order.value.offset) == (dbdf.Status.CALL_ORDER,
                                                                                        None, None)
    assert str(call_order.value) == f"call_order: {call_order.value.message}"


def test_a_later_failure_does_not_inherit_the_details_of_an_earlier_one():
    with dbdf.Reader.from_bytes(bytes(vector_bytes("invalid/csr_unsorted_columns.dbdf"))) as reader:
        with pytest.raises(dbdf.DbdfError):
            decode_every_block(reader)
    with pytest.raises(dbdf.DbdfError) as later:
        dbdf.Writer.to_memory().finish()
    assert (later.value.rule, later.value.offset) == (None, None)


def test_text_is_not_a_dbdf_file():
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.Reader.from_bytes(b"id,price\n1,2.5\n")
    assert str(caught.value) == ('format: not a .dbdf file: it starts with "id,price\\x0A1,2.5\\x0A" (text) instead '
                                 'of format version 1 at byte 0 (rule 6)')
    assert (caught.value.rule, caught.value.offset) == (6, 0)


def test_a_long_message_arrives_whole():
    label = "x" * 2990 + "-é𝄞"
    writer = dbdf.Writer.to_memory()
    with pytest.raises(dbdf.DbdfError) as caught:
        writer.begin_frame(1, [(label, np.int32), (label, np.float64)])
    assert caught.value.status == dbdf.Status.INVALID_ARGUMENT
    assert caught.value.message == (f'label "{label}" of frame column 1 repeats an earlier label; frame labels must '
                                    f'be unique (rule 16)')
    assert str(caught.value) == f"invalid_argument: {caught.value.message}"
    assert (caught.value.rule, caught.value.offset) == (None, None)


def test_an_arrow_consumers_error_gives_back_the_status_rule_and_offset():
    """What a failed Arrow pull raises carries the library's message alone (tests/test_arrow.py shows pyarrow's own);
    from_arrow_error reads the rest back from its class and the message's end."""
    invalid = ValueError("block 0: 21 trailing bytes do not form a complete block header (25 bytes needed) "
                         "at byte 19 (rule 5)")
    converted = dbdf.DbdfError.from_arrow_error(invalid)
    assert isinstance(converted, dbdf.DbdfFormatError)
    assert (converted.status, converted.rule, converted.offset) == (dbdf.Status.FORMAT, 5, 19)
    assert converted.message == str(invalid)
    assert converted.__cause__ is invalid

    layout = dbdf.DbdfError.from_arrow_error(ValueError("data type 9 is unknown at byte 1 (spec layout)"))
    assert (layout.rule, layout.offset) == (None, 1)
    no_place = dbdf.DbdfError.from_arrow_error(ValueError("the object's cells are not all covered (rule 1)"))
    assert (no_place.rule, no_place.offset) == (1, None)
    plain = dbdf.DbdfError.from_arrow_error(ValueError("rule 12 is named in the middle, (rule 3) not at the end"))
    assert (plain.rule, plain.offset) == (None, None)

    # Other statuses name no rule or place, even where the text would match.
    memory = dbdf.DbdfError.from_arrow_error(MemoryError("out of memory at byte 7 (rule 2)"))
    assert isinstance(memory, dbdf.DbdfMemoryError)
    assert (memory.status, memory.rule, memory.offset) == (dbdf.Status.NOMEM, None, None)
    io = dbdf.DbdfError.from_arrow_error(OSError("cannot read 'x.dbdf': Input/output error"))
    assert isinstance(io, dbdf.DbdfIOError) and io.status == dbdf.Status.IO
    with pytest.raises(TypeError, match="KeyError"):
        dbdf.DbdfError.from_arrow_error(KeyError("x"))
