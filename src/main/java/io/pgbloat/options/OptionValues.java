package io.pgbloat.options;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The options given on one surface (or merged from two), parsed and checked as they are set:
 * a bad value, or two choices of one {@link OptionGroup}, fail at once with one line naming
 * the option as the user spelled it.
 */
public final class OptionValues {
  /** A value as given: parsed, and how the user named it (for the messages). */
  private record Given(Object value, String spelled) {}

  private final Map<Option<?>, List<Given>> given = new LinkedHashMap<>();

  /**
   * Sets {@code option} from {@code text}; {@code spelled} names it in a message
   * ({@code --sample-blocks}, {@code conf/pgbloat.conf line 3: sample-blocks}).
   *
   * A second value of an option that is not repeatable replaces the first.
   *
   * @throws OptionException for a value the option's rule refuses, or a second choice of its group
   */
  public void set(Option<?> option, String text, String spelled) {
    Object value = option.rule().apply(spelled, text);
    if (option.group() != null && !Boolean.FALSE.equals(value)) {
      Optional<Map.Entry<Option<?>, List<Given>>> other = choiceOf(option.group())
          .filter(e -> e.getKey() != option);
      if (other.isPresent()) {
        throw new OptionException(other.get().getValue().get(0).spelled() + " and " + spelled
            + " cannot be combined; choose one way to " + option.group().choice());
      }
    }
    List<Given> values = given.computeIfAbsent(option, o -> new ArrayList<>());
    if (!option.repeatable()) {
      values.clear(); // the last one given wins, as in most command lines
    }
    values.add(new Given(value, spelled));
  }

  /** Whether {@code option} was given (a flag given as false too). */
  public boolean has(Option<?> option) {
    return given.containsKey(option);
  }

  /** {@code option}'s value, or its default when it was not given. */
  @SuppressWarnings("unchecked") // set() stored what option's own rule parsed
  public <T> T get(Option<T> option) {
    List<Given> values = given.get(option);
    return values == null ? option.absent() : (T) values.get(values.size() - 1).value();
  }

  /** Every value given of a repeatable {@code option}, in order. */
  @SuppressWarnings("unchecked")
  public <T> List<T> all(Option<T> option) {
    List<T> values = new ArrayList<>();
    given.getOrDefault(option, List.of()).forEach(g -> values.add((T) g.value()));
    return values;
  }

  /**
   * These values over {@code defaults}: each option of the defaults that is not given here, and
   * none of whose group is given here, is added (a command line's --full-scan replaces the
   * configuration file's sample-blocks).
   */
  public OptionValues over(OptionValues defaults) {
    OptionValues merged = new OptionValues();
    defaults.given.forEach((option, values) -> {
      boolean replaced = given.containsKey(option) || (option.group() != null && choiceOf(option.group()).isPresent());
      if (!replaced) {
        merged.given.put(option, values);
      }
    });
    merged.given.putAll(given);
    return merged;
  }

  /** The option given here that takes {@code group}'s choice, if one does. */
  private Optional<Map.Entry<Option<?>, List<Given>>> choiceOf(OptionGroup group) {
    return given.entrySet().stream().filter(e -> group.equals(e.getKey().group()) && counts(e.getValue())).findFirst();
  }

  /** A flag given as false does not take its group's choice. */
  private static boolean counts(List<Given> values) {
    return !values.isEmpty() && !Boolean.FALSE.equals(values.get(values.size() - 1).value());
  }
}
