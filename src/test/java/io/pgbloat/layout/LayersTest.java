package io.pgbloat.layout;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The floors of src/main, as the README's "Layout" draws them: a package uses only packages on
 * floors below its own, never one beside it or above it. A reference is an import or a
 * qualified name in the code (comments aside); a package not on the plan fails, so that a new
 * one is placed on purpose.
 */
class LayersTest {
  private static final Path MAIN = Path.of("src", "main", "java");
  private static final String ROOT = "io.pgbloat.";

  /** Each package's floor, lowest first; packages on one floor know nothing of each other. */
  private static final Map<String, Integer> FLOORS = Map.ofEntries(
      Map.entry("error", 0),
      Map.entry("page", 1), Map.entry("io.store", 1),
      Map.entry("io.read", 2),
      Map.entry("io.codec", 3),
      Map.entry("io.backup", 4),
      Map.entry("io", 5),
      Map.entry("xact", 6),
      Map.entry("catalog", 7), Map.entry("sample", 7),
      Map.entry("stats", 8), Map.entry("changes", 8),
      Map.entry("rebuild", 9), Map.entry("reuse", 9),
      Map.entry("figures", 10),
      Map.entry("advice", 11),
      Map.entry("rows", 12),
      Map.entry("scan", 13),
      Map.entry("pass", 14),
      Map.entry("spark", 15),
      Map.entry("report", 16),
      Map.entry("frame", 17),
      Map.entry("options", 18),
      Map.entry("cli", 19), Map.entry("source", 19));

  private static final Pattern PACKAGE = Pattern.compile("^package io\\.pgbloat\\.([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern REFERENCE = Pattern.compile("\\bio\\.pgbloat\\.((?:[a-z]+\\.)*[a-z]+)\\.[A-Z]");
  private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

  @Test
  void noPackageUsesOneBesideOrAboveIt() throws IOException {
    List<String> wrong = new ArrayList<>();
    TreeSet<String> unplaced = new TreeSet<>();
    try (Stream<Path> files = Files.walk(MAIN.resolve("io").resolve("pgbloat"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String source = Files.readString(file, StandardCharsets.UTF_8);
        Matcher declared = PACKAGE.matcher(source);
        assertTrue(declared.find(), file + " declares no package");
        String from = declared.group(1);
        if (!FLOORS.containsKey(from)) {
          unplaced.add(from);
          continue;
        }
        Matcher used = REFERENCE.matcher(COMMENT.matcher(source).replaceAll(""));
        while (used.find()) {
          String to = used.group(1);
          if (to.equals(from)) {
            continue;
          }
          if (!FLOORS.containsKey(to)) {
            unplaced.add(to);
          } else if (FLOORS.get(to) >= FLOORS.get(from)) {
            wrong.add(MAIN.relativize(file) + " (" + from + ", floor " + FLOORS.get(from) + ") uses " + ROOT + to
                + " (floor " + FLOORS.get(to) + ")");
          }
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    assertTrue(unplaced.isEmpty(), () -> "packages on no floor of the plan: " + unplaced);
    assertTrue(wrong.isEmpty(), () -> String.join("\n", new TreeSet<>(wrong)));
  }
}
