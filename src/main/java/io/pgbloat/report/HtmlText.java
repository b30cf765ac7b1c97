package io.pgbloat.report;

import java.util.Locale;

/**
 * Text for the HTML report, which is written as polyglot XHTML5 (well-formed XML that browsers
 * also read as HTML). Every string that comes from the data directory passes through
 * {@link #name}: a relation or database name can hold any character PostgreSQL allows, which
 * is every character but NUL, so it must neither break the markup nor hide itself.
 */
final class HtmlText {
  /** What a shortened label ends with. */
  private static final String ELLIPSIS = "…";
  /** ZERO WIDTH JOINER: a format character that emoji sequences need, so it stays as it is. */
  private static final int ZERO_WIDTH_JOINER = 0x200D;
  /** The C0 controls, U+0000 to U+001F, and the Control Pictures block that draws them (U+2400...). */
  private static final int C0_CONTROLS = 0x20;
  private static final int CONTROL_PICTURES = 0x2400;
  /** DEL and its picture, SYMBOL FOR DELETE. */
  private static final int DELETE = 0x7F;
  private static final int DELETE_PICTURE = 0x2421;
  /** MATHEMATICAL LEFT ANGLE BRACKET, which opens a ⟨U+XXXX⟩ escape. */
  private static final int ESCAPE_OPEN = 0x27E8;

  private HtmlText() {}

  /** A name for the page: non-printing characters made visible, then markup escaped. */
  static String name(String s) {
    return escape(visible(s));
  }

  /** A name shortened to at most {@code maxCodePoints} visible characters, then escaped. */
  static String shortName(String s, int maxCodePoints) {
    String v = visible(s);
    if (v.codePointCount(0, v.length()) <= maxCodePoints) {
      return escape(v);
    }
    return escape(v.substring(0, v.offsetByCodePoints(0, maxCodePoints - 1)) + ELLIPSIS);
  }

  /**
   * The five characters with a meaning in markup as references, so the result is safe both
   * in element text and in a quoted attribute value, in HTML and in XML alike.
   */
  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(ch);
      }
    }
    return b.toString();
  }

  /**
   * Characters that would not show, or that XML 1.0 forbids, made visible without changing any
   * printable one (a backslash stays a backslash): a C0 control as its Unicode control picture
   * (U+2400 + the code, so a newline shows as ␊, DEL as ␡), any other as ⟨U+XXXX⟩. A name's own
   * control pictures and ⟨ are written as ⟨U+XXXX⟩ too, so no name can pass for another. Those are
   * C1 controls, format characters such as the bidirectional overrides that could make one name
   * look like another (all but the zero width joiner), line and paragraph separators, the
   * non-characters U+FFFE and U+FFFF, and lone surrogates, which no encoding can write.
   */
  static String visible(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (cp < C0_CONTROLS) {
        b.appendCodePoint(CONTROL_PICTURES + cp);
      } else if (cp == DELETE) {
        b.appendCodePoint(DELETE_PICTURE);
      } else if (hidden(cp) || (cp >= CONTROL_PICTURES && cp <= DELETE_PICTURE) || cp == ESCAPE_OPEN) {
        b.append(String.format(Locale.ROOT, "⟨U+%04X⟩", cp));
      } else {
        b.appendCodePoint(cp);
      }
      i += Character.charCount(cp);
    }
    return b.toString();
  }

  private static boolean hidden(int cp) {
    int type = Character.getType(cp);
    return Character.isISOControl(cp)
        || (type == Character.FORMAT && cp != ZERO_WIDTH_JOINER)
        || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR
        || type == Character.SURROGATE // only a lone one: codePointAt joins a proper pair
        || cp == 0xFFFE
        || cp == 0xFFFF;
  }
}
