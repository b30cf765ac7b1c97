package io.pgbloat.source;

import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.RelationFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.StringStartsWith;

/**
 * A notebook's filters on a report's name columns (the relation's, the index's, the table's for
 * its total), turned into a narrower {@link RelationFilter}, so that only the relations they can
 * keep are planned and read:
 * {@code database} and {@code relkind} by equality or IN, {@code schema} and {@code relname} by
 * equality, {@code relname} by a prefix ({@code LIKE 'order%'}); either side of an AND. A filter
 * is taken only where it narrows the options' own filter (an empty list there, or a value among
 * those it already names); Spark still applies every filter to the rows, so what is not taken
 * here is only read, never wrongly kept. A pushed name the data directory lacks is no error:
 * {@link PushedOptions} then reads what the options alone select.
 */
final class RelationPushdown {
  private final RelationFilter base;
  private List<String> databases;
  private Set<RelKind> kinds;
  private String schema;
  private String relname;
  private String relnamePrefix;
  private final List<Filter> taken = new ArrayList<>();

  RelationPushdown(RelationFilter base) {
    this.base = base;
    this.databases = base.databases();
    this.kinds = Set.of();
  }

  /** Takes what it can of {@code filters}; returns those it took. */
  Filter[] push(Filter[] filters) {
    for (Filter f : filters) {
      if (take(f)) {
        taken.add(f);
      }
    }
    return taken.toArray(Filter[]::new);
  }

  /** The options' filter, narrowed by the filters taken. */
  RelationFilter filter() {
    List<String> patterns = base.tablePatterns();
    if (patterns.isEmpty() && (schema != null || relname != null || relnamePrefix != null)) {
      String name = relname != null ? relname : relnamePrefix != null ? relnamePrefix + "*" : "*";
      patterns = List.of((schema != null ? schema : "*") + "." + name);
    }
    Set<RelKind> kept = base.kinds().isEmpty() ? kinds : base.kinds();
    return new RelationFilter(databases, patterns, kept, base.minBytes());
  }

  private boolean take(Filter f) {
    if (f instanceof And and) {
      boolean left = take(and.left());
      boolean right = take(and.right());
      return left && right;
    }
    if (f instanceof EqualTo eq && eq.value() instanceof String v) {
      return switch (eq.attribute()) {
        case "database" -> narrowDatabases(List.of(v));
        case "relkind" -> narrowKinds(List.of(v));
        case "schema" -> namesFree() && schema == null && isName(v) && set(() -> schema = v);
        case "relname" -> namesFree() && relname == null && relnamePrefix == null && isName(v)
            && set(() -> relname = v);
        default -> false;
      };
    }
    if (f instanceof In in && Arrays.stream(in.values()).allMatch(String.class::isInstance)) {
      List<String> values = Arrays.stream(in.values()).map(String.class::cast).toList();
      return switch (in.attribute()) {
        case "database" -> narrowDatabases(values);
        case "relkind" -> narrowKinds(values);
        default -> false;
      };
    }
    if (f instanceof StringStartsWith starts && starts.attribute().equals("relname") && namesFree() && relname == null
        && relnamePrefix == null && isName(starts.value())) {
      relnamePrefix = starts.value();
      return true;
    }
    return false;
  }

  /** Whether the options name no tables: the patterns are OR-ed, so a name filter cannot narrow them. */
  private boolean namesFree() {
    return base.tablePatterns().isEmpty();
  }

  private boolean narrowDatabases(List<String> values) {
    if (values.contains("")) {
      return false; // the shared catalogs' rows: no database to name
    }
    List<String> narrowed = databases.isEmpty() ? values : databases.stream().filter(values::contains).toList();
    if (narrowed.isEmpty()) {
      return false; // none of the named databases: left to Spark, which keeps no row
    }
    databases = narrowed;
    return true;
  }

  private boolean narrowKinds(List<String> values) {
    if (!kinds.isEmpty() || !base.kinds().isEmpty()) {
      return false;
    }
    // a value that is no relkind matches no row
    Set<RelKind> named = Set.copyOf(values.stream().map(v -> v.length() == 1 ? RelKind.of(v.charAt(0)) : null)
        .filter(Objects::nonNull).toList());
    if (named.isEmpty()) {
      return false; // none a row can have: left to Spark, which keeps no row
    }
    kinds = named;
    return true;
  }

  /** A name the table patterns can hold as it is: no {@code *}, which they read as a wildcard. */
  private static boolean isName(String v) {
    return !v.contains("*");
  }

  private static boolean set(Runnable assignment) {
    assignment.run();
    return true;
  }
}
