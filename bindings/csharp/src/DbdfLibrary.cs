using Dbdf.Internal;

namespace Dbdf
{
    /// <summary>Facts about the loaded native library.</summary>
    public static class DbdfLibrary
    {
        /// <summary>Version of the native library as "major.minor.patch".</summary>
        public static string Version
        {
            get
            {
                NativeLoader.EnsureLoaded();
                return dbdf.dbdf_version_string();
            }
        }

        /// <summary>Version of the native library as major * 10000 + minor * 100 + patch.</summary>
        public static long VersionNumber
        {
            get
            {
                NativeLoader.EnsureLoaded();
                return dbdf.dbdf_version();
            }
        }

        /// <summary>The library's lower-case name of a status ("format", "io", ...).</summary>
        public static string StatusName(Status status)
        {
            NativeLoader.EnsureLoaded();
            return dbdf.dbdf_status_name((int)status);
        }

        /// <summary>Loads the native libraries now (otherwise the first Reader or Writer does it).</summary>
        public static void Load()
        {
            NativeLoader.EnsureLoaded();
        }
    }
}
