package io.pgbloat.options;

/**
 * Options that are one choice: at most one of them may be given on one surface, and any of
 * them on the command line replaces the configuration file's (a {@code --full-scan} replaces
 * the file's {@code sample-blocks}).
 *
 * @param choice what the user chooses, for the message when two are given ("size the sample")
 */
public record OptionGroup(String choice) {}
