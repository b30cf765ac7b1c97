package io.pgbloat.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CsvTest {

  @Test
  void parsesQuotedFieldsWithCommasQuotesAndLineBreaks() {
    String text = "a,b,c\r\n1,\"x,y\",\"he said \"\"hi\"\"\"\n2,\"line1\nline2\",\n";
    assertEquals(List.of(
        List.of("a", "b", "c"),
        List.of("1", "x,y", "he said \"hi\""),
        List.of("2", "line1\nline2", "")), Csv.parse(text));
  }

  @Test
  void lastLineBreakIsOptionalAndEmptyFieldsSurvive() {
    assertEquals(List.of(List.of("a", ""), List.of("", "")), Csv.parse("a,\n,"));
    assertEquals(List.of(List.of("")), Csv.parse("\"\""));
    assertEquals(List.of(), Csv.parse(""));
  }

  @Test
  void headerRowsBecomeOrderedMaps() {
    List<Map<String, String>> rows = Csv.parseWithHeader("k,v\nx,1\ny,\"2,5\"\n\n");
    assertEquals(List.of(Map.of("k", "x", "v", "1"), Map.of("k", "y", "v", "2,5")), rows);
    assertEquals(List.of("k", "v"), List.copyOf(rows.get(0).keySet()));
    assertEquals(List.of("k", "v"), Csv.header("k,v\nx,1\n"));
  }

  @Test
  void rejectsMalformedInput() {
    assertThrows(IllegalArgumentException.class, () -> Csv.parse("a,\"open"));
    assertThrows(IllegalArgumentException.class, () -> Csv.parse("\"a\"b,c"));
    assertThrows(IllegalArgumentException.class, () -> Csv.parseWithHeader("a,b\n1,2,3\n"));
  }

  @Test
  void writtenLinesParseBack() {
    List<String> fields = List.of("plain", "with,comma", "with \"quote\"", "two\nlines", "");
    assertEquals(List.of(fields), Csv.parse(Csv.line(fields)));
  }
}
