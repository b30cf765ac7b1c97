package io.pgbloat.catalog;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RelationFilterTest {
  private static Relation rel(String db, String schema, String name) {
    return new Relation(db, schema, name, RelKind.TABLE, "base/1/2", "", 2);
  }

  @Test
  void patternsMatchSchemaDotNameWithStars() {
    RelationFilter f = new RelationFilter(List.of(), List.of("public.order*", "*.audit_log"));
    assertTrue(f.selects(rel("shop", "public", "orders")));
    assertTrue(f.selects(rel("shop", "archive", "audit_log")));
    assertFalse(f.selects(rel("shop", "public", "customers")));
    assertFalse(f.selects(rel("shop", "public2", "orders")));
  }

  @Test
  void patternWithoutDotMeansAnySchema() {
    RelationFilter f = new RelationFilter(List.of(), List.of("orders"));
    assertTrue(f.selects(rel("shop", "archive", "orders")));
    assertFalse(f.selects(rel("shop", "archive", "orders_2025")));
  }

  @Test
  void regexCharactersAreLiteral() {
    RelationFilter f = new RelationFilter(List.of(), List.of("a.b+c"));
    assertTrue(f.selects(rel("d", "a", "b+c")));
    assertFalse(f.selects(rel("d", "a", "bbc")));
  }

  @Test
  void databaseFilterLeavesSharedCatalogsOut() {
    RelationFilter f = new RelationFilter(List.of("shop"), List.of());
    assertTrue(f.selects(rel("shop", "public", "t")));
    assertFalse(f.selects(rel("postgres", "public", "t")));
    assertFalse(f.selects(rel("", "pg_catalog", "pg_database")));
    assertTrue(RelationFilter.all().selects(rel("", "pg_catalog", "pg_database")));
  }
}
