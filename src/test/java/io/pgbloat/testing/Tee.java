package io.pgbloat.testing;

import java.io.IOException;
import java.io.OutputStream;

/** Copies what the tool writes to its error stream into a buffer and onto the console. */
public final class Tee extends OutputStream {
  private final OutputStream first;
  private final OutputStream second;

  public Tee(OutputStream first, OutputStream second) {
    this.first = first;
    this.second = second;
  }

  @Override
  public void write(int b) throws IOException {
    first.write(b);
    second.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    first.write(b, off, len);
    second.write(b, off, len);
  }

  @Override
  public void flush() throws IOException {
    first.flush();
    second.flush();
  }

  @Override
  public void close() throws IOException {
    first.close(); // never close System.err
  }
}
