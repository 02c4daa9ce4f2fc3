using System;

namespace Dbdf
{
    /// <summary>
    /// Value types of the format (codes 1..10). Each has exactly one .NET element type: byte U8, ushort U16,
    /// uint U32, ulong U64, sbyte I8, short I16, int I32, long I64, float F32, double F64.
    /// </summary>
    /// <remarks>
    /// With both <c>using System;</c> and <c>using Dbdf;</c>, write <c>Dbdf.ValueType</c> (or add
    /// <c>using ValueType = Dbdf.ValueType;</c>) because System.ValueType has the same simple name.
    /// </remarks>
    public enum ValueType
    {
        /// <summary>"No single value type": the object value type of a frame, and of empty blocks. Never valid for data.</summary>
        None = 0,
        U8 = 1,
        U16 = 2,
        U32 = 3,
        U64 = 4,
        I8 = 5,
        I16 = 6,
        I32 = 7,
        I64 = 8,
        F32 = 9,
        F64 = 10
    }

    /// <summary>Facts about value types and the .NET element types that hold them.</summary>
    public static class ValueTypes
    {
        /// <summary>Size of one value in bytes (0 for None and unknown codes).</summary>
        public static int Size(this ValueType type)
        {
            switch (type)
            {
                case ValueType.U8:
                case ValueType.I8:
                    return 1;
                case ValueType.U16:
                case ValueType.I16:
                    return 2;
                case ValueType.U32:
                case ValueType.I32:
                case ValueType.F32:
                    return 4;
                case ValueType.U64:
                case ValueType.I64:
                case ValueType.F64:
                    return 8;
                default:
                    return 0;
            }
        }

        public static bool IsUnsigned(this ValueType type)
        {
            return type == ValueType.U8 || type == ValueType.U16 || type == ValueType.U32 || type == ValueType.U64;
        }

        public static bool IsFloatingPoint(this ValueType type)
        {
            return type == ValueType.F32 || type == ValueType.F64;
        }

        /// <summary>The .NET element type that holds values of <paramref name="type"/>.</summary>
        public static Type ElementType(this ValueType type)
        {
            switch (type)
            {
                case ValueType.U8: return typeof(byte);
                case ValueType.U16: return typeof(ushort);
                case ValueType.U32: return typeof(uint);
                case ValueType.U64: return typeof(ulong);
                case ValueType.I8: return typeof(sbyte);
                case ValueType.I16: return typeof(short);
                case ValueType.I32: return typeof(int);
                case ValueType.I64: return typeof(long);
                case ValueType.F32: return typeof(float);
                case ValueType.F64: return typeof(double);
                default: throw new ArgumentException("value type " + type + " holds no values", "type");
            }
        }

        /// <summary>The value type held by elements of type <paramref name="elementType"/>.</summary>
        public static ValueType Of(Type elementType)
        {
            if (elementType == typeof(byte)) return ValueType.U8;
            if (elementType == typeof(ushort)) return ValueType.U16;
            if (elementType == typeof(uint)) return ValueType.U32;
            if (elementType == typeof(ulong)) return ValueType.U64;
            if (elementType == typeof(sbyte)) return ValueType.I8;
            if (elementType == typeof(short)) return ValueType.I16;
            if (elementType == typeof(int)) return ValueType.I32;
            if (elementType == typeof(long)) return ValueType.I64;
            if (elementType == typeof(float)) return ValueType.F32;
            if (elementType == typeof(double)) return ValueType.F64;
            throw new ArgumentException("no dbdf value type is held in " + elementType
                + " (use byte, ushort, uint, ulong, sbyte, short, int, long, float or double)");
        }

        /// <summary>The name the library uses ("u8", ..., "f64"; "none").</summary>
        public static string Name(this ValueType type)
        {
            return type.ToString().ToLowerInvariant();
        }

        internal static void CheckHoldsValues(ValueType type, string parameterName)
        {
            if (type.Size() == 0)
            {
                throw new ArgumentException("value type " + type + " holds no values", parameterName);
            }
        }
    }
}
