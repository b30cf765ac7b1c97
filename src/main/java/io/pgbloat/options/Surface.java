package io.pgbloat.options;

/** Where an option can be given, and how each names it in its messages. */
public enum Surface {
  /** {@code submit.sh analyze --sample-blocks 300}. */
  COMMAND_LINE,
  /** {@code sample-blocks = 300} in {@code conf/pgbloat.conf}: a default the command line overrides. */
  CONFIG_FILE,
  /** {@code .option("sampleBlocks", "300")} on {@code spark.read.format("pgbloat")}. */
  DATA_SOURCE;

  /** The option as this surface spells it: {@code --sample-blocks}, {@code sample-blocks}, {@code sampleBlocks}. */
  public String spelling(Option<?> option) {
    return switch (this) {
      case COMMAND_LINE -> "--" + option.name();
      case CONFIG_FILE -> option.name();
      case DATA_SOURCE -> option.sourceName();
    };
  }
}
