package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.dbdf.internal.NativeLibrary;
import org.junit.jupiter.api.Test;

/** The native libraries come from the class path, not from java.library.path. */
class NativeLibraryTest {
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
