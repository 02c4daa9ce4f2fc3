package org.dbdf;

import java.util.Objects;

/**
 * One rule violation found by {@link Reader#violations()}.
 *
 * @param rule    the number of the rule in docs/format-rules.md; 0 for the spec's layout itself
 * @param offset  byte offset in the input
 * @param message what is wrong, where, and which rule it breaks (the library's message: it ends with
 *                "at byte N (rule R)", or "(spec layout)" for rule 0)
 */
public record Violation(int rule, long offset, String message) {
    public Violation {
        Objects.requireNonNull(message, "message");
    }
}
