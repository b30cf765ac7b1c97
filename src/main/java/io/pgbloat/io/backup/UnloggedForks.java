package io.pgbloat.io.backup;

import io.pgbloat.io.read.Fork;
import io.pgbloat.io.read.RelationFileNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * The files of a backup that a restore's recovery removes: every fork but the init fork of a
 * relation that has one, an unlogged relation (src/backend/storage/file/reinit.c,
 * ResetUnloggedRelations with UNLOGGED_RELATION_CLEANUP, before the init fork is copied over the
 * main fork). pg_basebackup leaves them out already (src/backend/backup/basebackup.c, sendDir);
 * barman-cloud-backup copies the data directory as it finds it, so its archives hold them, in
 * whatever state the running server had last written them. Known by file names alone: only an
 * unlogged relation has an init fork.
 */
final class UnloggedForks {
  private UnloggedForks() {}

  /** Of {@code paths} (a data directory's files), those a restore's recovery removes. */
  static List<String> removedByRecovery(Collection<String> paths) {
    Set<String> unlogged = new HashSet<>();
    for (String path : paths) {
      Matcher fork = RelationFileNames.FORK_SEGMENT.matcher(path);
      if (fork.matches() && Fork.INIT.suffix().equals(fork.group(2))) {
        unlogged.add(relation(path, fork));
      }
    }
    List<String> removed = new ArrayList<>();
    if (unlogged.isEmpty()) {
      return removed;
    }
    for (String path : paths) {
      Matcher fork = RelationFileNames.FORK_SEGMENT.matcher(path);
      if (fork.matches() && !Fork.INIT.suffix().equals(fork.group(2)) && unlogged.contains(relation(path, fork))) {
        removed.add(path);
      }
    }
    return removed;
  }

  /** The relation a fork's segment belongs to: its directory and filenode ("base/5/16384"). */
  private static String relation(String path, Matcher fork) {
    return path.substring(0, fork.start(1)) + fork.group(1);
  }
}
