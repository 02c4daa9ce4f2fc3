using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Dbdf.Tests
{
    /// <summary>
    /// A small strict JSON reader for vectors.json and corpus.json: objects become Dictionary&lt;string, object&gt;,
    /// arrays List&lt;object&gt;, strings string, integers long (ulong above long's range), other numbers double,
    /// true/false bool, null null.
    /// </summary>
    internal sealed class MiniJson
    {
        private readonly string text;
        private int position;

        private MiniJson(string text)
        {
            this.text = text;
        }

        public static object Parse(string text)
        {
            MiniJson parser = new MiniJson(text);
            object value = parser.ReadValue();
            parser.SkipWhitespace();
            if (parser.position != text.Length)
            {
                throw parser.Error("trailing characters");
            }
            return value;
        }

        private FormatException Error(string what)
        {
            return new FormatException("JSON: " + what + " at offset " + position);
        }

        private void SkipWhitespace()
        {
            while (position < text.Length && char.IsWhiteSpace(text[position]))
            {
                position++;
            }
        }

        private char Peek()
        {
            SkipWhitespace();
            if (position >= text.Length)
            {
                throw Error("unexpected end");
            }
            return text[position];
        }

        private void Expect(char expected)
        {
            if (Peek() != expected)
            {
                throw Error("expected '" + expected + "'");
            }
            position++;
        }

        private void ExpectWord(string word)
        {
            if (string.CompareOrdinal(text, position, word, 0, word.Length) != 0)
            {
                throw Error("expected " + word);
            }
            position += word.Length;
        }

        private object ReadValue()
        {
            char next = Peek();
            switch (next)
            {
                case '{':
                    return ReadObject();
                case '[':
                    return ReadArray();
                case '"':
                    return ReadString();
                case 't':
                    ExpectWord("true");
                    return true;
                case 'f':
                    ExpectWord("false");
                    return false;
                case 'n':
                    ExpectWord("null");
                    return null;
                default:
                    if (next == '-' || char.IsDigit(next))
                    {
                        return ReadNumber();
                    }
                    throw Error("unexpected '" + next + "'");
            }
        }

        private Dictionary<string, object> ReadObject()
        {
            Expect('{');
            Dictionary<string, object> result = new Dictionary<string, object>();
            if (Peek() == '}')
            {
                position++;
                return result;
            }
            while (true)
            {
                if (Peek() != '"')
                {
                    throw Error("expected a key");
                }
                string key = ReadString();
                Expect(':');
                result[key] = ReadValue();
                if (Peek() == ',')
                {
                    position++;
                    continue;
                }
                Expect('}');
                return result;
            }
        }

        private List<object> ReadArray()
        {
            Expect('[');
            List<object> result = new List<object>();
            if (Peek() == ']')
            {
                position++;
                return result;
            }
            while (true)
            {
                result.Add(ReadValue());
                if (Peek() == ',')
                {
                    position++;
                    continue;
                }
                Expect(']');
                return result;
            }
        }

        private string ReadString()
        {
            Expect('"');
            StringBuilder result = new StringBuilder();
            while (true)
            {
                if (position >= text.Length)
                {
                    throw Error("unterminated string");
                }
                char next = text[position++];
                if (next == '"')
                {
                    return result.ToString();
                }
                if (next != '\\')
                {
                    result.Append(next);
                    continue;
                }
                if (position >= text.Length)
                {
                    throw Error("unterminated escape");
                }
                char escaped = text[position++];
                switch (escaped)
                {
                    case '"': result.Append('"'); break;
                    case '\\': result.Append('\\'); break;
                    case '/': result.Append('/'); break;
                    case 'b': result.Append('\b'); break;
                    case 'f': result.Append('\f'); break;
                    case 'n': result.Append('\n'); break;
                    case 'r': result.Append('\r'); break;
                    case 't': result.Append('\t'); break;
                    case 'u':
                        if (position + 4 > text.Length)
                        {
                            throw Error("short \\u escape");
                        }
                        result.Append((char)int.Parse(text.Substring(position, 4), NumberStyles.HexNumber,
                            CultureInfo.InvariantCulture));
                        position += 4;
                        break;
                    default:
                        throw Error("bad escape \\" + escaped);
                }
            }
        }

        private object ReadNumber()
        {
            int start = position;
            while (position < text.Length && "+-0123456789.eE".IndexOf(text[position]) >= 0)
            {
                position++;
            }
            string number = text.Substring(start, position - start);
            long integer;
            if (long.TryParse(number, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out integer))
            {
                return integer;
            }
            // u64 values above 2^63 - 1 (corpus.json has them) would lose their low bits as a double.
            ulong unsignedInteger;
            if (ulong.TryParse(number, NumberStyles.None, CultureInfo.InvariantCulture, out unsignedInteger))
            {
                return unsignedInteger;
            }
            return double.Parse(number, NumberStyles.Float, CultureInfo.InvariantCulture);
        }
    }
}
