"""The value-overload generator: reading dbdf.h's enums, checking the table against them, expanding templates, and
what adding a value type to the header and the table produces."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

CODEGEN_DIR = Path(__file__).resolve().parents[1]
REPOSITORY = CODEGEN_DIR.parents[1]
sys.path.insert(0, str(CODEGEN_DIR))

import c_enums  # noqa: E402
import javadoc_layout  # noqa: E402
import templates  # noqa: E402
import value_types  # noqa: E402

HEADER = Path(os.environ.get("DBDF_HEADER", REPOSITORY / "capi" / "include" / "dbdf.h"))
TABLE = CODEGEN_DIR / "value_types.txt"
GENERATOR = CODEGEN_DIR / "generate_value_overloads.py"

VALUE_TYPE_ENUM = """
/** Value type codes. */
typedef enum dbdf_value_type {
    DBDF_VALUE_NONE = 0,
    DBDF_VALUE_U8 = 1, /**< a comment, with a comma */
    DBDF_VALUE_I8 = 5,
    DBDF_VALUE_F64 = 10
} dbdf_value_type_t;
"""
TABLE_ROWS = """\
# name  java_array  java_untyped  csharp_element
F64     double      yes           double
I8      byte        yes           sbyte
U8      byte        no            byte
"""


class Files:
    """A header and a table written to a temporary directory."""

    def __init__(self, directory: str, header: str = VALUE_TYPE_ENUM, table: str = TABLE_ROWS):
        self.header = Path(directory) / "dbdf.h"
        self.table = Path(directory) / "value_types.txt"
        self.header.write_text(header)
        self.table.write_text(table)


class ReadEnumTest(unittest.TestCase):
    def test_the_value_types_of_dbdf_h(self):
        self.assertEqual(c_enums.read_enum(HEADER, "dbdf_value_type_t"), {
            "DBDF_VALUE_NONE": 0, "DBDF_VALUE_U8": 1, "DBDF_VALUE_U16": 2, "DBDF_VALUE_U32": 3,
            "DBDF_VALUE_U64": 4, "DBDF_VALUE_I8": 5, "DBDF_VALUE_I16": 6, "DBDF_VALUE_I32": 7,
            "DBDF_VALUE_I64": 8, "DBDF_VALUE_F32": 9, "DBDF_VALUE_F64": 10})

    def test_negative_values_and_comments_between_enumerators(self):
        statuses = c_enums.read_enum(HEADER, "dbdf_status_t")
        self.assertEqual(statuses["DBDF_OK"], 0)
        self.assertEqual(statuses["DBDF_ERR_INVALID_ARGUMENT"], -1)
        # DBDF_ERR_INTERNAL follows a multi-line comment in dbdf.h.
        self.assertEqual(statuses["DBDF_ERR_INTERNAL"], -10)

    def test_a_comma_inside_a_comment_is_not_a_separator(self):
        with tempfile.TemporaryDirectory() as directory:
            files = Files(directory)
            self.assertEqual(c_enums.read_enum(files.header, "dbdf_value_type_t"),
                             {"DBDF_VALUE_NONE": 0, "DBDF_VALUE_U8": 1, "DBDF_VALUE_I8": 5, "DBDF_VALUE_F64": 10})

    def test_an_enumerator_without_a_value_is_refused(self):
        with tempfile.TemporaryDirectory() as directory:
            files = Files(directory, header=VALUE_TYPE_ENUM.replace("DBDF_VALUE_F64 = 10", "DBDF_VALUE_F64"))
            with self.assertRaisesRegex(c_enums.HeaderError, "enumerator 'DBDF_VALUE_F64' has no explicit"):
                c_enums.read_enum(files.header, "dbdf_value_type_t")

    def test_a_missing_enum_is_refused(self):
        with self.assertRaisesRegex(c_enums.HeaderError, r"no 'typedef enum \{ \.\.\. \} dbdf_colour_t;'"):
            c_enums.read_enum(HEADER, "dbdf_colour_t")


class TableTest(unittest.TestCase):
    def test_the_table_lists_the_value_types_of_dbdf_h(self):
        loaded = value_types.load(TABLE, HEADER)
        self.assertEqual([(value_type.name, value_type.code) for value_type in loaded], [
            ("F64", 10), ("F32", 9), ("I64", 8), ("U64", 4), ("I32", 7), ("U32", 3), ("I16", 6), ("U16", 2),
            ("I8", 5), ("U8", 1)])

    def test_java_arrays_and_what_their_untyped_overloads_assume(self):
        arrays = value_types.java_arrays(value_types.load(TABLE, HEADER))
        self.assertEqual([(item["array"], item["type"]) for item in arrays], [
            ("double[]", "F64"), ("float[]", "F32"), ("long[]", "I64"), ("int[]", "I32"), ("short[]", "I16"),
            ("byte[]", "I8")])
        self.assertEqual(arrays[0]["unsigned_note"], "")
        self.assertEqual(arrays[2]["unsigned_note"], " (pass {@link ValueType#U64} explicitly for unsigned data)")
        self.assertEqual(arrays[3]["an_array"], "an int[]")
        self.assertEqual(arrays[4]["an_array"], "a short[]")

    def test_csharp_element_types(self):
        items = value_types.csharp_value_types(value_types.load(TABLE, HEADER))
        self.assertEqual([item["element"] for item in items],
                         ["double", "float", "long", "ulong", "int", "uint", "short", "ushort", "sbyte", "byte"])

    def assert_refused(self, message: str, header: str = VALUE_TYPE_ENUM, table: str = TABLE_ROWS):
        with tempfile.TemporaryDirectory() as directory:
            files = Files(directory, header, table)
            with self.assertRaisesRegex(value_types.TableError, message):
                value_types.load(files.table, files.header)

    def test_a_value_type_of_the_header_without_a_row(self):
        self.assert_refused(r"no row for DBDF_VALUE_F16 = 11 of .*dbdf\.h",
                            header=VALUE_TYPE_ENUM.replace("= 10", "= 10,\n    DBDF_VALUE_F16 = 11"))

    def test_a_row_the_header_does_not_declare(self):
        self.assert_refused(r"value_types\.txt:5: value type U16: .* declares no DBDF_VALUE_U16",
                            table=TABLE_ROWS + "U16     short       yes           ushort\n")

    def test_a_row_listed_twice(self):
        self.assert_refused(r"value_types\.txt:5: value type U8 is listed twice",
                            table=TABLE_ROWS + "U8      byte        no            byte\n")

    def test_a_row_with_a_missing_field(self):
        self.assert_refused(r"value_types\.txt:3: 3 fields, expected 4",
                            table=TABLE_ROWS.replace("I8      byte        yes", "I8      byte"))

    def test_an_array_needs_exactly_one_untyped_value_type(self):
        self.assert_refused(r"byte\[\] needs exactly one value type with java_untyped yes, has 2 \(I8, U8\)",
                            table=TABLE_ROWS.replace("U8      byte        no ", "U8      byte        yes"))
        self.assert_refused(r"byte\[\] needs exactly one value type with java_untyped yes, has 0 \(none\)",
                            table=TABLE_ROWS.replace("I8      byte        yes", "I8      byte        no "))

    def test_a_java_array_that_is_no_primitive(self):
        self.assert_refused(r"java_array 'Byte' of I8 is not a Java primitive",
                            table=TABLE_ROWS.replace("I8      byte", "I8      Byte"))

    def test_two_value_types_with_one_csharp_element_type(self):
        self.assert_refused(r"I8, U8 share the C# element type byte",
                            table=TABLE_ROWS.replace("sbyte", "byte "))


class ExpandTest(unittest.TestCase):
    ITEMS = [{"array": "double[]", "type": "F64"}, {"array": "long[]", "type": "I64"},
             {"array": "int[]", "type": "I32"}]

    def expand(self, template: str, global_values=None) -> str:
        return templates.expand(textwrap.dedent(template), "T.java.in", "array", self.ITEMS,
                                global_values or {"first_array": "double[]"})

    def test_first_others_and_every(self):
        self.assertEqual(self.expand("""\
            class C {
            //$ for each array
            //$ first
                /** Full doc. */
            //$ others
                /** As f(${first_array}), into ${array}. */
            //$ every
                void f(${array} v) { g(ValueType.${type}, v); }
            //$ end
            }
            """), textwrap.dedent("""\
            class C {
                /** Full doc. */
                void f(double[] v) { g(ValueType.F64, v); }
                /** As f(double[]), into long[]. */
                void f(long[] v) { g(ValueType.I64, v); }
                /** As f(double[]), into int[]. */
                void f(int[] v) { g(ValueType.I32, v); }
            }
            """))

    def test_text_outside_blocks_takes_only_global_placeholders(self):
        self.assertEqual(self.expand("a ${first_array} $$x\n"), "a double[] $x\n")
        with self.assertRaisesRegex(templates.TemplateError, r"T\.java\.in:1: unknown placeholder \$\{array\}"):
            self.expand("a ${array}\n")

    def test_an_unknown_placeholder_inside_a_block_names_its_line(self):
        with self.assertRaisesRegex(templates.TemplateError, r"T\.java\.in:3: unknown placeholder \$\{kind\}"):
            self.expand("x\n//$ for each array\n${kind}\n//$ end\n")

    def test_malformed_blocks(self):
        with self.assertRaisesRegex(templates.TemplateError, r"T\.java\.in:1: block not closed"):
            self.expand("//$ for each array\nx\n")
        with self.assertRaisesRegex(templates.TemplateError, r"T\.java\.in:2: '//\$ for each array' inside a block"):
            self.expand("//$ for each array\n//$ for each array\n//$ end\n//$ end\n")
        with self.assertRaisesRegex(templates.TemplateError, r"T\.java\.in:1: expected '//\$ for each array'"):
            self.expand("//$ end\n")
        with self.assertRaisesRegex(templates.TemplateError, r"expected '//\$ for each array'.*'//\$ for each type'"):
            self.expand("//$ for each type\n//$ end\n")


class JavadocLayoutTest(unittest.TestCase):
    def test_a_comment_that_fits_on_one_line_is_put_there(self):
        self.assertEqual(javadoc_layout.layout("    /**\n     * As f(double[]), into\n     * a float[].\n     */\n"),
                         "    /** As f(double[]), into a float[]. */\n")

    def test_a_line_too_long_is_filled_to_120_columns(self):
        words = " ".join(f"word{number}" for number in range(40))
        laid_out = javadoc_layout.layout(f"    /** {words} */\n    void f();\n")
        lines = laid_out.splitlines()
        self.assertEqual(lines[0], "    /**")
        self.assertEqual(lines[-2:], ["     */", "    void f();"])
        self.assertTrue(all(len(line) <= 120 for line in lines), laid_out)
        self.assertEqual(" ".join(line.removeprefix("     * ") for line in lines[1:-2]), words)
        self.assertGreater(len(lines[1]), 110)

    def test_comments_that_fit_keep_their_line_breaks_and_paragraphs(self):
        comment = "/**\n * First paragraph, long enough not to be joined with the second one into one line: there\n" \
                  " * are two.\n *\n * <p>Second.\n */\n"
        self.assertEqual(javadoc_layout.layout(comment), comment)

    def test_paragraphs_stay_apart_when_filled(self):
        long_line = "x" * 60 + " " + "y" * 60
        self.assertEqual(javadoc_layout.layout(f"/**\n * {long_line}\n *\n * Second.\n */"),
                         f"/**\n * {'x' * 60}\n * {'y' * 60}\n *\n * Second.\n */")


class GeneratorTest(unittest.TestCase):
    """The command line, run as the build runs it."""

    def run_generator(self, language: str, files: Files, template: Path, output: Path):
        return subprocess.run([sys.executable, str(GENERATOR), "--language", language, "--header", str(files.header),
                               "--table", str(files.table), "--output-dir", str(output), str(template)],
                              capture_output=True, text=True, check=False)

    def test_adding_a_value_type_is_one_row(self):
        header = VALUE_TYPE_ENUM.replace("= 10", "= 10,\n    DBDF_VALUE_F16 = 11")
        table = TABLE_ROWS + "F16     short       yes           Half\n"
        with tempfile.TemporaryDirectory() as directory:
            files = Files(directory, header, table)
            template = Path(directory) / "Block.Typed.cs.in"
            template.write_text("//$ for each value type\nvoid Decode(${element}[] values) // ${type}\n//$ end\n")
            result = self.run_generator("csharp", files, template, Path(directory) / "out")
            self.assertEqual(result.returncode, 0, result.stderr)
            generated = (Path(directory) / "out" / "Block.Typed.cs").read_text()
            self.assertEqual(generated.splitlines()[2:], [
                "void Decode(double[] values) // F64", "void Decode(sbyte[] values) // I8",
                "void Decode(byte[] values) // U8", "void Decode(Half[] values) // F16"])
            self.assertTrue(generated.startswith("// Generated from Block.Typed.cs.in and bindings/codegen/value_types.txt"))

    def test_a_disagreeing_table_fails_with_one_message_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as directory:
            files = Files(directory, header=VALUE_TYPE_ENUM.replace("= 10", "= 10,\n    DBDF_VALUE_F16 = 11"))
            template = Path(directory) / "A.java.in"
            template.write_text("class A {}\n")
            result = self.run_generator("java", files, template, Path(directory) / "out")
            self.assertEqual(result.returncode, 1)
            self.assertRegex(result.stderr, r"^generate_value_overloads: .*value_types\.txt: no row for "
                                            r"DBDF_VALUE_F16 = 11")
            self.assertFalse((Path(directory) / "out").exists())


if __name__ == "__main__":
    unittest.main()
