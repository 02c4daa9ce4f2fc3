using System;

namespace Dbdf.Tests
{
    internal static class Program
    {
        private const string Usage =
            "usage: Dbdf.Tests.exe [--vectors DIR] [--filter TEXT]   run the tests\n"
            + "       Dbdf.Tests.exe cross write|check FILE            the cross-language matrix";

        private static int Main(string[] args)
        {
            if (args.Length > 0 && args[0] == "cross")
            {
                if (args.Length != 3)
                {
                    Console.Error.WriteLine(Usage);
                    return 2;
                }
                return CrossLanguageMatrix.Run(args[1], args[2]);
            }
            string filter = null;
            for (int index = 0; index < args.Length; index++)
            {
                if (args[index] == "--vectors" && index + 1 < args.Length)
                {
                    GoldenVectorsTests.VectorsDirectory = args[++index];
                }
                else if (args[index] == "--filter" && index + 1 < args.Length)
                {
                    filter = args[++index];
                }
                else
                {
                    Console.Error.WriteLine(Usage);
                    return 2;
                }
            }
            return TestRunner.Run(filter);
        }
    }
}
