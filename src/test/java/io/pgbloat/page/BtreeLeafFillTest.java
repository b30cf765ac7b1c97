package io.pgbloat.page;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BtreeLeafFillTest {

  private static int room(int fillfactor, int size, int count, int postingBytes) {
    BtreeLeafFill.Items items = new BtreeLeafFill.Items();
    items.add(size, count, postingBytes);
    return new BtreeLeafFill(fillfactor).room(items);
  }

  @Test
  void aLeafKeepsTheItemsThatFitTheRoomTheTargetLeaves() {
    assertEquals(8144, BtreeLeafFill.NEW_PAGE_FREE);
    // fillfactor 90: 8144 - 819 = 7325 bytes, 366 items of 16 + 4
    assertEquals(BtreePage.MAX_AVAIL, room(90, 16, 366, 0));
    assertEquals(2 * BtreePage.MAX_AVAIL, room(90, 16, 732, 0));
    // fillfactor 13: 8144 - 7127 = 1017 bytes, 6 items of 152 + 4 (the high key lies beyond them)
    assertEquals(BtreePage.MAX_AVAIL, room(13, 152, 6, 0));
    assertEquals(Math.round(BtreePage.MAX_AVAIL / 2.0), room(13, 152, 3, 0));
  }

  @Test
  void theLastItemsPostingListDoesNotCountAgainstTheTarget() {
    // posting tuples of 808 bytes (792 of them TIDs): 9 a leaf at fillfactor 90
    assertEquals(BtreePage.MAX_AVAIL, room(90, 808, 9, 792));
    // at fillfactor 13 the posting list of the last of two lets a third in: two kept, the third moved on
    assertEquals(BtreePage.MAX_AVAIL, room(13, 808, 2, 792));
    // plain tuples of 808 bytes: a page closes on its second, which moves on: one a leaf
    assertEquals(BtreePage.MAX_AVAIL, room(13, 808, 1, 0));
    // at fillfactor 10 posting tuples too: 6520 + 792 bytes is under the target 7372
    assertEquals(BtreePage.MAX_AVAIL, room(10, 808, 1, 792));
  }

  @Test
  void aPageOfNoItemsTakesNoRoom() {
    assertEquals(0, room(90, 16, 0, 0));
  }
}
