package io.pgbloat.io.read;

/**
 * The forks of a relation and their file names ({@code forkNames} in
 * {@code src/common/relpath.c}): the main fork at the relation's path, the others at the
 * path with {@code _<name>} appended, each split into segments like the main fork.
 */
public enum Fork {
  MAIN(""),
  FREE_SPACE_MAP("_fsm"),
  VISIBILITY_MAP("_vm"),
  /** An unlogged relation's initial contents: copied over its main fork at the end of recovery. */
  INIT("_init");

  private final String suffix;

  Fork(String suffix) {
    this.suffix = suffix;
  }

  /** What a relation's path gets for this fork ("_vm"; "" for the main fork). */
  public String suffix() {
    return suffix;
  }

  /** The path of this fork of the relation whose main fork is at {@code relpath}. */
  public String path(String relpath) {
    return relpath + suffix;
  }
}
