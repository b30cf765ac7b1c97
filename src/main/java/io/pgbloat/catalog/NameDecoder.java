package io.pgbloat.catalog;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Decodes the names of one database's catalogs, which the server stores in that database's
 * encoding ({@code pg_database.encoding}, an {@code enum pg_enc} value of
 * {@code src/include/mb/pg_wchar.h}, the same numbers 13-18). Bytes that are not valid in
 * that encoding, or an encoding with no Java charset here, are shown as {@code \xNN} escapes
 * rather than guessed.
 */
final class NameDecoder {
  /** The server encodings (pg_enc below PG_ENCODING_BE_LAST) and their Java charset names. */
  private static final Map<Integer, String> CHARSETS = Map.ofEntries(
      Map.entry(1, "EUC-JP"),          // PG_EUC_JP
      Map.entry(2, "GB2312"),          // PG_EUC_CN
      Map.entry(3, "EUC-KR"),          // PG_EUC_KR
      Map.entry(4, "x-EUC-TW"),        // PG_EUC_TW
      Map.entry(6, "UTF-8"),           // PG_UTF8
      Map.entry(8, "ISO-8859-1"),      // PG_LATIN1
      Map.entry(9, "ISO-8859-2"),      // PG_LATIN2
      Map.entry(10, "ISO-8859-3"),     // PG_LATIN3
      Map.entry(11, "ISO-8859-4"),     // PG_LATIN4
      Map.entry(12, "ISO-8859-9"),     // PG_LATIN5
      Map.entry(13, "ISO-8859-10"),    // PG_LATIN6
      Map.entry(14, "ISO-8859-13"),    // PG_LATIN7
      Map.entry(15, "ISO-8859-14"),    // PG_LATIN8
      Map.entry(16, "ISO-8859-15"),    // PG_LATIN9
      Map.entry(17, "ISO-8859-16"),    // PG_LATIN10
      Map.entry(18, "windows-1256"),   // PG_WIN1256
      Map.entry(19, "windows-1258"),   // PG_WIN1258
      Map.entry(20, "IBM866"),         // PG_WIN866
      Map.entry(21, "x-windows-874"),  // PG_WIN874
      Map.entry(22, "KOI8-R"),         // PG_KOI8R
      Map.entry(23, "windows-1251"),   // PG_WIN1251
      Map.entry(24, "windows-1252"),   // PG_WIN1252
      Map.entry(25, "ISO-8859-5"),     // PG_ISO_8859_5
      Map.entry(26, "ISO-8859-6"),     // PG_ISO_8859_6
      Map.entry(27, "ISO-8859-7"),     // PG_ISO_8859_7
      Map.entry(28, "ISO-8859-8"),     // PG_ISO_8859_8
      Map.entry(29, "windows-1250"),   // PG_WIN1250
      Map.entry(30, "windows-1253"),   // PG_WIN1253
      Map.entry(31, "windows-1254"),   // PG_WIN1254
      Map.entry(32, "windows-1255"),   // PG_WIN1255
      Map.entry(33, "windows-1257"),   // PG_WIN1257
      Map.entry(34, "KOI8-U"));        // PG_KOI8U
  // PG_SQL_ASCII (0) checks nothing: names are whatever bytes clients sent, most often UTF-8.
  // PG_EUC_JIS_2004 (5) and PG_MULE_INTERNAL (7) have no Java charset.
  private static final int PG_SQL_ASCII = 0;

  /** The decoder of names in the shared catalogs, written by sessions of any database. */
  static final NameDecoder SHARED = new NameDecoder(StandardCharsets.UTF_8);

  private final Charset charset;

  private NameDecoder(Charset charset) {
    this.charset = charset;
  }

  /** The decoder for a database of encoding {@code encoding}. */
  static NameDecoder forEncoding(int encoding) {
    if (encoding == PG_SQL_ASCII) {
      return SHARED;
    }
    String name = CHARSETS.get(encoding);
    if (name == null || !Charset.isSupported(name)) {
      return new NameDecoder(null);
    }
    return new NameDecoder(Charset.forName(name));
  }

  /** {@code bytes} as text: decoded, else ASCII with every other byte as {@code \xNN}. */
  String decode(byte[] bytes) {
    if (charset != null) {
      CharsetDecoder decoder = charset.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
      try {
        return decoder.decode(ByteBuffer.wrap(bytes)).toString();
      } catch (CharacterCodingException e) {
        // not valid in the encoding: escaped below
      }
    }
    StringBuilder text = new StringBuilder(bytes.length);
    for (byte b : bytes) {
      if (b >= 0x20 && b < 0x7F) {
        text.append((char) b);
      } else {
        text.append(String.format("\\x%02x", b & 0xFF));
      }
    }
    return text.toString();
  }
}
