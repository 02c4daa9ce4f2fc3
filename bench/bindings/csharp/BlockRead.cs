// Binding overhead, C#: decodes the only block of FILE (float64, dense) into a preallocated double[] REPEATS times
// and prints one JSON line with the median and minimum seconds (see ../block_read.c).
using System;
using System.Diagnostics;
using System.Globalization;
using Dbdf;

public static class BlockRead
{
    public static int Main(string[] args)
    {
        if (args.Length != 2)
        {
            Console.Error.WriteLine("usage: BlockRead.exe FILE REPEATS");
            return 2;
        }
        int repeats = int.Parse(args[1], CultureInfo.InvariantCulture);
        using (Reader reader = Reader.Open(args[0]))
        {
            if (!reader.NextBlock())
            {
                throw new InvalidOperationException(args[0] + " has no block");
            }
            Block block = reader.CurrentBlock;
            double[] values = new double[checked(block.Rows * block.Cols)];
            double[] seconds = new double[repeats];
            for (int run = -1; run < repeats; ++run) // run -1 warms up (JIT of the call path)
            {
                long start = Stopwatch.GetTimestamp();
                block.DecodeDense(values);
                if (run >= 0)
                {
                    seconds[run] = (Stopwatch.GetTimestamp() - start) / (double)Stopwatch.Frequency;
                }
            }
            Array.Sort(seconds);
            // The check value is formatted on its own: in "{3:R}}}" the format string would swallow a closing brace.
            string check = values[values.Length - 1].ToString("R", CultureInfo.InvariantCulture);
            Console.WriteLine(string.Format(CultureInfo.InvariantCulture,
                "{{\"language\": \"csharp\", \"median_seconds\": {0:F9}, \"min_seconds\": {1:F9}, \"bytes\": {2}, " +
                "\"check\": {3}}}",
                seconds[repeats / 2], seconds[0], (long)values.Length * sizeof(double), check));
        }
        return 0;
    }
}
