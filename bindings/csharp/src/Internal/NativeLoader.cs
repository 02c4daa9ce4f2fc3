using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;

namespace Dbdf.Internal
{
    /// <summary>
    /// Finds the native libraries next to Dbdf.dll, without environment variables: libdbdf and the P/Invoke glue
    /// libdbdf_csharp are loaded by absolute path from the assembly's directory before the first native call, or,
    /// when the assembly comes from the NuGet package (lib/&lt;framework&gt;/Dbdf.dll), from the package's
    /// runtimes/&lt;rid&gt;/native/ folder (rid: linux-x64, linux-arm64, osx-x64, osx-arm64).
    /// Later lookups of the glue by name ([DllImport("dbdf_csharp")]) then find the already loaded library. If the
    /// directory does not hold them, the runtime's own search (the system's library path) is tried, and a failure
    /// lists everything that was searched.
    /// </summary>
    internal static class NativeLoader
    {
        /// <summary>Major version of the C ABI this assembly was written for: the SONAME of libdbdf.</summary>
        private const int AbiMajor = 0;

        private const int RtldNow = 2;
        private const int RtldGlobal = 0x100;
        private const int RtldGlobalMac = 0x8;

        private static readonly object Sync = new object();
        private static bool loaded;

        [DllImport("libdl.so.2", EntryPoint = "dlopen")]
        private static extern IntPtr LinuxDlopen(string path, int flags);

        [DllImport("libdl.so.2", EntryPoint = "dlerror")]
        private static extern IntPtr LinuxDlerror();

        [DllImport("/usr/lib/libSystem.dylib", EntryPoint = "dlopen")]
        private static extern IntPtr MacDlopen(string path, int flags);

        [DllImport("/usr/lib/libSystem.dylib", EntryPoint = "dlerror")]
        private static extern IntPtr MacDlerror();

        /// <summary>Loads the native libraries once; throws DllNotFoundException naming every place searched.</summary>
        public static void EnsureLoaded()
        {
            lock (Sync)
            {
                if (loaded)
                {
                    return;
                }
                List<string> searched = new List<string>();
                PreloadFromAssemblyDirectory(searched);
                try
                {
                    // The first call through the glue: proves that the glue and libdbdf resolve.
                    dbdf.dbdf_version();
                }
                catch (Exception error)
                {
                    if (!(error is DllNotFoundException || error is EntryPointNotFoundException
                          || error is BadImageFormatException || error is TypeInitializationException))
                    {
                        throw;
                    }
                    StringBuilder message = new StringBuilder();
                    message.Append("dbdf: cannot load the native library dbdf_csharp (and libdbdf). Searched:");
                    foreach (string place in searched)
                    {
                        message.Append("\n  ").Append(place);
                    }
                    message.Append("\n  the runtime's search for 'dbdf_csharp' (the assembly directory, ")
                           .Append("LD_LIBRARY_PATH / DYLD_LIBRARY_PATH / PATH, the system library directories)");
                    message.Append("\nlast error: ").Append(Innermost(error).Message);
                    throw new DllNotFoundException(message.ToString(), error);
                }
                loaded = true;
            }
        }

        private static Exception Innermost(Exception error)
        {
            while (error.InnerException != null)
            {
                error = error.InnerException;
            }
            return error;
        }

        private static bool IsMac()
        {
            // Mono reports Unix for macOS too; the presence of the Mach-O system library tells them apart.
            return Environment.OSVersion.Platform == PlatformID.MacOSX || File.Exists("/usr/lib/libSystem.dylib");
        }

        /// <summary>
        /// The NuGet package's native folder for this process, seen from the assembly's folder lib/&lt;framework&gt;/:
        /// ../../runtimes/&lt;rid&gt;/native.
        /// </summary>
        private static string PackageNativeDirectory(string assemblyDirectory, bool mac)
        {
            string architecture = RuntimeInformation.ProcessArchitecture == Architecture.Arm64 ? "arm64" : "x64";
            string rid = (mac ? "osx-" : "linux-") + architecture;
            return Path.GetFullPath(Path.Combine(assemblyDirectory, "..", "..", "runtimes", rid, "native"));
        }

        /// <summary>The first of directories/name that exists, or null; every path tried that does not is listed.</summary>
        private static string FirstExisting(string[] directories, string name, List<string> searched)
        {
            foreach (string directory in directories)
            {
                string path = Path.Combine(directory, name);
                if (File.Exists(path))
                {
                    return path;
                }
                searched.Add(path + " (not found)");
            }
            return null;
        }

        private static void PreloadFromAssemblyDirectory(List<string> searched)
        {
            if (Environment.OSVersion.Platform != PlatformID.Unix && Environment.OSVersion.Platform != PlatformID.MacOSX)
            {
                return; // Windows: the runtime searches the assembly directory for dbdf_csharp.dll itself.
            }
            string location = typeof(NativeLoader).Assembly.Location;
            if (string.IsNullOrEmpty(location))
            {
                searched.Add("(the assembly has no file location: nothing preloaded)");
                return;
            }
            string directory = Path.GetDirectoryName(Path.GetFullPath(location));
            bool mac = IsMac();
            string[] directories = { directory, PackageNativeDirectory(directory, mac) };
            string[] names = mac
                ? new[] { "libdbdf." + AbiMajor + ".dylib", "libdbdf_csharp.dylib" }
                : new[] { "libdbdf.so." + AbiMajor, "libdbdf_csharp.so" };
            foreach (string name in names)
            {
                string path = FirstExisting(directories, name, searched);
                if (path == null)
                {
                    continue;
                }
                IntPtr handle = mac ? MacDlopen(path, RtldNow | RtldGlobalMac) : LinuxDlopen(path, RtldNow | RtldGlobal);
                if (handle == IntPtr.Zero)
                {
                    string reason = NativeText.FromUtf8(mac ? MacDlerror() : LinuxDlerror());
                    searched.Add(path + " (dlopen failed: " + reason + ")");
                }
                else
                {
                    searched.Add(path + " (loaded)");
                }
            }
        }
    }
}
