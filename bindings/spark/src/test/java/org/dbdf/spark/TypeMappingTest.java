package org.dbdf.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import org.apache.spark.sql.types.Decimal;
import org.junit.jupiter.api.Test;

/** Values of every u64 range as DECIMAL(20, 0): exact, of the type's precision and scale, on both sides of 2^63. */
class TypeMappingTest {
    @Test
    void everyU64ComesOutExactlyAsADecimalOfItsType() {
        String[] expected = {"0", "1", "42", "999999999999999999", "1000000000000000000", "9223372036854775807",
            "9223372036854775808", "10000000000000000000", "18446744073709551615"};
        for (String text : expected) {
            BigInteger value = new BigInteger(text);
            Decimal decimal = TypeMapping.unsignedDecimal(value.longValue()); // the low 64 bits, as dbdf stores them
            assertEquals(value, decimal.toJavaBigDecimal().toBigIntegerExact(), text);
            assertEquals(TypeMapping.U64_TYPE.precision(), decimal.precision(), text);
            assertEquals(TypeMapping.U64_TYPE.scale(), decimal.scale(), text);
            assertEquals(text, decimal.toString(), text);
        }
    }
}
