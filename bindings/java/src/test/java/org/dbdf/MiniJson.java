package org.dbdf;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON parser for the golden-vector manifests: objects become LinkedHashMap, arrays ArrayList,
 * strings String, integers Long (BigInteger beyond long's range, as u64 values above Long.MAX_VALUE are), other
 * numbers Double, true/false Boolean, null null.
 */
final class MiniJson {
    private final String text;
    private int position;

    private MiniJson(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        MiniJson parser = new MiniJson(text);
        Object value = parser.value();
        parser.skipWhitespace();
        if (parser.position != text.length()) {
            throw parser.error("trailing characters");
        }
        return value;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("JSON: " + what + " at offset " + position);
    }

    private void skipWhitespace() {
        while (position < text.length() && " \t\r\n".indexOf(text.charAt(position)) >= 0) {
            position++;
        }
    }

    private char peek() {
        skipWhitespace();
        if (position >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(position);
    }

    private void expect(char expected) {
        if (peek() != expected) {
            throw error("expected '" + expected + "'");
        }
        position++;
    }

    private Object value() {
        char next = peek();
        switch (next) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                return number();
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, position)) {
            throw error("unknown literal");
        }
        position += word.length();
        return value;
    }

    private Map<String, Object> object() {
        expect('{');
        Map<String, Object> members = new LinkedHashMap<>();
        if (peek() == '}') {
            position++;
            return members;
        }
        while (true) {
            if (peek() != '"') {
                throw error("expected a member name");
            }
            String name = string();
            expect(':');
            members.put(name, value());
            char next = peek();
            position++;
            if (next == '}') {
                return members;
            }
            if (next != ',') {
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() {
        expect('[');
        List<Object> elements = new ArrayList<>();
        if (peek() == ']') {
            position++;
            return elements;
        }
        while (true) {
            elements.add(value());
            char next = peek();
            position++;
            if (next == ']') {
                return elements;
            }
            if (next != ',') {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder result = new StringBuilder();
        while (true) {
            if (position >= text.length()) {
                throw error("unterminated string");
            }
            char next = text.charAt(position++);
            if (next == '"') {
                return result.toString();
            }
            if (next != '\\') {
                result.append(next);
                continue;
            }
            char escaped = text.charAt(position++);
            switch (escaped) {
                case '"', '\\', '/' -> result.append(escaped);
                case 'b' -> result.append('\b');
                case 'f' -> result.append('\f');
                case 'n' -> result.append('\n');
                case 'r' -> result.append('\r');
                case 't' -> result.append('\t');
                case 'u' -> {
                    result.append((char) Integer.parseInt(text.substring(position, position + 4), 16));
                    position += 4;
                }
                default -> throw error("bad escape");
            }
        }
    }

    private Object number() {
        int start = position;
        while (position < text.length() && "+-0123456789.eE".indexOf(text.charAt(position)) >= 0) {
            position++;
        }
        String literal = text.substring(start, position);
        if (literal.isEmpty()) {
            throw error("unexpected character");
        }
        if (literal.contains(".") || literal.contains("e") || literal.contains("E")) {
            return Double.parseDouble(literal);
        }
        BigInteger integer = new BigInteger(literal);
        return integer.bitLength() < Long.SIZE ? (Object) integer.longValue() : integer;
    }
}
