package io.pgbloat.catalog;

import static io.pgbloat.catalog.SystemCatalogs.PG_ATTRIBUTE_13;
import static io.pgbloat.catalog.SystemCatalogs.PG_ATTRIBUTE_14;
import static io.pgbloat.catalog.SystemCatalogs.PG_ATTRIBUTE_16;
import static io.pgbloat.catalog.SystemCatalogs.PG_ATTRIBUTE_18;
import static io.pgbloat.catalog.SystemCatalogs.PG_CLASS_13;
import static io.pgbloat.catalog.SystemCatalogs.PG_CLASS_18;
import static io.pgbloat.catalog.SystemCatalogs.PG_DATABASE_13;
import static io.pgbloat.catalog.SystemCatalogs.PG_DATABASE_15;
import static io.pgbloat.catalog.SystemCatalogs.PG_DATABASE_17;
import static io.pgbloat.catalog.SystemCatalogs.PG_INDEX_13;
import static io.pgbloat.catalog.SystemCatalogs.PG_INDEX_15;

import io.pgbloat.page.FreeSpaceRule;
import io.pgbloat.xact.TwoPhaseFileFormat;
import io.pgbloat.xact.WalFormat;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The major versions this tool reads, and what differs between them: the one place that
 * knows versions. Chosen once from {@code PG_VERSION} (the version of the catalog: a data
 * directory upgraded by pg_upgrade keeps older pages under it, and pages read the same in
 * every version here) and checked against pg_control. The page and tuple format, the commit
 * log, multixacts and the visibility map are the same in all of them.
 */
public enum PostgresVersion {
  // pg_control, pg_filenode.map, pg_class, pg_database, pg_index, pg_attribute, pg_twophase, WAL, pgstattuple's
  // free space, the planner's tuple estimate
  PG13(ControlFile.Format.PG13, RelationMap.Format.PG13, PG_CLASS_13, PG_DATABASE_13, PG_INDEX_13, PG_ATTRIBUTE_13, TwoPhaseFileFormat.PG13, WalFormat.PG13, FreeSpaceRule.ROOM_FOR_A_TUPLE, TupleEstimateRule.PG13),
  PG14(ControlFile.Format.PG13, RelationMap.Format.PG13, PG_CLASS_13, PG_DATABASE_13, PG_INDEX_13, PG_ATTRIBUTE_14, TwoPhaseFileFormat.PG13, WalFormat.PG14, FreeSpaceRule.ROOM_FOR_A_TUPLE, TupleEstimateRule.PG14),
  PG15(ControlFile.Format.PG13, RelationMap.Format.PG13, PG_CLASS_13, PG_DATABASE_15, PG_INDEX_15, PG_ATTRIBUTE_14, TwoPhaseFileFormat.PG15, WalFormat.PG15, FreeSpaceRule.ROOM_FOR_A_TUPLE, TupleEstimateRule.PG14),
  PG16(ControlFile.Format.PG13, RelationMap.Format.PG16, PG_CLASS_13, PG_DATABASE_15, PG_INDEX_15, PG_ATTRIBUTE_16, TwoPhaseFileFormat.PG15, WalFormat.PG16, FreeSpaceRule.ROOM_FOR_A_TUPLE, TupleEstimateRule.PG14),
  PG17(ControlFile.Format.PG17, RelationMap.Format.PG16, PG_CLASS_13, PG_DATABASE_17, PG_INDEX_15, PG_ATTRIBUTE_16, TwoPhaseFileFormat.PG17, WalFormat.PG17, FreeSpaceRule.ROOM_FOR_A_TUPLE, TupleEstimateRule.PG17),
  PG18(ControlFile.Format.PG18, RelationMap.Format.PG16, PG_CLASS_18, PG_DATABASE_17, PG_INDEX_15, PG_ATTRIBUTE_18, TwoPhaseFileFormat.PG17, WalFormat.PG18, FreeSpaceRule.EXACT, TupleEstimateRule.PG17);

  private final ControlFile.Format control;
  private final RelationMap.Format relationMap;
  private final CatalogColumns pgClass;
  private final CatalogColumns pgDatabase;
  private final CatalogColumns pgIndex;
  private final CatalogColumns pgAttribute;
  private final TwoPhaseFileFormat twoPhase;
  private final WalFormat wal;
  private final FreeSpaceRule freeSpace;
  private final TupleEstimateRule tupleEstimate;

  PostgresVersion(ControlFile.Format control, RelationMap.Format relationMap, CatalogColumns pgClass,
      CatalogColumns pgDatabase, CatalogColumns pgIndex, CatalogColumns pgAttribute, TwoPhaseFileFormat twoPhase,
      WalFormat wal, FreeSpaceRule freeSpace, TupleEstimateRule tupleEstimate) {
    this.control = control;
    this.relationMap = relationMap;
    this.pgClass = pgClass;
    this.pgDatabase = pgDatabase;
    this.pgIndex = pgIndex;
    this.pgAttribute = pgAttribute;
    this.twoPhase = twoPhase;
    this.wal = wal;
    this.freeSpace = freeSpace;
    this.tupleEstimate = tupleEstimate;
  }

  /**
   * The version a {@code PG_VERSION} file names ("15"; "9.6" style for versions before 10).
   *
   * @throws IllegalArgumentException naming the version and the versions supported, when it
   *     is not one of them
   */
  public static PostgresVersion of(String pgVersionFile) {
    String text = pgVersionFile.trim();
    for (PostgresVersion v : values()) {
      if (text.equals(Integer.toString(v.major()))) {
        return v;
      }
    }
    throw new IllegalArgumentException("it is PostgreSQL " + (text.isEmpty() ? "(an empty PG_VERSION)" : text)
        + ", and this tool reads PostgreSQL " + supported());
  }

  /** The versions supported, for messages: "13, 14, 15, 16, 17 and 18". */
  public static String supported() {
    String all = Arrays.stream(values()).map(v -> Integer.toString(v.major())).collect(Collectors.joining(", "));
    int last = all.lastIndexOf(", ");
    return all.substring(0, last) + " and " + all.substring(last + 2);
  }

  public int major() {
    return Integer.parseInt(name().substring(2));
  }

  ControlFile.Format control() {
    return control;
  }

  RelationMap.Format relationMap() {
    return relationMap;
  }

  CatalogColumns pgClass() {
    return pgClass;
  }

  CatalogColumns pgDatabase() {
    return pgDatabase;
  }

  CatalogColumns pgIndex() {
    return pgIndex;
  }

  CatalogColumns pgAttribute() {
    return pgAttribute;
  }

  /** How the planner estimates a table's tuples from its pg_class row in this version. */
  public TupleEstimateRule tupleEstimate() {
    return tupleEstimate;
  }

  public TwoPhaseFileFormat twoPhase() {
    return twoPhase;
  }

  public WalFormat wal() {
    return wal;
  }

  public FreeSpaceRule freeSpace() {
    return freeSpace;
  }

  /**
   * TABLESPACE_VERSION_DIRECTORY ({@code src/include/catalog/catalog.h}): the directory a
   * tablespace holds for this version, {@code PG_<major>_<catversion>}.
   */
  String tablespaceDirectory(long catalogVersion) {
    return "PG_" + major() + "_" + catalogVersion;
  }
}
