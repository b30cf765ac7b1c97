package io.pgbloat.catalog;

import io.pgbloat.page.Attribute;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The leading columns of one system catalog in one major version, in on-disk order, up to
 * the last one this tool reads: a tuple is deformed no further. Columns are found by name,
 * so a column that moves between versions is named once, here, not per version in the
 * readers.
 */
final class CatalogColumns {
  private final List<Attribute> attributes;
  private final Map<String, Integer> numbers = new HashMap<>();

  CatalogColumns(List<Attribute> attributes) {
    this.attributes = List.copyOf(attributes);
    for (int i = 0; i < attributes.size(); i++) {
      numbers.put(attributes.get(i).name(), i);
    }
  }

  List<Attribute> attributes() {
    return attributes;
  }

  /** The attribute number (from 0) of column {@code name}. */
  int number(String name) {
    Integer n = numbers.get(name);
    if (n == null) {
      throw new IllegalArgumentException("no column " + name + " in " + attributes);
    }
    return n;
  }
}
