package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

import org.junit.jupiter.api.Test;

/**
 * Every code of the Java enums against the C library: the constants SWIG generated from dbdf.h (the same names
 * both ways, so a constant added to the header without a Java counterpart fails too), and the library's own name
 * for each code, asked at run time.
 */
class EnumCodesTest {
    /** The int constants SWIG generated for one C enum, by name. */
    private static Map<String, Integer> generatedConstants(Class<?> generatedEnum) throws IllegalAccessException {
        Map<String, Integer> constants = new TreeMap<>();
        for (Field field : generatedEnum.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
                constants.put(field.getName(), field.getInt(null));
            }
        }
        return constants;
    }

    /**
     * Checks the codes of {@code javaValues} against the constants of {@code generatedEnum}, named by
     * {@code constantName}, and against {@code libraryName}, which must name each code as {@code expectedName} does.
     */
    private static <E extends Enum<E>> void assertMatchesLibrary(EnumSet<E> javaValues, ToIntFunction<E> code,
            Function<E, String> constantName, Class<?> generatedEnum, IntFunction<String> libraryName,
            Function<E, String> expectedName) throws IllegalAccessException {
        Map<String, Integer> javaCodes = new TreeMap<>();
        for (E value : javaValues) {
            javaCodes.put(constantName.apply(value), code.applyAsInt(value));
            assertEquals(expectedName.apply(value), libraryName.apply(code.applyAsInt(value)),
                    "the library's name of " + value);
        }
        assertEquals(generatedConstants(generatedEnum), javaCodes, "codes of " + generatedEnum.getSimpleName());
    }

    private static <E extends Enum<E>> String lowerCase(E value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    @Test
    void statusCodes() throws IllegalAccessException {
        EnumSet<Status> statuses = EnumSet.complementOf(EnumSet.of(Status.UNKNOWN));
        assertMatchesLibrary(statuses, Status::code,
                status -> status.code() >= 0 ? "DBDF_" + status.name() : "DBDF_ERR_" + status.name(),
                dbdf_status_t.class, NativeDbdf::dbdf_status_name, EnumCodesTest::lowerCase);
        assertEquals("unknown", NativeDbdf.dbdf_status_name(Status.UNKNOWN.code()));
    }

    @Test
    void valueTypeCodesAndSizes() throws IllegalAccessException {
        assertMatchesLibrary(EnumSet.allOf(ValueType.class), ValueType::code, type -> "DBDF_VALUE_" + type.name(),
                dbdf_value_type_t.class, NativeDbdf::dbdf_value_type_name, EnumCodesTest::lowerCase);
        for (ValueType type : ValueType.values()) {
            assertEquals(type.size(), NativeDbdf.dbdf_value_type_size(type.code()), "size of " + type);
        }
    }

    @Test
    void dataTypeCodes() throws IllegalAccessException {
        assertMatchesLibrary(EnumSet.allOf(DataType.class), DataType::code, type -> "DBDF_DATA_" + type.name(),
                dbdf_data_type_t.class, NativeDbdf::dbdf_data_type_name, EnumCodesTest::lowerCase);
    }

    @Test
    void blockTypeCodes() throws IllegalAccessException {
        assertMatchesLibrary(EnumSet.allOf(BlockType.class), BlockType::code, type -> "DBDF_BLOCK_" + type.name(),
                dbdf_block_type_t.class, NativeDbdf::dbdf_block_type_name, EnumCodesTest::lowerCase);
    }

    @Test
    void encodingCodes() throws IllegalAccessException {
        // The library spells AS_GIVEN "as-given".
        assertMatchesLibrary(EnumSet.allOf(Encoding.class), Encoding::code,
                encoding -> "DBDF_ENCODING_" + encoding.name(), dbdf_encoding_t.class,
                NativeDbdf::dbdf_encoding_name, encoding -> lowerCase(encoding).replace('_', '-'));
    }

    @Test
    void dialectCodes() throws IllegalAccessException {
        assertMatchesLibrary(EnumSet.allOf(Dialect.class), Dialect::code, dialect -> "DBDF_DIALECT_" + dialect.name(),
                dbdf_dialect_t.class, NativeDbdf::dbdf_dialect_name, EnumCodesTest::lowerCase);
    }
}
