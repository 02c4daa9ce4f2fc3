using System;
using System.IO;
using System.Linq;

namespace Dbdf.Tests
{
    /// <summary>The native libraries come from the assembly's directory, without any environment variable.</summary>
    public sealed class NativeLibraryTests
    {
        [Test]
        public void LibrariesSitNextToTheAssemblyAndLoadFromThere()
        {
            string directory = Path.GetDirectoryName(typeof(Reader).Assembly.Location);
            Assert.True(File.Exists(Path.Combine(directory, "libdbdf_csharp.so")), "glue next to Dbdf.dll");
            Assert.True(File.Exists(Path.Combine(directory, "libdbdf.so.0")), "libdbdf next to Dbdf.dll");
            string searchPath = Environment.GetEnvironmentVariable("LD_LIBRARY_PATH") ?? "";
            Assert.False(searchPath.Split(':').Any(part => part.Length > 0 && Path.GetFullPath(part) == directory),
                "the test does not rely on LD_LIBRARY_PATH");
            DbdfLibrary.Load();
            DbdfLibrary.Load();
            Assert.True(DbdfLibrary.VersionNumber >= 100, "version " + DbdfLibrary.VersionNumber);
            string[] parts = DbdfLibrary.Version.Split('.');
            Assert.Equal(3, parts.Length, DbdfLibrary.Version);
            Assert.True(parts.All(part => part.Length > 0 && part.All(char.IsDigit)), DbdfLibrary.Version);
        }

        [Test]
        public void PublicApiShowsNoGeneratedTypes()
        {
            Type[] exported = typeof(Reader).Assembly.GetExportedTypes();
            Assert.True(exported.Length > 0, "public types");
            foreach (Type type in exported)
            {
                Assert.Equal("Dbdf", type.Namespace, type.FullName);
                Assert.False(type.Name.StartsWith("SWIGTYPE", StringComparison.Ordinal), type.FullName);
                Assert.False(type.Name.StartsWith("Native", StringComparison.Ordinal), type.FullName);
            }
            Assert.False(typeof(Reader).Assembly.GetTypes().Any(type => type.Name.StartsWith("SWIGTYPE_p_",
                StringComparison.Ordinal)), "no raw pointer wrappers are generated at all");
            foreach (Type owner in new[] { typeof(Reader), typeof(Writer) })
            {
                Assert.True(typeof(IDisposable).IsAssignableFrom(owner), owner.Name + " is IDisposable");
            }
        }

        [Test]
        public void EnumsCarryTheCodesOfTheCInterface()
        {
            Assert.Equal(10, (int)ValueType.F64);
            Assert.Equal(1, (int)ValueType.U8);
            Assert.Equal(3, (int)DataType.Frame);
            Assert.Equal(3, (int)BlockType.Coo);
            Assert.Equal(1, (int)Encoding.AsGiven);
            Assert.Equal(-11, (int)Status.Sink);
            foreach (ValueType type in TestData.DataTypes)
            {
                Assert.Equal(type, ValueTypes.Of(type.ElementType()));
                Assert.Equal(System.Runtime.InteropServices.Marshal.SizeOf(type.ElementType()), type.Size());
            }
            Assert.Equal(Status.Unknown, StatusExtensions.FromCode(-99), "codes of a newer library");
            Assert.Equal(Status.Format, StatusExtensions.FromCode(-6));
            DbdfException error = new DbdfException(Status.Range, "value 300 is not a u8");
            Assert.Equal(-7, error.StatusCode);
            Assert.Equal("range: value 300 is not a u8", error.Message);
            foreach (Status status in Enum.GetValues(typeof(Status)))
            {
                if (status != Status.Unknown)
                {
                    Assert.Equal(status.ToString().ToLowerInvariant(),
                        DbdfLibrary.StatusName(status).Replace("_", "").Replace("nomem", "nomemory"));
                }
            }
        }
    }
}
