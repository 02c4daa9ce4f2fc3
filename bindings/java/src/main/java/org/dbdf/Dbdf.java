package org.dbdf;

/** Facts about the loaded native library. */
public final class Dbdf {
    private Dbdf() {
    }

    /** Version of the native library as "major.minor.patch". */
    public static String version() {
        NativeLibrary.load();
        return NativeDbdf.dbdf_version_string();
    }

    /** Version of the native library as major * 10000 + minor * 100 + patch. */
    public static long versionNumber() {
        NativeLibrary.load();
        return NativeDbdf.dbdf_version();
    }

    /** The library's lower-case name of a status ("format", "io", ...). */
    public static String statusName(Status status) {
        NativeLibrary.load();
        return NativeDbdf.dbdf_status_name(status.code());
    }
}
