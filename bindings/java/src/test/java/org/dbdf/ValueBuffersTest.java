package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Value buffers: direct buffers must be in native byte order, and a buffer of any unsupported class fails to compile. */
class ValueBuffersTest {
    /** The byte order the library does not use on this machine. */
    private static final ByteOrder FOREIGN_ORDER =
            ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;

    @TempDir
    Path temporary;

    private static void assertRefusesForeignOrder(org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, call);
        assertTrue(error.getMessage().contains("byte order is " + FOREIGN_ORDER), error.getMessage());
        assertTrue(error.getMessage().contains("buffer.order(ByteOrder.nativeOrder())"), error.getMessage());
    }

    @Test
    void buffersInTheForeignByteOrderAreRefused() {
        double[] expected = CrossLanguageMatrix.values();
        try (Reader reader = Reader.fromBytes(CrossLanguageMatrix.bytes())) {
            // ByteBuffer.allocateDirect starts big-endian: the values would come out byte-swapped on x86.
            ByteBuffer output = ByteBuffer.allocateDirect(expected.length * 8).order(FOREIGN_ORDER);
            assertRefusesForeignOrder(() -> reader.readDense(ValueType.F64, output, 0));
            assertRefusesForeignOrder(() -> reader.readColumn(0, ValueType.F64, output));
            assertTrue(reader.nextBlock());
            assertRefusesForeignOrder(() -> reader.block().decodeDense(ValueType.F64, output));

            output.order(ByteOrder.nativeOrder());
            reader.readDense(ValueType.F64, output, 0);
            for (int index = 0; index < expected.length; index++) {
                assertEquals(expected[index], output.getDouble(index * 8), "value " + index);
            }
        }
        try (Writer writer = Writer.toMemory()) {
            writer.beginMatrix(DataType.DENSE, ValueType.I32, 1, 2);
            ByteBuffer input = ByteBuffer.allocateDirect(8).order(FOREIGN_ORDER).putInt(0, 1).putInt(4, 2);
            assertRefusesForeignOrder(() -> writer.addDense(0, 0, 1, 2, ValueType.I32, input));
            assertRefusesForeignOrder(() -> writer.writeDense(ValueType.I32, input, 0, Encoding.AUTO, 0, 0));
        }
    }

    @Test
    void singleByteValuesHaveNoByteOrder() {
        byte[] bytes;
        try (Writer writer = Writer.toMemory()) {
            writer.beginMatrix(DataType.DENSE, ValueType.U8, 1, 3);
            ByteBuffer input = ByteBuffer.allocateDirect(3).order(FOREIGN_ORDER).put(new byte[] {1, 2, (byte) 255});
            writer.writeDense(ValueType.U8, input.flip(), 0, Encoding.AUTO, 0, 0);
            writer.finish();
            bytes = writer.toByteArray();
        }
        try (Reader reader = Reader.fromBytes(bytes)) {
            ByteBuffer output = ByteBuffer.allocateDirect(3).order(FOREIGN_ORDER);
            reader.readDense(ValueType.U8, output, 0);
            assertEquals(255, Byte.toUnsignedInt(output.get(2)));
            byte[] values = new byte[3];
            reader.readDense(ValueType.U8, values, 0);
            assertArrayEquals(new byte[] {1, 2, (byte) 255}, values);
        }
    }

    /** Java source held in memory, for the compiler. */
    private static final class Source extends SimpleJavaFileObject {
        private final String text;

        Source(String className, String text) {
            super(URI.create("string:///" + className + ".java"), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    /** Compiles {@code body} as a method over a Reader, a Block and a Writer; returns the lines with errors (1: first). */
    private Set<Long> errorLines(String body) throws Exception {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertNotNull(compiler, "the tests run on a JDK");
        String classes = Path.of(Reader.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        String text = "import java.nio.ByteBuffer;\nimport org.dbdf.*;\nclass Calls {\n"
                + "static void calls(Reader reader, Block block, Writer writer) {\n" + body + "}\n}\n";
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        compiler.getTask(null, null, diagnostics, List.of("-classpath", classes, "-d", temporary.toString()), null,
                List.of(new Source("Calls", text))).call();
        Set<Long> lines = new TreeSet<>();
        for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
            if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
                assertTrue(diagnostic.getMessage(Locale.ROOT).contains("no suitable method found"),
                        diagnostic.getMessage(Locale.ROOT));
                lines.add(diagnostic.getLineNumber() - 4);
            }
        }
        return lines;
    }

    @Test
    void buffersOfOtherClassesDoNotCompile() throws Exception {
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L), errorLines(""
                + "writer.addDense(0, 0, 1, 1, \"text\");\n"
                + "writer.addDense(0, 0, 1, 1, ValueType.F64, new Object());\n"
                + "writer.writeColumn(0, ValueType.F64, new Double[] {1.0}, Encoding.AUTO, 0);\n"
                + "reader.readDense(ValueType.F64, java.util.List.of(1.0), 0);\n"
                + "block.decodeDense(new char[1]);\n"
                + "block.decodeCoo(ValueType.F64, new int[1], new int[1], java.nio.DoubleBuffer.allocate(1));\n"));
        // The same calls with buffers of the supported kinds compile.
        assertEquals(Set.of(), errorLines(""
                + "writer.addDense(0, 0, 1, 1, new double[1]);\n"
                + "writer.addDense(0, 0, 1, 1, ValueType.U8, ByteBuffer.allocateDirect(1));\n"
                + "writer.writeColumn(0, ValueType.F32, new float[1], Encoding.AUTO, 0);\n"
                + "reader.readDense(ValueType.I16, new short[1], 0);\n"
                + "block.decodeDense(new int[1]);\n"
                + "block.decodeCoo(ValueType.I64, new int[1], new int[1], new long[1]);\n"));
    }
}
