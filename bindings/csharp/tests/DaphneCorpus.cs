using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;

namespace Dbdf.Tests
{
    /// <summary>
    /// The files DAPHNE's runtime wrote (tests/vectors/daphne-runtime) as corpus.json describes them: per file the
    /// data type, value type, shape and values (dense row-major; CSR as row_offsets, col_indices, values; frames per
    /// column), whether dbdf's daphne writer reproduces it, its .meta file, or the status it is refused with.
    /// </summary>
    internal static class DaphneCorpus
    {
        public static string Directory
        {
            get { return Path.Combine(GoldenVectorsTests.VectorsDirectory, "daphne-runtime"); }
        }

        public static string PathOf(string file)
        {
            return Path.Combine(Directory, file);
        }

        /// <summary>Every entry of corpus.json's "files".</summary>
        public static List<Dictionary<string, object>> Entries()
        {
            string manifest = PathOf("corpus.json");
            Assert.True(File.Exists(manifest), "corpus " + Path.GetFullPath(manifest) + " exists");
            var corpus = (Dictionary<string, object>)MiniJson.Parse(File.ReadAllText(manifest, System.Text.Encoding.UTF8));
            return ((List<object>)corpus["files"]).Cast<Dictionary<string, object>>().ToList();
        }

        /// <summary>Every entry of corpus.json's "invalid": files that open but break a rule in their payload.</summary>
        public static List<Dictionary<string, object>> Invalid()
        {
            string manifest = PathOf("corpus.json");
            var corpus = (Dictionary<string, object>)MiniJson.Parse(File.ReadAllText(manifest, System.Text.Encoding.UTF8));
            return ((List<object>)corpus["invalid"]).Cast<Dictionary<string, object>>().ToList();
        }

        public static List<Dictionary<string, object>> Readable()
        {
            return Entries().Where(entry => !entry.ContainsKey("refused")).ToList();
        }

        public static List<Dictionary<string, object>> Refused()
        {
            return Entries().Where(entry => entry.ContainsKey("refused")).ToList();
        }

        /// <summary>The dense and CSR matrices and the scalars dbdf's daphne writer must reproduce byte for byte.</summary>
        public static List<Dictionary<string, object>> ReproducibleMatricesAndScalars()
        {
            return Readable().Where(entry => IsTrue(entry, "reproducible")
                && (DataTypeOf(entry) == DataType.Dense || DataTypeOf(entry) == DataType.Csr
                    || DataTypeOf(entry) == DataType.Scalar)).ToList();
        }

        public static Dictionary<string, object> Entry(string file)
        {
            return Entries().Single(entry => (string)entry["file"] == file);
        }

        public static bool IsTrue(Dictionary<string, object> entry, string key)
        {
            return entry.ContainsKey(key) && (bool)entry[key];
        }

        public static string FileOf(Dictionary<string, object> entry)
        {
            return (string)entry["file"];
        }

        public static DataType DataTypeOf(Dictionary<string, object> entry)
        {
            return (DataType)Enum.Parse(typeof(DataType), (string)entry["data_type"], true);
        }

        public static ValueType ValueTypeOf(Dictionary<string, object> entry)
        {
            return (ValueType)Enum.Parse(typeof(ValueType), (string)entry["value_type"], true);
        }

        public static long Integer(Dictionary<string, object> entry, string key)
        {
            return (long)entry[key];
        }

        public static List<Dictionary<string, object>> Columns(Dictionary<string, object> entry)
        {
            return ((List<object>)entry["columns"]).Cast<Dictionary<string, object>>().ToList();
        }

        /// <summary>
        /// The JSON numbers under <paramref name="key"/> as an array of the element type of <paramref name="type"/>. A
        /// float may also be a string "0x..." of its bits (8 hex digits for f32, 16 for f64): NaN payloads, infinities
        /// and -0.0, which JSON numbers cannot hold.
        /// </summary>
        public static Array Values(Dictionary<string, object> entry, string key, ValueType type)
        {
            List<object> numbers = (List<object>)entry[key];
            Array values = TestData.NewArray(type, numbers.Count);
            for (int index = 0; index < numbers.Count; index++)
            {
                string bits = numbers[index] as string;
                if (bits != null && (type == ValueType.F32 || type == ValueType.F64))
                {
                    int digits = type == ValueType.F32 ? 8 : 16;
                    Assert.True(bits.StartsWith("0x", StringComparison.Ordinal) && bits.Length == 2 + digits,
                        key + "[" + index + "]: " + bits + " is the bit pattern of a " + type + " value");
                    ulong pattern = ulong.Parse(bits.Substring(2), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
                    if (type == ValueType.F64)
                    {
                        values.SetValue(BitConverter.Int64BitsToDouble(unchecked((long)pattern)), index);
                    }
                    else
                    {
                        values.SetValue(BitConverter.ToSingle(BitConverter.GetBytes((uint)pattern), 0), index);
                    }
                    continue;
                }
                // Checked: a value the element type cannot hold is a corpus error, not something to wrap.
                values.SetValue(Convert.ChangeType(numbers[index], type.ElementType(), CultureInfo.InvariantCulture),
                    index);
            }
            return values;
        }

        public static ulong[] RowOffsets(Dictionary<string, object> entry)
        {
            return (ulong[])Values(entry, "row_offsets", ValueType.U64);
        }

        public static ulong[] ColIndices(Dictionary<string, object> entry)
        {
            return (ulong[])Values(entry, "col_indices", ValueType.U64);
        }

        /// <summary>Asserts that two value arrays hold the same bit patterns (so -0.0 and NaN payloads count).</summary>
        public static void AssertSameValues(Array expected, Array actual, string what)
        {
            Assert.Equal(expected.GetType(), actual.GetType(), what + ": element type");
            Assert.ArrayEqual(TestData.ToBits(expected), TestData.ToBits(actual), what);
        }
    }
}
