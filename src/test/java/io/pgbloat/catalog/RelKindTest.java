package io.pgbloat.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Set;
import org.junit.jupiter.api.Test;

class RelKindTest {
  @Test
  void eachKindIsPgClassHsLetterParsedAndPrintedAlike() {
    String letters = "ritSvmcfpI"; // RELKIND_* of src/include/catalog/pg_class.h
    for (char letter : letters.toCharArray()) {
      RelKind kind = RelKind.of(letter);
      assertEquals(letter, kind.letter());
      assertEquals(String.valueOf(letter), kind.toString(), "as the reports show it");
    }
    assertEquals(letters.length(), RelKind.values().length);
    assertNull(RelKind.of('x'), "a letter pg_class.h does not define");
  }

  @Test
  void relkindOptionTakesTheKindsReportedOnly() {
    assertEquals(Set.of(RelKind.TABLE, RelKind.MATERIALIZED_VIEW, RelKind.PARTITIONED_INDEX),
        RelKind.reportedOf("r, m,I"));
    for (String refused : new String[] {"v", "S", "x", "rm", "", "r,,m"}) {
      assertEquals("unknown relkind '" + (refused.equals("r,,m") ? "" : refused) + "'",
          assertThrows(IllegalArgumentException.class, () -> RelKind.reportedOf(refused)).getMessage());
    }
  }
}
