using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Text;

namespace Dbdf.Tests
{
    /// <summary>
    /// Every public enum that mirrors a C enum against the constants SWIG generated from dbdf.h: the same names and
    /// codes both ways, so that a constant added to the header without a C# member fails, and so does a member
    /// without a constant.
    /// </summary>
    public sealed class EnumCodesTests
    {
        /// <summary>The int constants SWIG generated from dbdf.h named <paramref name="prefix"/>..., sorted.</summary>
        private static string HeaderConstants(string prefix)
        {
            IEnumerable<string> constants = typeof(Dbdf.Internal.dbdf)
                .GetFields(BindingFlags.Public | BindingFlags.Static)
                .Where(field => field.IsLiteral && field.FieldType == typeof(int) && field.Name.StartsWith(prefix,
                    StringComparison.Ordinal))
                .Select(field => field.Name + " = " + (int)field.GetRawConstantValue());
            return string.Join(", ", constants.OrderBy(text => text, StringComparer.Ordinal));
        }

        /// <summary>A member's name as dbdf.h spells it: AsGiven becomes AS_GIVEN, U16 stays U16.</summary>
        internal static string HeaderSpelling(string memberName)
        {
            StringBuilder spelled = new StringBuilder();
            for (int index = 0; index < memberName.Length; index++)
            {
                if (index > 0 && char.IsUpper(memberName[index]) && char.IsLower(memberName[index - 1]))
                {
                    spelled.Append('_');
                }
                spelled.Append(char.ToUpperInvariant(memberName[index]));
            }
            return spelled.ToString();
        }

        /// <summary>The members of <typeparamref name="TEnum"/> as "DBDF_..._NAME = code", sorted.</summary>
        private static string EnumMembers<TEnum>(Func<TEnum, string> headerName, params TEnum[] excluded)
        {
            IEnumerable<string> members = Enum.GetValues(typeof(TEnum)).Cast<TEnum>()
                .Where(member => !excluded.Contains(member))
                .Select(member => headerName(member) + " = " + Convert.ToInt32(member));
            return string.Join(", ", members.OrderBy(text => text, StringComparer.Ordinal));
        }

        private static void AssertSameAsHeader<TEnum>(string prefix, params TEnum[] excluded)
        {
            string members = EnumMembers<TEnum>(member => prefix + HeaderSpelling(member.ToString()), excluded);
            Assert.Equal(HeaderConstants(prefix), members, typeof(TEnum).Name + " against dbdf.h");
        }

        [Test]
        public void HeaderSpellingSplitsWordsButNotDigits()
        {
            Assert.Equal("AS_GIVEN", HeaderSpelling("AsGiven"));
            Assert.Equal("END_OF_BLOCKS", HeaderSpelling("EndOfBlocks"));
            Assert.Equal("U16", HeaderSpelling("U16"));
            Assert.Equal("NONE", HeaderSpelling("None"));
        }

        [Test]
        public void ValueTypes()
        {
            AssertSameAsHeader<ValueType>("DBDF_VALUE_");
            Assert.True(HeaderConstants("DBDF_VALUE_").Contains("DBDF_VALUE_F64 = 10"), HeaderConstants("DBDF_VALUE_"));
        }

        [Test]
        public void DataTypes()
        {
            AssertSameAsHeader<DataType>("DBDF_DATA_");
        }

        [Test]
        public void BlockTypes()
        {
            AssertSameAsHeader<BlockType>("DBDF_BLOCK_");
        }

        [Test]
        public void Encodings()
        {
            AssertSameAsHeader<Encoding>("DBDF_ENCODING_");
        }

        [Test]
        public void Dialects()
        {
            AssertSameAsHeader<Dialect>("DBDF_DIALECT_");
        }

        [Test]
        public void Statuses()
        {
            // Unknown stands for codes of a newer library; the failures are DBDF_ERR_..., and NoMemory is NOMEM there.
            Func<Status, string> headerName = status =>
            {
                string name = status == Status.NoMemory ? "NOMEM" : HeaderSpelling(status.ToString());
                return status == Status.Ok || status == Status.EndOfBlocks ? "DBDF_" + name : "DBDF_ERR_" + name;
            };
            string statusConstants = string.Join(", ", new[] { HeaderConstants("DBDF_OK"),
                HeaderConstants("DBDF_END_OF_BLOCKS"), HeaderConstants("DBDF_ERR_") }
                .SelectMany(part => part.Split(new[] { ", " }, StringSplitOptions.RemoveEmptyEntries))
                .OrderBy(text => text, StringComparer.Ordinal));
            Assert.Equal(statusConstants, EnumMembers(headerName, Status.Unknown), "Status against dbdf.h");
        }
    }
}
