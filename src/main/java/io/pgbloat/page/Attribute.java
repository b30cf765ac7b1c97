package io.pgbloat.page;

/**
 * One column's storage as pg_attribute describes it: attlen (bytes, or -1 for varlena) and
 * attalign ('c' char, 's' short, 'i' int, 'd' double).
 */
public record Attribute(String name, int length, char align) {
  public static final int VARLENA = -1;
  /** attlen of a cstring, stored with its NUL and never aligned. */
  public static final int CSTRING = -2;

  public static Attribute oid(String name) {
    return new Attribute(name, 4, 'i');
  }

  public static Attribute int4(String name) {
    return new Attribute(name, 4, 'i');
  }

  public static Attribute int2(String name) {
    return new Attribute(name, 2, 's');
  }

  public static Attribute float4(String name) {
    return new Attribute(name, 4, 'i');
  }

  public static Attribute bool(String name) {
    return new Attribute(name, 1, 'c');
  }

  /** "char": one byte. */
  public static Attribute character(String name) {
    return new Attribute(name, 1, 'c');
  }

  /** name: NAMEDATALEN (64) bytes, NUL-padded. */
  public static Attribute name(String name) {
    return new Attribute(name, Tuple.NAMEDATALEN, 'c');
  }

  /** text, arrays and other variable-length types, int-aligned. */
  public static Attribute varlena(String name) {
    return new Attribute(name, VARLENA, 'i');
  }

  /** Variable-length types with double alignment (e.g. arrays of 8-byte types). */
  public static Attribute varlenaDouble(String name) {
    return new Attribute(name, VARLENA, 'd');
  }

  int alignment() {
    return alignment(align);
  }

  /** The bytes attalign {@code align} aligns a value to. */
  static int alignment(char align) {
    return switch (align) {
      case 'c' -> 1;
      case 's' -> 2;
      case 'i' -> 4;
      case 'd' -> 8;
      default -> throw new IllegalArgumentException("attalign " + align);
    };
  }
}
