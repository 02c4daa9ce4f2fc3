using System;

namespace Dbdf.Tests
{
    /// <summary>
    /// The matrix every language writes and checks: a DenseMatrix of f64, 6 x 5, value(i, j) = 0.0 when
    /// (i + j) % 3 == 0, else (i * 5 + j) * 0.5, written with write_dense in 4 x 3 blocks and automatic encoding.
    /// Run by the cross-language CTest tests (<c>Dbdf.Tests.exe cross write|check FILE</c>) next to the C example.
    /// </summary>
    internal static class CrossLanguageMatrix
    {
        public const int Rows = 6;
        public const int Cols = 5;
        public const int BlockRows = 4;
        public const int BlockCols = 3;

        public static double Value(int row, int col)
        {
            return (row + col) % 3 == 0 ? 0.0 : (row * Cols + col) * 0.5;
        }

        public static double[] Values()
        {
            double[] values = new double[Rows * Cols];
            for (int row = 0; row < Rows; row++)
            {
                for (int col = 0; col < Cols; col++)
                {
                    values[row * Cols + col] = Value(row, col);
                }
            }
            return values;
        }

        private static void WriteTo(Writer writer)
        {
            writer.BeginMatrix(DataType.Dense, ValueType.F64, Rows, Cols);
            writer.WriteDense(Values(), 0, Encoding.Auto, BlockRows, BlockCols);
            writer.Finish();
        }

        public static void Write(string path)
        {
            using (Writer writer = Writer.ToFile(path))
            {
                WriteTo(writer);
            }
        }

        /// <summary>The matrix as the bytes of a finished memory writer.</summary>
        public static byte[] Bytes()
        {
            using (Writer writer = Writer.ToMemory())
            {
                WriteTo(writer);
                return writer.ToArray();
            }
        }

        /// <summary>Null when the file holds exactly the matrix, else what differs.</summary>
        public static string Mismatch(string path)
        {
            using (Reader reader = Reader.Open(path))
            {
                ObjectInfo info = reader.Info;
                if (info.DataType != DataType.Dense || info.ValueType != ValueType.F64 || info.Rows != Rows
                    || info.Cols != Cols)
                {
                    return "header is " + info + ", expected a 6 x 5 DenseMatrix of F64";
                }
                reader.Validate();
                double[] actual = reader.ReadDoubles();
                for (int row = 0; row < Rows; row++)
                {
                    for (int col = 0; col < Cols; col++)
                    {
                        long expectedBits = BitConverter.DoubleToInt64Bits(Value(row, col));
                        long actualBits = BitConverter.DoubleToInt64Bits(actual[row * Cols + col]);
                        if (expectedBits != actualBits)
                        {
                            return "value(" + row + ", " + col + ") is " + actual[row * Cols + col] + ", expected "
                                + Value(row, col);
                        }
                    }
                }
                return null;
            }
        }

        /// <summary>write FILE or check FILE; exit status 0 on success.</summary>
        public static int Run(string command, string path)
        {
            try
            {
                if (command == "write")
                {
                    Write(path);
                    Console.WriteLine("wrote the cross-language matrix to " + path);
                    return 0;
                }
                if (command == "check")
                {
                    string mismatch = Mismatch(path);
                    if (mismatch != null)
                    {
                        Console.Error.WriteLine(path + ": " + mismatch);
                        return 1;
                    }
                    Console.WriteLine(path + ": holds the cross-language matrix");
                    return 0;
                }
                Console.Error.WriteLine("usage: Dbdf.Tests.exe cross write|check FILE");
                return 2;
            }
            catch (DbdfException error)
            {
                Console.Error.WriteLine(path + ": " + error.Message);
                return 1;
            }
            catch (DllNotFoundException error)
            {
                Console.Error.WriteLine(error.Message);
                return 3;
            }
        }
    }
}
