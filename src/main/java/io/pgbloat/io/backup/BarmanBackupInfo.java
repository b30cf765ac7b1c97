package io.pgbloat.io.backup;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What this tool reads of a Barman backup's {@code backup.info}: one {@code name=value} a line,
 * the fields sorted by name, a value of {@code None} for none, lists and dictionaries as Python
 * literals (barman/infofile.py, FieldListFile.save and load; the fields BackupInfo declares).
 * barman-cloud-backup uploads it last, whatever became of the backup, with its status
 * (barman/cloud.py, CloudBackup._coordinate_backup).
 *
 * @param status DONE for a backup that completed; FAILED (and its {@code error}) for one that did not
 * @param error why the backup failed, or null
 * @param name the name given with {@code barman-cloud-backup --name}, or null
 * @param tablespaces the OIDs of the tablespaces other than the main ones, each in an archive of its own
 * @param snapshot whether the backup is of disk snapshots ({@code snapshots_info}), none of its data in the bucket
 */
record BarmanBackupInfo(String status, String error, String name, List<Long> tablespaces, boolean snapshot) {
  /** BackupInfo.DONE: the only status of a backup that completed. */
  static final String DONE = "DONE";

  /** A Python string literal, either quote, with backslash escapes (Python's repr). */
  private static final Pattern PYTHON_STRING = Pattern.compile("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"");
  /**
   * One tablespace once its strings are emptied: {@code ('name', oid, 'location')}, the tuple
   * output_tablespace_list writes for each (infofile.py, Tablespace(name, oid, location)).
   */
  private static final Pattern TABLESPACE = Pattern.compile("\\(\\s*''\\s*,\\s*(\\d+)\\s*,\\s*''\\s*\\)");
  private static final String NONE = "None";

  /** The fields of {@code bytes} (the file at {@code where}). */
  static BarmanBackupInfo parse(byte[] bytes, String where) throws ArchiveException {
    String status = null;
    String error = null;
    String name = null;
    String tablespaces = null;
    boolean snapshot = false;
    for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank() || line.strip().startsWith("#")) {
        continue; // FieldListFile.load skips them too
      }
      int equals = line.indexOf('=');
      if (equals < 0) {
        throw new ArchiveException(where + ": the line '" + line.strip() + "' is not name=value: not a Barman "
            + "backup.info, or a damaged one");
      }
      String value = line.substring(equals + 1).strip();
      value = value.equals(NONE) ? null : value;
      switch (line.substring(0, equals).strip()) {
        case "status" -> status = value;
        case "error" -> error = value;
        case "backup_name" -> name = value;
        case "tablespaces" -> tablespaces = value;
        case "snapshots_info" -> snapshot = value != null;
        default -> { } // times, WAL positions, sizes, configuration files: not read
      }
    }
    if (status == null) {
      throw new ArchiveException(where + ": no status: not a Barman backup.info, or a damaged one");
    }
    return new BarmanBackupInfo(status, error, name, tablespaceOids(tablespaces, where), snapshot);
  }

  /** The OIDs of the Python list of tablespace tuples {@code literal} (null: none). */
  private static List<Long> tablespaceOids(String literal, String where) throws ArchiveException {
    List<Long> oids = new ArrayList<>();
    if (literal == null) {
      return oids;
    }
    String emptied = PYTHON_STRING.matcher(literal).replaceAll("''");
    Matcher tuple = TABLESPACE.matcher(emptied);
    int tuples = 0;
    while (tuple.find()) {
      oids.add(Long.parseLong(tuple.group(1)));
      tuples++;
    }
    if (tuples == 0 || tuples != emptied.chars().filter(c -> c == '(').count()) {
      throw new ArchiveException(where + ": tablespaces=" + literal + " is not a list of (name, oid, location): a "
          + "damaged backup.info");
    }
    return oids;
  }

  boolean isDone() {
    return DONE.equals(status);
  }
}
