package org.dbdf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loads the JNI library and libdbdf without any java.library.path setting.
 *
 * <p>The jar carries both for its platform under {@code /native/<os>-<arch>/}, with {@code libraries.txt} listing
 * the file names in load order (libdbdf first, under its SONAME, so that the JNI library's dependency on it is
 * satisfied by the copy already loaded). They are extracted once per JVM into a fresh temporary directory and
 * loaded from there. When the jar has no libraries for this platform, {@code System.loadLibrary("dbdf_java")} is
 * tried. If both fail, the error lists everything that was tried.
 */
final class NativeLibrary {
    /** Name of the JNI library, as System.loadLibrary takes it. */
    static final String JNI_LIBRARY_NAME = "dbdf_java";

    private static boolean loaded;

    private NativeLibrary() {
    }

    /** The resource directory of this platform's libraries, e.g. {@code /native/linux-x86_64/}. */
    static String resourceDirectory() {
        return "/native/" + platform() + "/";
    }

    /** Loads the libraries once; later calls return at once. Throws UnsatisfiedLinkError saying what was searched. */
    static synchronized void load() {
        if (!loaded) {
            loadFrom(resourceDirectory(), JNI_LIBRARY_NAME);
            loaded = true;
        }
    }

    /**
     * Loads the libraries listed in the class path resource {@code directory + "libraries.txt"}, or else the JNI
     * library {@code jniLibraryName} with System.loadLibrary. Apart from {@link #load()} so that tests can make both
     * fail and read the message.
     */
    static void loadFrom(String directory, String jniLibraryName) {
        List<String> attempts = new ArrayList<>();
        try {
            List<String> names = bundledLibraryNames(directory);
            if (names.isEmpty()) {
                attempts.add("jar resource " + directory + "libraries.txt: not found in the class path");
            } else {
                Path extracted = Files.createTempDirectory("dbdf-native-");
                extracted.toFile().deleteOnExit();
                for (String name : names) {
                    Path target = extracted.resolve(name);
                    try (InputStream library = NativeLibrary.class.getResourceAsStream(directory + name)) {
                        if (library == null) {
                            throw new IOException("listed library " + directory + name + " is missing from the jar");
                        }
                        Files.copy(library, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                    target.toFile().deleteOnExit();
                }
                for (String name : names) {
                    System.load(extracted.resolve(name).toAbsolutePath().toString());
                }
                return;
            }
        } catch (IOException | UnsatisfiedLinkError | SecurityException error) {
            attempts.add("jar resources " + directory + ": " + error.getMessage());
        }
        try {
            System.loadLibrary(jniLibraryName);
            return;
        } catch (UnsatisfiedLinkError | SecurityException error) {
            attempts.add("System.loadLibrary(\"" + jniLibraryName + "\") with java.library.path="
                    + System.getProperty("java.library.path") + ": " + error.getMessage());
        }
        throw new UnsatisfiedLinkError("dbdf: cannot load the native library for platform " + platform()
                + "; searched: " + String.join("; ", attempts));
    }

    private static List<String> bundledLibraryNames(String directory) throws IOException {
        List<String> names = new ArrayList<>();
        try (InputStream list = NativeLibrary.class.getResourceAsStream(directory + "libraries.txt")) {
            if (list == null) {
                return names;
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(list, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String name = line.strip();
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /** {@code <os>-<arch>} with the names CMake uses when it packs the jar (linux-x86_64, linux-aarch64, ...). */
    static String platform() {
        String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
        String osName;
        if (os.startsWith("linux")) {
            osName = "linux";
        } else if (os.startsWith("mac") || os.startsWith("darwin")) {
            osName = "darwin";
        } else if (os.startsWith("windows")) {
            osName = "windows";
        } else {
            osName = os.replaceAll("[^a-z0-9]", "");
        }
        String archName = switch (arch) {
            case "amd64", "x86_64", "x64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch.replaceAll("[^a-z0-9_]", "");
        };
        return osName + "-" + archName;
    }
}
