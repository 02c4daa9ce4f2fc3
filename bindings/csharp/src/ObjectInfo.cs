using System;
using Dbdf.Internal;

namespace Dbdf
{
    /// <summary>What an object header says.</summary>
    public struct ObjectInfo : IEquatable<ObjectInfo>
    {
        public DataType DataType { get; private set; }
        /// <summary><see cref="ValueType.None"/> for frames: each column has its own, see <see cref="Reader.ColumnType"/>.</summary>
        public ValueType ValueType { get; private set; }
        public long Rows { get; private set; }
        public long Cols { get; private set; }
        /// <summary>Size of the object header; the first block starts there.</summary>
        public long HeaderBytes { get; private set; }
        /// <summary>Size of the whole input.</summary>
        public long TotalBytes { get; private set; }

        public ObjectInfo(DataType dataType, ValueType valueType, long rows, long cols, long headerBytes,
                          long totalBytes) : this()
        {
            DataType = dataType;
            ValueType = valueType;
            Rows = rows;
            Cols = cols;
            HeaderBytes = headerBytes;
            TotalBytes = totalBytes;
        }

        internal ObjectInfo(NativeObjectInfo native)
            : this((DataType)native.data_type, (ValueType)native.value_type, (long)native.rows, (long)native.cols,
                   (long)native.header_bytes, (long)native.total_bytes)
        {
        }

        public bool Equals(ObjectInfo other)
        {
            return DataType == other.DataType && ValueType == other.ValueType && Rows == other.Rows
                && Cols == other.Cols && HeaderBytes == other.HeaderBytes && TotalBytes == other.TotalBytes;
        }

        public override bool Equals(object other)
        {
            return other is ObjectInfo && Equals((ObjectInfo)other);
        }

        public override int GetHashCode()
        {
            return ((int)DataType * 31 + Rows.GetHashCode()) * 31 + Cols.GetHashCode();
        }

        public static bool operator ==(ObjectInfo left, ObjectInfo right)
        {
            return left.Equals(right);
        }

        public static bool operator !=(ObjectInfo left, ObjectInfo right)
        {
            return !left.Equals(right);
        }

        public override string ToString()
        {
            return DataType.ToString().ToLowerInvariant() + " " + Rows + " x " + Cols + " of "
                + ValueType.Name() + ", " + TotalBytes + " bytes (header " + HeaderBytes + ")";
        }
    }
}
