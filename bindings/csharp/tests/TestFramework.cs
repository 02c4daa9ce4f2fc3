using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.ExceptionServices;

namespace Dbdf.Tests
{
    /// <summary>Marks a test: a public instance method without parameters, run on a fresh instance of its class.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    internal sealed class TestAttribute : Attribute
    {
    }

    /// <summary>Marks a method returning IEnumerable&lt;TestCase&gt;: each case is run and counted as one test.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    internal sealed class TestCasesAttribute : Attribute
    {
    }

    public sealed class TestCase
    {
        public string Name { get; private set; }
        public Action Body { get; private set; }

        public TestCase(string name, Action body)
        {
            Name = name;
            Body = body;
        }
    }

    /// <summary>A failed expectation.</summary>
    internal sealed class AssertionException : Exception
    {
        public AssertionException(string message) : base(message)
        {
        }
    }

    internal static class Assert
    {
        public static void True(bool condition, string message = "expected true")
        {
            if (!condition)
            {
                throw new AssertionException(message);
            }
        }

        public static void False(bool condition, string message = "expected false")
        {
            True(!condition, message);
        }

        public static void Equal<T>(T expected, T actual, string message = null)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
            {
                throw new AssertionException((message == null ? "" : message + ": ") + "expected <" + expected
                    + "> but was <" + actual + ">");
            }
        }

        public static void ArrayEqual<T>(T[] expected, T[] actual, string message = null)
        {
            string where = message == null ? "" : message + ": ";
            True(actual != null, where + "array is null");
            Equal(expected.Length, actual.Length, where + "length");
            for (int index = 0; index < expected.Length; index++)
            {
                if (!EqualityComparer<T>.Default.Equals(expected[index], actual[index]))
                {
                    throw new AssertionException(where + "element " + index + ": expected <" + expected[index]
                        + "> but was <" + actual[index] + ">");
                }
            }
        }

        public static void SequenceEqual<T>(IEnumerable<T> expected, IEnumerable<T> actual, string message = null)
        {
            ArrayEqual(expected.ToArray(), actual.ToArray(), message);
        }

        /// <summary>Runs <paramref name="call"/> and returns the exception of exactly type T it throws.</summary>
        public static T Throws<T>(Action call, string message = null) where T : Exception
        {
            string where = message == null ? "" : message + ": ";
            try
            {
                call();
            }
            catch (Exception error)
            {
                if (error.GetType() != typeof(T))
                {
                    throw new AssertionException(where + "expected " + typeof(T).Name + " but got "
                        + error.GetType().Name + ": " + error.Message);
                }
                return (T)error;
            }
            throw new AssertionException(where + "expected " + typeof(T).Name + " but nothing was thrown");
        }
    }

    /// <summary>A fresh directory, removed on Dispose.</summary>
    internal sealed class TemporaryDirectory : IDisposable
    {
        public string Path { get; private set; }

        public TemporaryDirectory()
        {
            Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "dbdf-csharp-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(Path);
        }

        public string File(string name)
        {
            return System.IO.Path.Combine(Path, name);
        }

        public void Dispose()
        {
            if (Directory.Exists(Path))
            {
                Directory.Delete(Path, true);
            }
        }
    }

    /// <summary>Finds the [Test] and [TestCases] methods of this assembly, runs them and prints a summary.</summary>
    internal static class TestRunner
    {
        public static int Run(string filter)
        {
            int passed = 0;
            int failed = 0;
            Type[] classes = typeof(TestRunner).Assembly.GetTypes().OrderBy(type => type.FullName).ToArray();
            foreach (Type type in classes)
            {
                foreach (MethodInfo method in type.GetMethods(BindingFlags.Public | BindingFlags.Instance)
                             .OrderBy(method => method.MetadataToken))
                {
                    bool isTest = method.GetCustomAttributes(typeof(TestAttribute), false).Length > 0;
                    bool isCases = method.GetCustomAttributes(typeof(TestCasesAttribute), false).Length > 0;
                    if (!isTest && !isCases)
                    {
                        continue;
                    }
                    string name = type.Name + "." + method.Name;
                    if (isTest)
                    {
                        if (filter == null || name.Contains(filter))
                        {
                            Count(RunOne(name, () => InvokeOnFreshInstance(type, method)), ref passed, ref failed);
                        }
                        continue;
                    }
                    IEnumerable<TestCase> cases = null;
                    if (!RunOne(name + " (listing cases)", () =>
                            cases = ((IEnumerable<TestCase>)InvokeOnFreshInstance(type, method)).ToList(), false))
                    {
                        failed++;
                        continue;
                    }
                    foreach (TestCase testCase in cases)
                    {
                        string caseName = name + "(" + testCase.Name + ")";
                        if (filter == null || caseName.Contains(filter))
                        {
                            Count(RunOne(caseName, testCase.Body), ref passed, ref failed);
                        }
                    }
                }
            }
            Console.WriteLine(passed + " passed, " + failed + " failed");
            return failed == 0 && passed > 0 ? 0 : 1;
        }

        private static void Count(bool ok, ref int passed, ref int failed)
        {
            if (ok)
            {
                passed++;
            }
            else
            {
                failed++;
            }
        }

        private static object InvokeOnFreshInstance(Type type, MethodInfo method)
        {
            object instance = Activator.CreateInstance(type);
            try
            {
                return method.Invoke(instance, null);
            }
            catch (TargetInvocationException error)
            {
                ExceptionDispatchInfo.Capture(error.InnerException).Throw();
                throw;
            }
            finally
            {
                IDisposable disposable = instance as IDisposable;
                if (disposable != null)
                {
                    disposable.Dispose();
                }
            }
        }

        private static bool RunOne(string name, Action body, bool reportSuccess = true)
        {
            try
            {
                body();
                if (reportSuccess)
                {
                    Console.WriteLine("ok   " + name);
                }
                return true;
            }
            catch (Exception error)
            {
                Console.WriteLine("FAIL " + name + ": " + error.GetType().Name + ": " + error.Message);
                Console.WriteLine(error.StackTrace);
                return false;
            }
        }
    }
}
