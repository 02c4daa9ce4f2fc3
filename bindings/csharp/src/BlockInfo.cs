using System;
using Dbdf.Internal;

namespace Dbdf
{
    /// <summary>One block as stored, known without decoding its payload.</summary>
    public struct BlockInfo : IEquatable<BlockInfo>
    {
        /// <summary>Ordinal of the block in the file, from 0.</summary>
        public long Index { get; private set; }
        /// <summary>Position of the block's first row in the object.</summary>
        public long Row { get; private set; }
        /// <summary>Position of the block's first column in the object.</summary>
        public long Col { get; private set; }
        /// <summary>Block rows (an unsigned 32-bit field of the format).</summary>
        public long Rows { get; private set; }
        /// <summary>Block columns (an unsigned 32-bit field of the format).</summary>
        public long Cols { get; private set; }
        public BlockType BlockType { get; private set; }
        /// <summary>Stored value type; <see cref="ValueType.None"/> for empty blocks (they store no values).</summary>
        public ValueType ValueType { get; private set; }
        /// <summary>Values in the payload: Rows * Cols for dense, the entry count for CSR and COO, 0 for empty.</summary>
        public long StoredValues { get; private set; }
        /// <summary>Byte offset of the block record in the input.</summary>
        public long Offset { get; private set; }
        /// <summary>Size of the block record: position pair, block header and payload.</summary>
        public long EncodedBytes { get; private set; }

        /// <summary>Number of cells the block covers.</summary>
        public long Cells
        {
            get { return Rows * Cols; }
        }

        internal BlockInfo(NativeBlockInfo native) : this()
        {
            Index = (long)native.index;
            Row = (long)native.row;
            Col = (long)native.col;
            Rows = native.rows;
            Cols = native.cols;
            BlockType = (BlockType)native.block_type;
            ValueType = (ValueType)native.value_type;
            StoredValues = (long)native.stored_values;
            Offset = (long)native.offset;
            EncodedBytes = (long)native.encoded_bytes;
        }

        public bool Equals(BlockInfo other)
        {
            return Index == other.Index && Row == other.Row && Col == other.Col && Rows == other.Rows
                && Cols == other.Cols && BlockType == other.BlockType && ValueType == other.ValueType
                && StoredValues == other.StoredValues && Offset == other.Offset && EncodedBytes == other.EncodedBytes;
        }

        public override bool Equals(object other)
        {
            return other is BlockInfo && Equals((BlockInfo)other);
        }

        public override int GetHashCode()
        {
            return (Index.GetHashCode() * 31 + Offset.GetHashCode()) * 31 + EncodedBytes.GetHashCode();
        }

        public static bool operator ==(BlockInfo left, BlockInfo right)
        {
            return left.Equals(right);
        }

        public static bool operator !=(BlockInfo left, BlockInfo right)
        {
            return !left.Equals(right);
        }

        public override string ToString()
        {
            return "block " + Index + " at (" + Row + ", " + Col + "), " + Rows + " x " + Cols + ", "
                + BlockType.ToString().ToLowerInvariant() + " " + ValueType.Name() + ", " + StoredValues
                + " stored values, " + EncodedBytes + " bytes at offset " + Offset;
        }
    }
}
