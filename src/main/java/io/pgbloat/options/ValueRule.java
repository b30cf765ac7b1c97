package io.pgbloat.options;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * What an option's value must be, and its parse: {@code parse} throws an
 * IllegalArgumentException (NumberFormatException included) for a value it refuses.
 *
 * @param expected what the value must be, for the message "--x needs EXPECTED, not 'v'"; null
 *     when the parse's own message says it better (a --fail-on condition)
 * @param parse the value from its text
 * @param <T> the value's type
 */
public record ValueRule<T>(String expected, Function<String, T> parse) {
  /** A flag: true when given on the command line; "true" or "false" elsewhere. */
  public static final ValueRule<Boolean> FLAG = new ValueRule<>("true or false", text -> switch (
      text.trim().toLowerCase(Locale.ROOT)) {
    case "true" -> true;
    case "false" -> false;
    default -> throw new IllegalArgumentException(text);
  });

  /** Any text but an empty one (a path, a name, a URL). */
  public static final ValueRule<String> TEXT = new ValueRule<>("a non-empty value", text -> {
    if (text.isBlank()) {
      throw new IllegalArgumentException("empty");
    }
    return text;
  });

  /** A whole number from {@code min} to {@code max}. */
  public static ValueRule<Integer> count(int min, int max) {
    return new ValueRule<>("a whole number from " + min + " to " + max, text -> {
      int n = Integer.parseInt(text.trim());
      if (n < min || n > max) {
        throw new IllegalArgumentException(text);
      }
      return n;
    });
  }

  /** A number from {@code min} to {@code max}, fractions allowed. */
  public static ValueRule<Double> number(double min, double max) {
    return new ValueRule<>("a number from " + format(min) + " to " + format(max), text -> {
      double x = Double.parseDouble(text.trim());
      if (!(x >= min && x <= max)) {
        throw new IllegalArgumentException(text);
      }
      return x;
    });
  }

  /** One of {@code choices} (lower case), case ignored: the choice as written there. */
  public static ValueRule<String> oneOf(List<String> choices) {
    String last = choices.get(choices.size() - 1);
    String expected = "one of " + String.join(", ", choices.subList(0, choices.size() - 1)) + " or " + last;
    return new ValueRule<>(expected, text -> {
      String choice = text.trim().toLowerCase(Locale.ROOT);
      if (!choices.contains(choice)) {
        throw new IllegalArgumentException(text);
      }
      return choice;
    });
  }

  /** {@code text} parsed, or an OptionException naming the option as {@code spelled} says. */
  T apply(String spelled, String text) {
    try {
      return parse.apply(text);
    } catch (IllegalArgumentException e) {
      throw new OptionException(expected == null ? spelled + ": " + e.getMessage()
          : spelled + " needs " + expected + ", not '" + text + "'");
    }
  }

  private static String format(double x) {
    return x == Math.rint(x) ? Long.toString((long) x) : Double.toString(x);
  }
}
