package io.pgbloat.page;

import java.io.Serializable;

/**
 * pgstathashindex's four page counts of a hash index as its metapage and bitmap pages tell
 * them, with no other page read ({@code src/include/access/hash.h}, {@code hashpage.c},
 * {@code hashovfl.c}, the same 13-18): buckets 0 to hashm_maxbucket each have a primary page;
 * hashm_spares[hashm_ovflpoint] counts every page allocated past the buckets, bitmap pages
 * included (_hash_init_metabuffer counts the first), each with a bit in the bitmaps, set while
 * in use (a new bitmap page is all ones, _hash_initbitmapbuffer) and cleared when
 * _hash_freeovflpage frees the page; every other block is a bucket page of a split point not
 * yet used or a freed overflow page: unused.
 *
 * @param bucketPages hashm_maxbucket + 1
 * @param overflowPages the pages past the buckets in use, the bitmap pages not among them
 * @param bitmapPages hashm_nmaps
 * @param unusedPages the rest of the blocks after the metapage
 */
public record HashPageCounts(long bucketPages, long overflowPages, long bitmapPages, long unusedPages)
    implements Serializable {

  /**
   * The counts of an index of {@code blocks} blocks whose metapage is {@code meta}, its bitmap
   * pages holding {@code freeBits} cleared bits; null where they do not add up (a metapage
   * older or newer than the pages it counts, or damage).
   */
  public static HashPageCounts of(byte[] meta, long freeBits, long blocks) {
    long buckets = HashPage.maxBucket(meta) + 1;
    long allocated = HashPage.overflowSpacePages(meta);
    long bitmaps = HashPage.bitmapBlocks(meta).length;
    long overflow = allocated - bitmaps - freeBits;
    long unused = blocks - 1 - buckets - overflow - bitmaps;
    return allocated < 0 || bitmaps == 0 || overflow < 0 || unused < 0 ? null
        : new HashPageCounts(buckets, overflow, bitmaps, unused);
  }
}
