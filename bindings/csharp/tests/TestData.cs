using System;
using System.Reflection;
using System.Runtime.ExceptionServices;

namespace Dbdf.Tests
{
    /// <summary>Values of every value type as raw bit patterns, and conversions between them and typed arrays.</summary>
    internal static class TestData
    {
        /// <summary>The ten value types that hold data.</summary>
        public static readonly ValueType[] DataTypes =
        {
            ValueType.U8, ValueType.U16, ValueType.U32, ValueType.U64, ValueType.I8, ValueType.I16, ValueType.I32,
            ValueType.I64, ValueType.F32, ValueType.F64
        };

        /// <summary>
        /// -0.0 built from its bits: mcs drops elements equal to 0.0 from constant array initializers, which turns a
        /// literal -0.0 there into +0.0.
        /// </summary>
        public static readonly double NegativeZero = BitConverter.Int64BitsToDouble(long.MinValue);

        public static readonly float NegativeZeroSingle = BitConverter.ToSingle(BitConverter.GetBytes(0x80000000u), 0);

        /// <summary>A new array of the element type that holds <paramref name="type"/>.</summary>
        public static Array NewArray(ValueType type, long length)
        {
            return Array.CreateInstance(type.ElementType(), length);
        }

        /// <summary>A typed array from raw bit patterns (the low bits of each value).</summary>
        public static Array FromBits(ValueType type, ulong[] bits)
        {
            Array array = NewArray(type, bits.Length);
            for (int index = 0; index < bits.Length; index++)
            {
                ulong value = bits[index];
                object element;
                switch (type)
                {
                    case ValueType.U8: element = (byte)value; break;
                    case ValueType.I8: element = unchecked((sbyte)value); break;
                    case ValueType.U16: element = (ushort)value; break;
                    case ValueType.I16: element = unchecked((short)value); break;
                    case ValueType.U32: element = (uint)value; break;
                    case ValueType.I32: element = unchecked((int)value); break;
                    case ValueType.U64: element = value; break;
                    case ValueType.I64: element = unchecked((long)value); break;
                    case ValueType.F32: element = BitConverter.ToSingle(BitConverter.GetBytes((uint)value), 0); break;
                    case ValueType.F64: element = BitConverter.Int64BitsToDouble(unchecked((long)value)); break;
                    default: throw new ArgumentException(type.ToString());
                }
                array.SetValue(element, index);
            }
            return array;
        }

        /// <summary>Raw bit patterns of a typed array, zero-extended to 64 bits (no NaN canonicalisation).</summary>
        public static ulong[] ToBits(Array array)
        {
            ulong[] bits = new ulong[array.Length];
            for (int index = 0; index < bits.Length; index++)
            {
                object element = array.GetValue(index);
                if (element is byte) bits[index] = (byte)element;
                else if (element is sbyte) bits[index] = (byte)(sbyte)element;
                else if (element is ushort) bits[index] = (ushort)element;
                else if (element is short) bits[index] = (ushort)(short)element;
                else if (element is uint) bits[index] = (uint)element;
                else if (element is int) bits[index] = (uint)(int)element;
                else if (element is ulong) bits[index] = (ulong)element;
                else if (element is long) bits[index] = (ulong)(long)element;
                else if (element is float) bits[index] = BitConverter.ToUInt32(BitConverter.GetBytes((float)element), 0);
                else if (element is double) bits[index] = (ulong)BitConverter.DoubleToInt64Bits((double)element);
                else throw new ArgumentException("not a value array: " + array.GetType());
            }
            return bits;
        }

        /// <summary>Masks a bit pattern to the width of <paramref name="type"/>.</summary>
        public static ulong Masked(ValueType type, ulong bits)
        {
            return type.Size() == 8 ? bits : bits & ((1UL << (8 * type.Size())) - 1);
        }

        /// <summary>
        /// A rows x cols matrix of bit patterns for <paramref name="type"/>: every third cell zero, the others the
        /// type's extremes (and -0.0, a NaN with payload, an infinity and a subnormal for floating-point types).
        /// </summary>
        public static ulong[] SampleBits(ValueType type, int rows, int cols)
        {
            ulong[] specials;
            switch (type)
            {
                case ValueType.U8: specials = new ulong[] { 0xFF, 1, 0x80, 0x7F }; break;
                case ValueType.U16: specials = new ulong[] { 0xFFFF, 1, 0x8000, 300 }; break;
                case ValueType.U32: specials = new ulong[] { 0xFFFFFFFF, 1, 0x80000000, 70000 }; break;
                case ValueType.U64: specials = new ulong[] { ulong.MaxValue, 1, 1UL << 63, 1UL << 40 }; break;
                case ValueType.I8: specials = Signed(-128, 127, -1, 5); break;
                case ValueType.I16: specials = Signed(-32768, 32767, -1, 200); break;
                case ValueType.I32: specials = Signed(int.MinValue, int.MaxValue, -1, 100000); break;
                case ValueType.I64: specials = Signed(long.MinValue, long.MaxValue, -1, 1L << 50); break;
                case ValueType.F32:
                    specials = new ulong[]
                    {
                        FloatBits(NegativeZeroSingle), 0x7FC01234, FloatBits(1.5f), FloatBits(float.NegativeInfinity), 1,
                        FloatBits(3.25e30f)
                    };
                    break;
                case ValueType.F64:
                    specials = new ulong[]
                    {
                        DoubleBits(NegativeZero), 0x7FF800000000BEEF, DoubleBits(0.1), DoubleBits(double.PositiveInfinity), 1,
                        DoubleBits(-1e300)
                    };
                    break;
                default: throw new ArgumentException(type.ToString());
            }
            ulong[] bits = new ulong[rows * cols];
            int special = 0;
            for (int index = 0; index < bits.Length; index++)
            {
                if (index % 3 == 1)
                {
                    continue;
                }
                bits[index] = Masked(type, specials[special % specials.Length]);
                special++;
            }
            return bits;
        }

        private static ulong[] Signed(params long[] values)
        {
            ulong[] bits = new ulong[values.Length];
            for (int index = 0; index < values.Length; index++)
            {
                bits[index] = unchecked((ulong)values[index]);
            }
            return bits;
        }

        public static ulong FloatBits(float value)
        {
            return BitConverter.ToUInt32(BitConverter.GetBytes(value), 0);
        }

        public static ulong DoubleBits(double value)
        {
            return (ulong)BitConverter.DoubleToInt64Bits(value);
        }

        /// <summary>The block of a row-major matrix (cols wide) at (row, col) with the given shape, row-major.</summary>
        public static ulong[] Tile(ulong[] matrix, int cols, int row, int col, int tileRows, int tileCols)
        {
            ulong[] tile = new ulong[tileRows * tileCols];
            for (int i = 0; i < tileRows; i++)
            {
                Array.Copy(matrix, (row + i) * cols + col, tile, i * tileCols, tileCols);
            }
            return tile;
        }

        /// <summary>
        /// Calls the public overload <paramref name="method"/> of <paramref name="target"/> whose parameter types are
        /// exactly those of <paramref name="arguments"/>: the typed overloads for an array whose type is only known at
        /// run time. Exceptions thrown by the method propagate unchanged.
        /// </summary>
        public static object Call(object target, string method, params object[] arguments)
        {
            Type[] types = new Type[arguments.Length];
            for (int index = 0; index < arguments.Length; index++)
            {
                types[index] = arguments[index].GetType();
            }
            MethodInfo overload = target.GetType().GetMethod(method, BindingFlags.Public | BindingFlags.Instance, null,
                types, null);
            if (overload == null)
            {
                throw new MissingMethodException(target.GetType().Name, method + "(" + string.Join(", ",
                    Array.ConvertAll(types, type => type.Name)) + ")");
            }
            try
            {
                return overload.Invoke(target, arguments);
            }
            catch (TargetInvocationException error)
            {
                ExceptionDispatchInfo.Capture(error.InnerException).Throw();
                throw;
            }
        }
    }
}
