using System;
using System.IO;
using Dbdf;

/// <summary>
/// Uses dbdf from its NuGet package: writes a 2 x 3 matrix to the file named on the command line, reads it back, then
/// shows what a missing file throws. Exits with status 1 when anything differs from what is expected.
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        string path = args.Length > 0 ? args[0] : "matrix.dbdf";
        double[] values = { 1.5, 0.0, -2.0, 4.0, 8.25, -0.5 };
        using (Writer writer = Writer.ToFile(path))
        {
            writer.BeginMatrix(DataType.Dense, Dbdf.ValueType.F64, 2, 3);
            writer.AddDense(0, 0, 2, 3, values);
            writer.Finish();
        }
        double[] readBack;
        using (Reader reader = Reader.Open(path))
        {
            readBack = reader.ReadDoubles();
        }
        if (readBack.Length != values.Length)
        {
            return 1;
        }
        for (int i = 0; i < values.Length; i++)
        {
            if (readBack[i] != values[i])
            {
                return 1;
            }
        }
        Console.WriteLine("round trip ok");

        // A missing file is .NET's FileNotFoundException; the library's DbdfException is its InnerException.
        try
        {
            Reader.Open(Path.Combine(Path.GetDirectoryName(Path.GetFullPath(path)), "absent.dbdf")).Dispose();
            return 1;
        }
        catch (FileNotFoundException missing)
        {
            Console.WriteLine("missing file: " + missing.GetType().FullName + " (" + missing.FileName + ")");
        }
        return 0;
    }
}
