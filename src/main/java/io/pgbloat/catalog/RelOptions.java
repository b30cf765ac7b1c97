package io.pgbloat.catalog;

import java.util.List;

/**
 * The storage parameters of pg_class.reloptions that this tool needs: a relation's fillfactor,
 * and a btree index's deduplicate_items.
 * reloptions is a text[] of "name=value" strings ({@code src/backend/access/common/reloptions.c},
 * transformRelOptions writes them, parseRelOptions matches the name up to '='); heap_reloptions
 * reads fillfactor for tables and materialized views and sets it to 100 for every TOAST table,
 * whatever its reloptions say.
 */
public final class RelOptions {
  /** HEAP_DEFAULT_FILLFACTOR ({@code src/include/utils/rel.h}): a heap's pages are filled whole. */
  public static final int HEAP_DEFAULT_FILLFACTOR = 100;
  /** HEAP_MIN_FILLFACTOR ({@code src/include/utils/rel.h}): the smallest fillfactor a heap accepts. */
  public static final int HEAP_MIN_FILLFACTOR = 10;
  private static final String FILLFACTOR = "fillfactor=";
  private static final String DEDUPLICATE_ITEMS = "deduplicate_items=";

  private RelOptions() {}

  /** What {@link #fillfactorOption} returns when the reloptions set no fillfactor. */
  public static final int UNSET = 0;

  /** The fillfactor a table of {@code relkind} whose reloptions set {@code option} is written to. */
  static int tableFillfactor(RelKind relkind, int option) {
    if (relkind == RelKind.TOAST_TABLE || option == UNSET) {
      return HEAP_DEFAULT_FILLFACTOR; // heap_reloptions: TOAST tables are always filled whole
    }
    return option;
  }

  /**
   * The fillfactor {@code reloptions} set, or {@link #UNSET}; the same range (10..100) holds for
   * tables and for every index access method that has the option (nbtree.h, hash.h,
   * gist_private.h, spgist_private.h: *_MIN_FILLFACTOR is 10).
   *
   * @throws IllegalArgumentException when the fillfactor is not an integer in 10..100
   */
  public static int fillfactorOption(List<String> reloptions) {
    if (reloptions == null) {
      return UNSET;
    }
    int fillfactor = UNSET;
    for (String option : reloptions) {
      if (option.startsWith(FILLFACTOR)) {
        String value = option.substring(FILLFACTOR.length()).trim();
        try {
          fillfactor = Integer.parseInt(value); // parseRelOptions refuses a second one
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("reloption fillfactor '" + value + "' is not an integer", e);
        }
        if (fillfactor < HEAP_MIN_FILLFACTOR || fillfactor > 100) {
          throw new IllegalArgumentException("reloption fillfactor " + fillfactor + " is outside "
              + HEAP_MIN_FILLFACTOR + "..100");
        }
      }
    }
    return fillfactor;
  }

  /**
   * A btree index's deduplicate_items (nbtree.h, BTGetDeduplicateItems: on unless set off), its
   * value read as parse_bool ({@code src/backend/utils/adt/bool.c}) reads it: true, yes, on, 1
   * and false, no, off, 0, any unique prefix of them, in any case.
   *
   * @throws IllegalArgumentException when the value is none of those
   */
  public static boolean deduplicateItemsOption(List<String> reloptions) {
    if (reloptions == null) {
      return true;
    }
    boolean on = true;
    for (String option : reloptions) {
      if (option.startsWith(DEDUPLICATE_ITEMS)) {
        on = parseBool(option.substring(DEDUPLICATE_ITEMS.length()).trim());
      }
    }
    return on;
  }

  private static boolean parseBool(String value) {
    String v = value.toLowerCase(java.util.Locale.ROOT);
    if (!v.isEmpty()) {
      if ("true".startsWith(v) || "yes".startsWith(v) || v.length() >= 2 && "on".startsWith(v) || v.equals("1")) {
        return true;
      }
      if ("false".startsWith(v) || "no".startsWith(v) || v.length() >= 2 && "off".startsWith(v) || v.equals("0")) {
        return false;
      }
    }
    throw new IllegalArgumentException("reloption deduplicate_items '" + value + "' is not a boolean");
  }
}
