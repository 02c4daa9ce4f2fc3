package org.dbdf;

import org.dbdf.internal.NativeLibrary;
import org.dbdf.internal.dbdf;

/** Facts about the loaded native library. */
public final class Dbdf {
    private Dbdf() {
    }

    /** Version of the native library as "major.minor.patch". */
    public static String version() {
        NativeLibrary.load();
        return dbdf.dbdf_version_string();
    }

    /** Version of the native library as major * 10000 + minor * 100 + patch. */
    public static long versionNumber() {
        NativeLibrary.load();
        return dbdf.dbdf_version();
    }

    /** The library's lower-case name of a status ("format", "io", ...). */
    public static String statusName(Status status) {
        NativeLibrary.load();
        return dbdf.dbdf_status_name(status.code());
    }
}
