using System;

namespace Dbdf
{
    /// <summary>One rule violation found by <see cref="Reader.Violations"/>. Immutable.</summary>
    public sealed class Violation : IEquatable<Violation>
    {
        /// <summary>the number of the rule in docs/format-rules.md; 0 for the spec's layout itself.</summary>
        public int Rule { get; private set; }
        /// <summary>Byte offset in the input.</summary>
        public long Offset { get; private set; }
        /// <summary>
        /// What is wrong, where, and which rule it breaks: the library's message, which ends with
        /// "at byte N (rule R)", or "(spec layout)" for rule 0.
        /// </summary>
        public string Message { get; private set; }

        public Violation(int rule, long offset, string message)
        {
            if (message == null)
            {
                throw new ArgumentNullException("message");
            }
            Rule = rule;
            Offset = offset;
            Message = message;
        }

        public bool Equals(Violation other)
        {
            return other != null && Rule == other.Rule && Offset == other.Offset && Message == other.Message;
        }

        public override bool Equals(object other)
        {
            return Equals(other as Violation);
        }

        public override int GetHashCode()
        {
            return (Rule * 31 + Offset.GetHashCode()) * 31 + Message.GetHashCode();
        }

        /// <summary>The message: it already names the byte offset and the rule.</summary>
        public override string ToString()
        {
            return Message;
        }
    }
}
