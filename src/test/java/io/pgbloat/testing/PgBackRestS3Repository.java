package io.pgbloat.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A pgBackRest repository of type {@code s3} that a real pgBackRest keeps in a bucket of an
 * {@link S3Server}, over HTTPS (pgBackRest speaks S3 over TLS only; the certificate is
 * self-signed, so it is not verified), with path-style requests. pgBackRest runs as the server
 * user of a {@link PostgresCluster}, with a configuration file of its own in a directory of that
 * cluster. The objects land as files in {@link S3Server#bucketDirectory}, laid out as a local
 * repository: {@link #localDirectory()} is readable as {@code pgbackrest:<that directory>}.
 */
public final class PgBackRestS3Repository {
  /** The repository's path inside the bucket (pgBackRest's {@code repo1-path}). */
  public static final String REPOSITORY_PATH = "/pgbackrest";
  private static final Pattern LABEL = Pattern.compile("(?m)^\\s*(?:full|diff|incr) backup: (\\S+)");

  private final PostgresCluster pg;
  private final S3Server s3;
  private final String bucket;
  private final String stanza;
  private final Path config;

  private PgBackRestS3Repository(PostgresCluster pg, S3Server s3, String bucket, String stanza, Path config) {
    this.pg = pg;
    this.s3 = s3;
    this.bucket = bucket;
    this.stanza = stanza;
    this.config = config;
  }

  /**
   * Creates {@code bucket} and writes the configuration of a repository in it for {@code pg}'s
   * {@code stanza}, with {@code options} (e.g. {@code compress-type}, {@code repo1-bundle}) added to
   * its global section. Nothing is run yet: set {@link #archiveCommand()}, start the server, then
   * {@link #createStanza()}.
   */
  public static PgBackRestS3Repository configure(PostgresCluster pg, S3Server s3, String bucket, String stanza,
      Map<String, String> options) {
    s3.createBucket(bucket);
    Path work = pg.newServerDirectory("pgbackrest-s3-" + bucket);
    Path config = work.resolve("pgbackrest.conf");
    StringBuilder global = new StringBuilder();
    options.forEach((name, value) -> global.append(name).append('=').append(value).append('\n'));
    try {
      Files.writeString(config, """
          [global]
          repo1-type=s3
          repo1-path=%s
          repo1-s3-bucket=%s
          repo1-s3-endpoint=%s
          repo1-storage-port=%d
          repo1-s3-uri-style=path
          repo1-storage-verify-tls=n
          repo1-s3-region=%s
          repo1-s3-key=%s
          repo1-s3-key-secret=%s
          repo1-retention-full=9
          start-fast=y
          log-level-console=warn
          log-level-file=off
          lock-path=%s
          %s
          [%s]
          pg1-path=%s
          pg1-socket-path=%s
          pg1-port=%d
          """.formatted(REPOSITORY_PATH, bucket, s3.secureEndpoint().getHost(), s3.secureEndpoint().getPort(),
              S3Server.REGION, S3Server.ACCESS_KEY, S3Server.SECRET_KEY, work, global, stanza, pg.dataDir(),
              pg.socketDir(), pg.port()), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new PgBackRestS3Repository(pg, s3, bucket, stanza, config);
  }

  /** The server's {@code archive_command}, quoted for postgresql.conf: WAL is pushed into this repository. */
  public String archiveCommand() {
    return archiveCommand(List.of(this));
  }

  /** The server's {@code archive_command}, quoted for postgresql.conf: WAL is pushed into each of {@code into}. */
  public static String archiveCommand(List<PgBackRestS3Repository> into) {
    return into.stream().map(r -> "pgbackrest --config=" + r.config + " --stanza=" + r.stanza + " archive-push %p")
        .collect(Collectors.joining(" && ", "'", "'"));
  }

  /** {@code stanza-create}: the server must be running with {@link #archiveCommand()}. */
  public void createStanza() {
    pgbackrest("stanza-create");
  }

  /** Takes a backup of {@code type} (full, diff, incr) and returns its label. */
  public String backUp(String type) {
    pgbackrest("backup", "--type=" + type);
    Matcher m = LABEL.matcher(pgbackrest("info"));
    String label = null;
    while (m.find()) {
      label = m.group(1); // the last one listed is the newest
    }
    if (label == null) {
      throw new IllegalStateException("pgbackrest info lists no backup after a " + type + " backup");
    }
    return label;
  }

  /** Runs pgBackRest on this repository and stanza with {@code args}; returns its output. */
  public String pgbackrest(String... args) {
    List<String> command = new ArrayList<>(List.of("pgbackrest", "--config=" + config, "--stanza=" + stanza));
    command.addAll(List.of(args));
    return pg.runAsServerUser(command.toArray(String[]::new));
  }

  public String bucket() {
    return bucket;
  }

  public String stanza() {
    return stanza;
  }

  /** The repository's URL as Hadoop's S3 connector reads it: {@code s3a://<bucket><repo1-path>}. */
  public String s3aUrl() {
    return "s3a://" + bucket + REPOSITORY_PATH;
  }

  /** The repository as S3Proxy keeps it on disk: the layout of a local ({@code posix}) repository. */
  public Path localDirectory() {
    return s3.bucketDirectory(bucket).resolve(REPOSITORY_PATH.substring(1));
  }
}
