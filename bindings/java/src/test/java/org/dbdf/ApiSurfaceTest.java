package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * What SWIG generates stays out of the public API: its classes are package-private, and no public signature of a
 * public class of org.dbdf names one of them, a SWIGTYPE_p_ type, or any other non-public type. Value buffers are
 * typed: no public method takes an Object.
 */
class ApiSurfaceTest {
    private static final String PACKAGE = "org.dbdf";

    /** Simple names of the classes SWIG generated (Maven passes their source directory). */
    private static Set<String> generatedClassNames() throws IOException {
        String sources = System.getProperty("dbdf.generated.sources");
        assertTrue(sources != null, "the build passes -Ddbdf.generated.sources");
        try (Stream<Path> files = Files.list(Path.of(sources).resolve(PACKAGE.replace('.', '/')))) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".java"))
                    .map(name -> name.substring(0, name.length() - ".java".length())).collect(Collectors.toSet());
        }
    }

    /** Every class compiled into org.dbdf: read from the class directory (or jar) that holds Reader. */
    private static List<Class<?>> packageClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path location = Path.of(Reader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> names = new ArrayList<>();
        try (FileSystem jar = Files.isRegularFile(location) ? FileSystems.newFileSystem(location) : null) {
            Path root = jar == null ? location : jar.getPath("/");
            try (Stream<Path> files = Files.walk(root.resolve(PACKAGE.replace('.', '/')))) {
                files.map(file -> root.relativize(file).toString()).filter(name -> name.endsWith(".class"))
                        .forEach(name -> names.add(name.substring(0, name.length() - ".class".length())
                                .replace('/', '.')));
            }
        }
        List<Class<?>> classes = new ArrayList<>();
        for (String name : names) {
            classes.add(Class.forName(name, false, ApiSurfaceTest.class.getClassLoader()));
        }
        return classes;
    }

    private static boolean isApi(Class<?> type) {
        return Modifier.isPublic(type.getModifiers())
                && (type.getEnclosingClass() == null || isApi(type.getEnclosingClass()));
    }

    /** The classes a type names, through arrays, type arguments and wildcard bounds. */
    private static Stream<Class<?>> classesOf(Type type) {
        if (type instanceof Class<?> plain) {
            return plain.isArray() ? classesOf(plain.getComponentType()) : Stream.of(plain);
        }
        if (type instanceof ParameterizedType parameterized) {
            return Stream.concat(classesOf(parameterized.getRawType()),
                    Arrays.stream(parameterized.getActualTypeArguments()).flatMap(ApiSurfaceTest::classesOf));
        }
        if (type instanceof GenericArrayType array) {
            return classesOf(array.getGenericComponentType());
        }
        if (type instanceof WildcardType wildcard) {
            return Stream.concat(Arrays.stream(wildcard.getUpperBounds()), Arrays.stream(wildcard.getLowerBounds()))
                    .flatMap(ApiSurfaceTest::classesOf);
        }
        return Stream.empty();  // type variables: their bounds are checked where they are declared
    }

    /** The types in the signature of a member the API exposes. */
    private static Stream<Type> signature(Member member) {
        if (member instanceof Field field) {
            return Stream.of(field.getGenericType());
        }
        Executable executable = (Executable) member;
        Stream<Type> result = executable instanceof Method method ? Stream.of(method.getGenericReturnType())
                : Stream.empty();
        return Stream.concat(result, Stream.concat(Arrays.stream(executable.getGenericParameterTypes()),
                Arrays.stream(executable.getGenericExceptionTypes())));
    }

    /** Public members (inherited ones included) and protected declared ones: what a user can reach. */
    private static Stream<Member> reachableMembers(Class<?> type) {
        Stream<Member> declared = Stream.<Member[]>of(type.getDeclaredConstructors(), type.getDeclaredMethods(),
                type.getDeclaredFields()).flatMap(Arrays::stream)
                .filter(member -> Modifier.isPublic(member.getModifiers())
                        || Modifier.isProtected(member.getModifiers()));
        return Stream.concat(declared, Stream.concat(Arrays.stream(type.getMethods()), Arrays.stream(type.getFields())));
    }

    @Test
    void generatedClassesAreNotPublic() throws Exception {
        Set<String> generated = generatedClassNames();
        assertTrue(generated.containsAll(Set.of("NativeReader", "NativeWriter", "NativeDbdf", "NativeDbdfJNI")),
                "SWIG's output: " + generated);
        for (String name : generated) {
            Class<?> type = Class.forName(PACKAGE + "." + name, false, getClass().getClassLoader());
            assertFalse(Modifier.isPublic(type.getModifiers()), type + " is generated, not API");
        }
    }

    @Test
    void publicSignaturesNameOnlyPublicTypes() throws Exception {
        Set<String> generated = generatedClassNames();
        List<Class<?>> api = packageClasses().stream().filter(ApiSurfaceTest::isApi).toList();
        assertTrue(api.containsAll(List.of(Reader.class, Writer.class, Block.class, Dbdf.class)), api.toString());
        for (Class<?> type : api) {
            assertFalse(type.getSimpleName().startsWith("SWIGTYPE_p_") || generated.contains(type.getSimpleName()),
                    type + " is public");
            Stream<Type> supertypes = Stream.concat(Stream.of(type.getGenericSuperclass()),
                    Arrays.stream(type.getGenericInterfaces()));
            supertypes.flatMap(ApiSurfaceTest::classesOf).forEach(supertype -> assertFalse(
                    generated.contains(supertype.getSimpleName()), type + " extends the generated " + supertype));
            reachableMembers(type).forEach(member -> signature(member).flatMap(ApiSurfaceTest::classesOf)
                    .forEach(named -> {
                        assertFalse(named.getSimpleName().startsWith("SWIGTYPE_p_"), member + " names " + named);
                        assertTrue(!named.getPackageName().equals(PACKAGE) || isApi(named),
                                member + " names the non-public " + named);
                    }));
        }
    }

    @Test
    void valueParametersAreTyped() throws Exception {
        for (Class<?> type : packageClasses().stream().filter(ApiSurfaceTest::isApi).toList()) {
            for (Method method : type.getMethods()) {
                boolean takesObject = Arrays.asList(method.getParameterTypes()).contains(Object.class);
                boolean ours = method.getDeclaringClass().getPackageName().equals(PACKAGE);
                assertFalse(ours && takesObject && !method.getName().equals("equals"), method + " takes an Object");
            }
        }
        // One overload per kind of value buffer, for example:
        assertEquals(7, Arrays.stream(Writer.class.getMethods())
                .filter(method -> method.getName().equals("addDense") && method.getParameterCount() == 8).count());
    }
}
