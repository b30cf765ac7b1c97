package io.pgbloat.io.backup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A pgBackRest info file ({@code backup.info}, {@code backup.manifest}) as pgBackRest writes and
 * checks it (src/common/ini.c, src/info/info.c): {@code [section]} lines and {@code key=value}
 * lines whose values are JSON, closed by {@code [backrest] backrest-checksum}, the SHA-1 of the
 * whole content rendered as one JSON object ({@code {"section":{"key":value,...},...}}, the
 * checksum itself left out). A file whose checksum does not match is refused.
 */
public final class PgBackRestInfo {
  /** The section and key of the checksum, and the section and key of the repository format. */
  private static final String BACKREST = "backrest";
  private static final String CHECKSUM = "backrest-checksum";
  private static final String FORMAT = "backrest-format";
  /** REPOSITORY_FORMAT (src/version.h): the only one pgBackRest has written since 2.0. */
  private static final int REPOSITORY_FORMAT = 5;
  /** What an encrypted info file starts with (OpenSSL's salted format, src/common/crypto/cipherBlock.c). */
  private static final byte[] ENCRYPTED = "Salted__".getBytes(StandardCharsets.US_ASCII);

  /** A value must be one JSON value and nothing after it (ini.c's strict mode, jsonValidate). */
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final Map<String, Map<String, JsonNode>> sections;

  private PgBackRestInfo(Map<String, Map<String, JsonNode>> sections) {
    this.sections = sections;
  }

  /**
   * Parses and checks {@code bytes}, the file {@code name} (for messages).
   *
   * @throws ArchiveException for an encrypted file, a line that is not ini, a value that is not
   *     JSON, another repository format, or a checksum that does not match
   */
  public static PgBackRestInfo parse(String name, byte[] bytes) throws ArchiveException {
    if (startsWith(bytes, ENCRYPTED)) {
      throw new ArchiveException(name + " is encrypted (the repository's repo-cipher-type): encrypted "
          + "pgBackRest repositories are not read; give an unencrypted one");
    }
    Map<String, Map<String, JsonNode>> sections = new LinkedHashMap<>();
    StringBuilder rendered = new StringBuilder("{");
    String section = null;
    String lastRendered = null;
    String expected = null;
    int lineNumber = 0;
    // ISO-8859-1 keeps every byte as one char, so the rendering hashes the file's own bytes
    // whatever encoding its names are in (pgBackRest hashes bytes)
    for (String line : new String(bytes, StandardCharsets.ISO_8859_1).split("\n", -1)) {
      lineNumber++;
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("[") && line.endsWith("]")) {
        section = line.substring(1, line.length() - 1);
        sections.computeIfAbsent(section, s -> new LinkedHashMap<>());
        continue;
      }
      if (section == null) {
        throw new ArchiveException(name + " line " + lineNumber + ": a value outside any section: it is damaged");
      }
      KeyValue kv = keyValue(name, lineNumber, line);
      if (section.equals(BACKREST) && kv.key().equals(CHECKSUM)) {
        expected = kv.value().asText();
        continue;
      }
      if (!section.equals(lastRendered)) {
        rendered.append(lastRendered == null ? "" : "},").append('"').append(section).append("\":{");
        lastRendered = section;
      } else {
        rendered.append(',');
      }
      rendered.append(quoted(kv.key())).append(':').append(kv.text());
      sections.get(section).put(kv.key(), kv.value());
    }
    rendered.append("}}");
    if (expected == null) {
      throw new ArchiveException(name + " has no backrest-checksum: it is incomplete (an interrupted copy?)");
    }
    String actual = sha1(rendered.toString());
    if (!actual.equals(expected)) {
      throw new ArchiveException(name + ": its checksum is " + actual + " where it says " + expected
          + ": the file is damaged");
    }
    JsonNode format = sections.getOrDefault(BACKREST, Map.of()).get(FORMAT);
    if (format == null || format.asInt() != REPOSITORY_FORMAT) {
      throw new ArchiveException(name + ": repository format " + format + ", where pgBackRest 2 writes "
          + REPOSITORY_FORMAT);
    }
    return new PgBackRestInfo(sections);
  }

  /** The keys and values of {@code section}, in file order; empty when it is absent. */
  public Map<String, JsonNode> section(String section) {
    return sections.getOrDefault(section, Map.of());
  }

  /** One value, or null. */
  public JsonNode value(String section, String key) {
    return section(section).get(key);
  }

  /** A key, its value parsed, and the value's text as the file holds it (what the checksum covers). */
  private record KeyValue(String key, JsonNode value, String text) {}

  /**
   * A line split at the first '=' after which the rest is JSON: a key (a file's path) may hold
   * '=' itself, so ini.c's strict mode tries each in turn.
   */
  private static KeyValue keyValue(String name, int lineNumber, String line) throws ArchiveException {
    for (int eq = line.indexOf('='); eq > 0; eq = line.indexOf('=', eq + 1)) {
      String text = line.substring(eq + 1);
      try {
        return new KeyValue(line.substring(0, eq), JSON.readTree(text), text);
      } catch (JsonProcessingException e) {
        // not JSON after this '=': the key goes on
      }
    }
    throw new ArchiveException(name + " line " + lineNumber + ": not a key=JSON line: the file is damaged");
  }

  /**
   * A key as jsonWriteStr (src/common/type/json.c) writes it: only the quote, the backslash,
   * \n, \r, \t, \b and \f escaped.
   */
  private static String quoted(String key) {
    StringBuilder b = new StringBuilder(key.length() + 2).append('"');
    for (char ch : key.toCharArray()) {
      switch (ch) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        default -> b.append(ch);
      }
    }
    return b.append('"').toString();
  }

  private static String sha1(String text) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      return HexFormat.of().formatHex(sha1.digest(text.getBytes(StandardCharsets.ISO_8859_1)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-1", e);
    }
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

}
