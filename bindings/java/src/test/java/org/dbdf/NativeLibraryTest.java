package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The native libraries come from the class path, not from java.library.path; a failure says where it looked. */
class NativeLibraryTest {
    /** A JNI library name that no library path holds. */
    private static final String ABSENT_LIBRARY = "dbdf_java_absent";

    private static void assertContains(String expected, String message) {
        assertTrue(message.contains(expected), "expected \"" + expected + "\" in: " + message);
    }

    /** What the failure says about the System.loadLibrary fallback, which every failure tries last. */
    private static void assertFallbackListed(String message) {
        assertContains("System.loadLibrary(\"" + ABSENT_LIBRARY + "\") with java.library.path="
                + System.getProperty("java.library.path") + ": ", message);
    }

    @Test
    void failureWithoutBundledLibrariesListsEveryPlaceSearched() {
        UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class,
                () -> NativeLibrary.loadFrom("/native/no-such-platform/", ABSENT_LIBRARY));
        String message = error.getMessage();
        assertTrue(message.startsWith("dbdf: cannot load the native library for platform "), message);
        assertContains("; searched: jar resource /native/no-such-platform/libraries.txt: not found in the class path; ",
                message);
        assertFallbackListed(message);
    }

    @Test
    void failureWithALibraryMissingFromTheJarNamesIt() {
        // src/test/resources/native/listed-but-missing/libraries.txt lists a library that is not there.
        UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class,
                () -> NativeLibrary.loadFrom("/native/listed-but-missing/", ABSENT_LIBRARY));
        String message = error.getMessage();
        assertContains("searched: jar resources /native/listed-but-missing/: listed library "
                + "/native/listed-but-missing/libdbdf_absent.so is missing from the jar; ", message);
        assertFallbackListed(message);
    }

    @Test
    void librariesAreBundledForThisPlatform() throws IOException {
        String directory = NativeLibrary.resourceDirectory();
        assertTrue(directory.startsWith("/native/") && directory.endsWith("/"), directory);
        List<String> names;
        try (InputStream list = NativeLibrary.class.getResourceAsStream(directory + "libraries.txt")) {
            assertNotNull(list, "libraries.txt is bundled under " + directory);
            names = new String(list.readAllBytes(), StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank())
                    .toList();
        }
        assertEquals(2, names.size(), "libdbdf, then the JNI library: " + names);
        assertTrue(names.get(0).contains("dbdf") && !names.get(0).contains("java"), names.get(0));
        assertTrue(names.get(1).contains("dbdf_java"), names.get(1));
        for (String name : names) {
            try (InputStream library = NativeLibrary.class.getResourceAsStream(directory + name)) {
                assertNotNull(library, name + " is bundled");
                byte[] magic = library.readNBytes(4);
                assertEquals(4, magic.length);
            }
        }
    }

    @Test
    void loadingIsIdempotentAndTheLibraryAnswers() {
        NativeLibrary.load();
        NativeLibrary.load();
        assertTrue(Dbdf.versionNumber() >= 100);
        assertTrue(Dbdf.version().matches("\\d+\\.\\d+\\.\\d+"), Dbdf.version());
    }
}
