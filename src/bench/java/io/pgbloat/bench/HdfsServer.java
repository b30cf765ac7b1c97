package io.pgbloat.bench;

import io.pgbloat.testing.HdfsCopies;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * An HDFS for the benchmarks, in a JVM of its own: a MiniDFSCluster (a real name node and data
 * nodes over local directories) holding copies of local trees. Prints its URI once the copies
 * are in, then serves until its standard input closes. Used by {@code bench/remote-stores.sh}.
 *
 * <p>usage: HdfsServer WORKDIR DATANODES NAME=LOCAL_TREE...  (each tree copied to /NAME)
 */
public final class HdfsServer {
  private HdfsServer() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    conf.setInt("dfs.replication", 1);
    conf.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 10);
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, Path.of(args[0]).toFile())
        .numDataNodes(Integer.parseInt(args[1])).build();
    try {
      dfs.waitActive();
      FileSystem fs = dfs.getFileSystem();
      for (int i = 2; i < args.length; i++) {
        String[] copy = args[i].split("=", 2);
        HdfsCopies.copyTree(fs, Path.of(copy[1]), new org.apache.hadoop.fs.Path("/" + copy[0]));
      }
      System.out.println("hdfs://127.0.0.1:" + dfs.getNameNodePort());
      System.out.flush();
      while (System.in.read() >= 0) {
        // serve until the script closes our input
      }
    } finally {
      dfs.shutdown();
    }
  }
}
