package io.pgbloat.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A data directory of one major version shipped in {@code sample/versions/pg<major>} (made by
 * {@code sample/versions/make-version-sample.sh} with a real server of that version) and what
 * that server said about it, under {@code truth/}. Database {@code app} has its own encoding.
 *
 * @param major the major version
 */
public record VersionSample(int major) {
  /** The majors shipped here; 15 is {@link SampleData}'s. */
  public static final List<Integer> MAJORS = List.of(13, 14, 16, 17, 18);

  private Path root() {
    return Path.of("sample", "versions", "pg" + major);
  }

  /** The stopped cluster, copied before any truth scan (hint bits mostly unset). */
  public Path dataDir() {
    return root().resolve("pgdata").toAbsolutePath();
  }

  /** pgstattuple() of every relation with heap storage, in the report's CSV columns. */
  public List<Map<String, String>> pgstattuple() {
    return Csv.parseWithHeader(read("truth/pgstattuple.csv"));
  }

  /** pgstatindex() of every valid btree index, in the index report's columns. */
  public List<Map<String, String>> pgstatindex() {
    return Csv.parseWithHeader(read("truth/pgstatindex.csv"));
  }

  /** The server version and the encoding of database app, e.g. "17.10 LATIN1". */
  public String server() {
    return read("truth/server.txt").strip();
  }

  /** The encoding of database app. */
  public String encoding() {
    return server().substring(server().indexOf(' ') + 1);
  }

  private String read(String name) {
    try {
      return Files.readString(root().resolve(name), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
