package io.pgbloat.io.codec;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A decoder that cannot be made closes its input: a thread reading it ahead must stop. */
class CompressionTest {
  @Test
  void aDecoderThatCannotBeMadeClosesItsInput() {
    for (Compression c : new Compression[] {Compression.GZIP, Compression.BZIP2}) {
      AtomicBoolean closed = new AtomicBoolean();
      InputStream garbage = new ByteArrayInputStream("not a header of any codec".getBytes()) {
        @Override
        public void close() {
          closed.set(true);
        }
      };
      assertThrows(IOException.class, () -> c.decoder(garbage), c.name());
      assertTrue(closed.get(), c + "'s input was left open");
    }
  }
}
