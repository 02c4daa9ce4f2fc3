using System;

namespace Dbdf.Internal
{
    /// <summary>Argument checks done in C# so that misuse gives a clear .NET exception before any native call.</summary>
    internal static class Arguments
    {
        /// <summary>
        /// A position, index, count, capacity or stride the C interface takes as an unsigned 64-bit integer: 0 to
        /// long.MaxValue as a long. A negative long is refused rather than reinterpreted, since (ulong)-1 would reach
        /// the library as 2^64 - 1.
        /// </summary>
        public static ulong NonNegative(long value, string name)
        {
            if (value < 0)
            {
                throw OutOfRange(value, name, long.MaxValue);
            }
            return (ulong)value;
        }

        /// <summary>
        /// A block dimension or tile size, which the format stores as an unsigned 32-bit field: (uint) of a larger
        /// long would keep only its low 32 bits.
        /// </summary>
        public static uint BlockDimension(long value, string name)
        {
            if (value < 0 || value > uint.MaxValue)
            {
                throw OutOfRange(value, name, uint.MaxValue);
            }
            return (uint)value;
        }

        /// <summary>The one exception for an integer outside its C type: it names the parameter, value and range.</summary>
        private static ArgumentOutOfRangeException OutOfRange(long value, string name, long maximum)
        {
            return new ArgumentOutOfRangeException(name, value, name + " must be in 0.." + maximum + ", not " + value);
        }

        /// <summary>Byte size of <paramref name="count"/> elements of <paramref name="type"/> at a raw address.</summary>
        public static ulong AddressBytes(ValueType type, IntPtr address, long count, string name)
        {
            return AddressBytes(type, address, count, name, "count");
        }

        /// <summary>
        /// Byte size of <paramref name="count"/> elements of <paramref name="type"/> at a raw address, where the
        /// count is the parameter <paramref name="countName"/>.
        /// </summary>
        public static ulong AddressBytes(ValueType type, IntPtr address, long count, string name, string countName)
        {
            ValueTypes.CheckHoldsValues(type, "type");
            // The byte size must fit as well: a count whose bytes overflow is out of range, not an
            // OverflowException of the multiplication.
            long maximum = long.MaxValue / type.Size();
            if (count < 0 || count > maximum)
            {
                throw OutOfRange(count, countName, maximum);
            }
            return AddressCount(address, count, name, countName) * (ulong)type.Size();
        }

        /// <summary>
        /// Element count of an index array at a raw address (the C interface counts index buffers in elements):
        /// the address may be zero only when the count is.
        /// </summary>
        public static ulong AddressCount(IntPtr address, long count, string name, string countName)
        {
            if (address == IntPtr.Zero && count > 0)
            {
                throw new ArgumentNullException(name);
            }
            return NonNegative(count, countName);
        }

        /// <summary>The element count of a dense output, which must fit one .NET array.</summary>
        public static int ArrayLength(long rows, long cols)
        {
            long cells = checked(rows * cols);
            if (cells > int.MaxValue)
            {
                throw new InvalidOperationException(rows + " x " + cols + " values do not fit in one array");
            }
            return (int)cells;
        }
    }
}
