package io.pgbloat.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.pgbloat.testing.SampleData;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Real pages written by PostgreSQL 15, decoded here and compared with what pageinspect said of
 * the same pages: header fields, the checksum, and line pointers by kind.
 */
class SamplePagesTest {
  private final Map<String, String> relpaths = SampleData.pgstattuple().stream()
      .filter(r -> r.get("database").equals("shop") && r.get("schema").equals("public"))
      .collect(Collectors.toMap(r -> r.get("relname"), r -> r.get("relpath")));

  @Test
  void headersChecksumsAndLinePointersEqualPageinspect() throws IOException {
    List<Map<String, String>> pages = SampleData.pages();
    assertFalse(pages.isEmpty());
    HeapPage heapPage = new HeapPage(new PageRules(true, FreeSpaceRule.ROOM_FOR_A_TUPLE), (xmin, xmax, infomask, xvac) -> true);
    int redirects = 0;
    int unused = 0;
    for (Map<String, String> want : pages) {
      long block = Long.parseLong(want.get("block"));
      byte[] page = read(relpaths.get(want.get("relname")), block);
      String where = want.get("relname") + " block " + block;
      assertEquals(Integer.parseInt(want.get("lower")), PageHeader.lower(page), where);
      assertEquals(Integer.parseInt(want.get("upper")), PageHeader.upper(page), where);
      assertEquals(Integer.parseInt(want.get("special")), PageHeader.special(page), where);
      assertEquals(Integer.parseInt(want.get("flags")), PageHeader.flags(page), where);
      int checksum = Short.toUnsignedInt(Short.parseShort(want.get("checksum")));
      assertEquals(checksum, PageHeader.checksum(page), where);
      assertEquals(checksum, PageChecksum.compute(page, block), where);

      HeapPageStats stats = heapPage.count(page, block);
      assertNull(stats.problem(), where);
      assertEquals(Integer.parseInt(want.get("lp_unused")), stats.lpUnused(), where);
      assertEquals(Integer.parseInt(want.get("lp_normal")), stats.lpNormal(), where);
      assertEquals(Integer.parseInt(want.get("lp_redirect")), stats.lpRedirect(), where);
      assertEquals(Integer.parseInt(want.get("lp_dead")), stats.lpDead(), where);
      redirects += stats.lpRedirect();
      unused += stats.lpUnused();
    }
    // the sample has HOT chains (events) and vacuumed slots (customers): both kinds were seen
    assertFalse(redirects == 0 || unused == 0, "redirects " + redirects + ", unused " + unused);
  }

  @Test
  void checksumDependsOnBlockNumber() throws IOException {
    byte[] page = read(relpaths.get("orders"), 0);
    int atZero = PageChecksum.compute(page, 0);
    assertEquals(PageHeader.checksum(page), atZero);
    assertFalse(atZero == PageChecksum.compute(page, 1), "a page moved to another block must fail its checksum");
    assertEquals("checksum mismatch: page has " + atZero + ", computed " + PageChecksum.compute(page, 1),
        new PageVerifier(true).check(page, 1));
  }

  private static byte[] read(String relpath, long block) throws IOException {
    byte[] page = new byte[PageHeader.BLCKSZ];
    try (RandomAccessFile file = new RandomAccessFile(SampleData.dataDir().resolve(relpath).toFile(), "r")) {
      file.seek(block * PageHeader.BLCKSZ);
      file.readFully(page);
    }
    return page;
  }
}
