package io.pgbloat.io.backup;

import java.io.IOException;

/**
 * A backup's archive that cannot be read as one: damaged (a header's checksum, a member cut
 * short), or in a form this tool does not read. The message names the archive and where.
 */
public final class ArchiveException extends IOException {
  private static final long serialVersionUID = 1L;

  public ArchiveException(String message) {
    super(message);
  }
}
