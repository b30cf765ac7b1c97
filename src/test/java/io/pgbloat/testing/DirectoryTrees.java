package io.pgbloat.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Recursive copy and delete of directory trees that may contain symbolic links. */
public final class DirectoryTrees {

  private DirectoryTrees() {
  }

  /**
   * Copies the tree at {@code source} to {@code target} (which must not exist yet), never
   * following links while walking, so the copy is made by and belongs to the JVM's user.
   *
   * <p>Symbolic links that point inside {@code source} are recreated so that they point to the
   * same place inside the copy. A link that points outside it (a tablespace: PostgreSQL writes
   * {@code pg_tblspc/<oid>} as an absolute link to the LOCATION) would otherwise tie the copy
   * to the live cluster's files, so its target tree is copied too, into
   * {@code <target>_links/<link name>}, and the copied link points there with a relative path.
   */
  public static void copy(Path source, Path target) {
    Path from = source.toAbsolutePath().normalize();
    Path to = target.toAbsolutePath().normalize();
    if (Files.exists(to, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      throw new IllegalArgumentException("copy target already exists: " + to);
    }
    Path outsideHome = to.resolveSibling(to.getFileName() + "_links");
    try {
      Files.walkFileTree(from, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
          Files.createDirectories(to.resolve(from.relativize(dir).toString()));
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Path dest = to.resolve(from.relativize(file).toString());
          if (attrs.isSymbolicLink()) {
            copyLink(file, dest, from, to, outsideHome);
          } else if (attrs.isRegularFile()) {
            Files.copy(file, dest);
          }
          // sockets, fifos and devices have no place in a data directory copy
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
    }
  }

  private static void copyLink(Path link, Path dest, Path from, Path to, Path outsideHome) throws IOException {
    Path text = Files.readSymbolicLink(link);
    Path pointsTo = link.getParent().resolve(text).normalize();
    Path newTarget;
    if (pointsTo.startsWith(from)) {
      newTarget = to.resolve(from.relativize(pointsTo).toString());
    } else {
      newTarget = outsideHome.resolve(link.getFileName().toString());
      copy(pointsTo.toRealPath(), newTarget);
    }
    Files.createDirectories(dest.getParent());
    Files.createSymbolicLink(dest, dest.getParent().relativize(newTarget));
  }

  /** Deletes the tree at {@code root}, removing links themselves rather than what they point to. */
  public static void delete(Path root) {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
          if (e instanceof NoSuchFileException) {
            return FileVisitResult.CONTINUE;
          }
          throw e;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
          if (e != null && !(e instanceof NoSuchFileException)) {
            throw e;
          }
          Files.deleteIfExists(dir);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
    }
  }
}
