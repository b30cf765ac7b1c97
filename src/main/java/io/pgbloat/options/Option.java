package io.pgbloat.options;

import java.util.Set;

/**
 * One option, described once ({@link Options} lists them all).
 *
 * @param name its name on the command line without the dashes and in {@code pgbloat.conf}:
 *     {@code sample-blocks}
 * @param placeholder what its value is called in the help ({@code N}); null for a flag
 * @param help what it does, one sentence or a few, for {@code --help} and docs/options.md's table
 * @param defaultText its default as the help shows it, or null when there is none
 * @param rule what its value must be, and its parse
 * @param absent its value when it is not given (null when there is none)
 * @param group the choice it is one of ({@link OptionGroup}), or null
 * @param surfaces where it can be given
 * @param repeatable given more than once on the command line, each adds a value (a
 *     comma-separated list in the data source)
 * @param <T> its value's type
 */
public record Option<T>(String name, String placeholder, String help, String defaultText, ValueRule<T> rule, T absent,
    OptionGroup group, Set<Surface> surfaces, boolean repeatable) {

  public Option {
    surfaces = Set.copyOf(surfaces);
  }

  /** A flag (false when not given) on {@code surfaces}. */
  public static Option<Boolean> flag(String name, Set<Surface> surfaces, String help) {
    return new Option<>(name, null, help, null, ValueRule.FLAG, false, null, surfaces, false);
  }

  /** An option with a value, none by default, on {@code surfaces}. */
  public static <T> Option<T> value(String name, String placeholder, ValueRule<T> rule, Set<Surface> surfaces,
      String help) {
    return new Option<>(name, placeholder, help, null, rule, null, null, surfaces, false);
  }

  /** This option with {@code absent} when not given, shown in the help as {@code text}. */
  public Option<T> withDefault(T absent, String text) {
    return new Option<>(name, placeholder, help, text, rule, absent, group, surfaces, repeatable);
  }

  /** This option as one choice of {@code choice}. */
  public Option<T> inGroup(OptionGroup choice) {
    return new Option<>(name, placeholder, help, defaultText, rule, absent, choice, surfaces, repeatable);
  }

  /** This option, repeatable. */
  public Option<T> asRepeatable() {
    return new Option<>(name, placeholder, help, defaultText, rule, absent, group, surfaces, true);
  }

  /** Whether it takes no value on the command line. */
  public boolean isFlag() {
    return placeholder == null;
  }

  /** Its name in the data source: the name in camel case, {@code sampleBlocks}. */
  public String sourceName() {
    StringBuilder camel = new StringBuilder();
    boolean upper = false;
    for (char ch : name.toCharArray()) {
      if (ch == '-') {
        upper = true;
      } else {
        camel.append(upper ? Character.toUpperCase(ch) : ch);
        upper = false;
      }
    }
    return camel.toString();
  }

  /** Whether {@code surface} takes it. */
  public boolean takenBy(Surface surface) {
    return surfaces.contains(surface);
  }
}
