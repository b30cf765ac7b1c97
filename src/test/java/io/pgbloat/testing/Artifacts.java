package io.pgbloat.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The folder under {@code target/pgbloat-it} where an integration test leaves what it compared,
 * for a person to read after a failure: the truths it took, the tool's reports and stderr.
 */
public record Artifacts(Path dir) {

  /** {@code target/pgbloat-it/<folders>}; none for that folder itself. */
  public static Artifacts under(String... folders) {
    return new Artifacts(Path.of("target", "pgbloat-it").resolve(Path.of("", folders)));
  }

  /** Where {@code name} goes, the folder made. */
  public Path file(String name) {
    try {
      return Files.createDirectories(dir).resolve(name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code content} as {@code name}, in UTF-8. */
  public void write(String name, String content) {
    try {
      Files.writeString(file(name), content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The tool's full-scan CSV report of {@code dataDir} on {@code local[2]}, the run every
   * comparison with pgstattuple makes, kept as {@code tool-<variant>.csv} and its stderr as
   * {@code tool-<variant>.err}.
   */
  public ToolRun fullScanCsv(String variant, String dataDir) {
    return fullScanCsv(variant, dataDir, List.of());
  }

  /** The same with {@code more} arguments (a store's {@code --conf} settings) after the others. */
  public ToolRun fullScanCsv(String variant, String dataDir, List<String> more) {
    List<String> args = new ArrayList<>(List.of("--full-scan"));
    args.addAll(more);
    return csv(variant, dataDir, args);
  }

  /**
   * The tool's CSV report of {@code dataDir} on {@code local[2]} with {@code more} arguments (how
   * much to read among them), kept as {@code tool-<variant>.csv} and {@code tool-<variant>.err}.
   */
  public ToolRun csv(String variant, String dataDir, List<String> more) {
    List<String> args = new ArrayList<>(List.of("analyze", "--data-dir", dataDir, "--format", "csv",
        "--master", "local[2]"));
    args.addAll(more);
    ToolRun run = ToolRun.of(args.toArray(String[]::new));
    write("tool-" + variant + ".csv", run.out());
    write("tool-" + variant + ".err", run.err());
    return run;
  }
}
