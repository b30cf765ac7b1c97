package io.pgbloat.options;

import java.util.ArrayList;
import java.util.List;

/** The options' help, rendered from their descriptions: the --help text and docs/options.md's table. */
public final class OptionDocs {
  /** Where the help text of an option starts, and how wide a line may be. */
  private static final int HELP_COLUMN = 24;
  private static final int WIDTH = 100;

  private OptionDocs() {}

  /** The options of the command line, one entry each, help wrapped, defaults said. */
  public static String commandLineHelp() {
    StringBuilder text = new StringBuilder();
    for (Option<?> option : Options.on(Surface.COMMAND_LINE)) {
      String synopsis = "  " + synopsis(option);
      List<String> lines = wrap(withDefault(option), WIDTH - HELP_COLUMN);
      if (synopsis.length() + 2 > HELP_COLUMN) {
        text.append(synopsis).append('\n');
      } else {
        text.append(synopsis).append(" ".repeat(HELP_COLUMN - synopsis.length())).append(lines.remove(0)).append('\n');
      }
      lines.forEach(line -> text.append(" ".repeat(HELP_COLUMN)).append(line).append('\n'));
    }
    return text.toString();
  }

  /**
   * The table of options in docs/options.md (Markdown): every option, its spelling on each surface that
   * takes it, its default and its help.
   */
  public static String markdownTable() {
    StringBuilder table = new StringBuilder("| option | data source | in pgbloat.conf | default | meaning |\n"
        + "|---|---|---|---|---|\n");
    for (Option<?> option : Options.ALL) {
      table.append("| ").append(option.takenBy(Surface.COMMAND_LINE) ? "`" + synopsis(option) + "`" : "")
          .append(" | ").append(option.takenBy(Surface.DATA_SOURCE) ? "`" + option.sourceName() + "`" : "")
          .append(" | ").append(option.takenBy(Surface.CONFIG_FILE) ? "yes" : "")
          .append(" | ").append(option.defaultText() == null ? "" : markdown(option.defaultText()))
          .append(" | ").append(markdown(option.help())).append(" |\n");
    }
    return table.toString();
  }

  /** {@code --name PLACEHOLDER}, or {@code --name} for a flag. */
  private static String synopsis(Option<?> option) {
    return "--" + option.name() + (option.isFlag() ? "" : " " + option.placeholder());
  }

  private static String withDefault(Option<?> option) {
    return option.defaultText() == null ? option.help() : option.help() + " (default: " + option.defaultText() + ")";
  }

  /** Text made safe for a Markdown table cell: no '|' ends it, no '*' starts emphasis. */
  private static String markdown(String text) {
    return text.replace("|", "\\|").replace("*", "\\*");
  }

  private static List<String> wrap(String text, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      line.append(line.length() > 0 ? " " : "").append(word);
    }
    lines.add(line.toString());
    return lines;
  }
}
