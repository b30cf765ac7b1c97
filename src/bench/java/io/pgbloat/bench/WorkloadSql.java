package io.pgbloat.bench;

import io.pgbloat.testing.workload.WorkloadPlan;

/** Prints a generated workload's script: {@code WorkloadSql S} prints seed S's, as a server runs it. */
public final class WorkloadSql {
  private WorkloadSql() {
  }

  public static void main(String[] args) {
    if (args.length != 1) {
      System.err.println("usage: WorkloadSql SEED");
      System.exit(2);
    }
    System.out.print(WorkloadPlan.draw(Long.parseLong(args[0])).sql());
  }
}
