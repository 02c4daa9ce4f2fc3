// The C# example: writes a frame with typed, labelled columns, reads it back block by block and column by column,
// and prints it.
//
//   mono FrameExample.exe [FILE]      (default: frame_example.dbdf in the current directory)
using System;
using System.Globalization;
using Dbdf;
using ValueType = Dbdf.ValueType;

internal static class FrameExample
{
    private static int Main(string[] args)
    {
        string path = args.Length > 0 ? args[0] : "frame_example.dbdf";
        int[] stations = { 101, 102, 103, 104, 105, 106 };
        double[] temperatures = { 21.5, -3.25, 0.0, 17.0, double.NaN, 30.125 };
        byte[] alarms = { 0, 1, 0, 0, 1, 0 };
        ulong[] readings = { 12, 0, 18446744073709551615UL, 7, 0, 42 };
        string[] labels = { "station", "temperature °C", "alarm", "readings" };
        ValueType[] types = { ValueType.I32, ValueType.F64, ValueType.U8, ValueType.U64 };

        try
        {
            using (Writer writer = Writer.ToFile(path))
            {
                writer.BeginFrame(stations.Length, types, labels);
                // Each column goes in blocks of 4 rows; each block is encoded automatically (smallest exact form).
                writer.WriteColumn(0, stations, Dbdf.Encoding.Auto, 4);
                writer.WriteColumn(1, temperatures, Dbdf.Encoding.Auto, 4);
                writer.WriteColumn(2, alarms, Dbdf.Encoding.Auto, 4);
                writer.WriteColumn(3, readings, Dbdf.Encoding.Auto, 4);
                writer.Finish();
                Console.WriteLine("wrote {0}: {1} bytes", path, writer.BytesWritten);
            }

            using (Reader reader = Reader.Open(path))
            {
                ObjectInfo info = reader.Info;
                Console.WriteLine("{0}: a {1} of {2} rows x {3} columns", path, info.DataType, info.Rows, info.Cols);
                foreach (Block block in reader.Blocks())
                {
                    Console.WriteLine("  block {0}: rows {1}..{2} of column '{3}', stored as {4} {5}", block.Index,
                        block.Row, block.Row + block.Rows - 1, reader.ColumnLabel(block.Col), block.BlockType,
                        block.ValueType);
                }

                int rows = (int)info.Rows;
                int[] stationsRead = new int[rows];
                double[] temperaturesRead = new double[rows];
                byte[] alarmsRead = new byte[rows];
                ulong[] readingsRead = new ulong[rows];
                reader.ReadColumn(0, stationsRead);
                reader.ReadColumn(1, temperaturesRead);
                reader.ReadColumn(2, alarmsRead);
                reader.ReadColumn(3, readingsRead);

                string[] header = new string[(int)info.Cols];
                for (int column = 0; column < header.Length; column++)
                {
                    header[column] = reader.ColumnLabel(column) + " (" + reader.ColumnType(column).Name() + ")";
                }
                Console.WriteLine("{0,-16}{1,-24}{2,-12}{3}", header[0], header[1], header[2], header[3]);
                for (int row = 0; row < rows; row++)
                {
                    Console.WriteLine("{0,-16}{1,-24}{2,-12}{3}", stationsRead[row],
                        temperaturesRead[row].ToString("R", CultureInfo.InvariantCulture), alarmsRead[row],
                        readingsRead[row]);
                }

                for (int row = 0; row < rows; row++)
                {
                    bool same = stationsRead[row] == stations[row]
                        && BitConverter.DoubleToInt64Bits(temperaturesRead[row])
                           == BitConverter.DoubleToInt64Bits(temperatures[row])
                        && alarmsRead[row] == alarms[row] && readingsRead[row] == readings[row];
                    if (!same)
                    {
                        Console.Error.WriteLine("row {0} did not read back as written", row);
                        return 1;
                    }
                }
                reader.Validate();
                Console.WriteLine("every value read back exactly");
            }
            return 0;
        }
        catch (DbdfException error)
        {
            Console.Error.WriteLine("dbdf failed ({0}): {1}", error.Status, error.NativeMessage);
            return 1;
        }
    }
}
