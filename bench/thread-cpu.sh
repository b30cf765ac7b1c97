#!/usr/bin/env bash
# Which thread a run of the tool keeps busy: runs COMMAND (a submit.sh run, one JVM) and reads
# the JVM's threads' CPU time (/proc/PID/task/*/stat, user + system) every 0.2 s until it ends.
# Prints, on standard error, the wall seconds (the JVM's start included) and each thread's CPU
# seconds, threads of one name summed (the JIT's compilers as C1 and C2, the garbage collector's
# as GC), the busiest first, each also as a share of the wall time; of the busiest JVM, when the
# command ran more than one (a build by submit.sh first). Exits with the command's status. A
# thread whose CPU time is its run's wall time is the run's limit; against a goal, the CPU time
# a thread needs is the least wall time the run can take.
#
# usage: bench/thread-cpu.sh COMMAND [ARG...]   e.g. bench/thread-cpu.sh ./submit.sh analyze --data-dir B --full-scan
# output: the command's own output, then the lines on standard error
set -euo pipefail
[[ $# -ge 1 ]] || { sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2; }
exec python3 - "$@" <<'PY'
import collections, os, subprocess, sys, time
start = time.time()
command = subprocess.Popen(sys.argv[1:])
pid = str(command.pid)
hz = os.sysconf('SC_CLK_TCK')
last = {}  # (JVM, task id) -> (name, ticks): the last reading of each thread, kept after it ends

def java_of(pid):
    """The JVM: the command itself, or the one it execs or starts."""
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            if open(f'/proc/{p}/comm').read().strip() == 'java':
                return p
            for t in os.listdir(f'/proc/{p}/task'):
                todo += open(f'/proc/{p}/task/{t}/children').read().split()
        except OSError:
            pass
    return None

def group(name):
    for prefix, label in (('C1 ', 'C1'), ('C2 ', 'C2'), ('GC ', 'GC'), ('G1 ', 'GC')):
        if name.startswith(prefix):
            return label
    return name

while True:
    java = java_of(pid)
    if java:
        try:
            for t in os.listdir(f'/proc/{java}/task'):
                try:
                    s = open(f'/proc/{java}/task/{t}/stat').read()
                except OSError:
                    continue
                name = s[s.index('(') + 1:s.rindex(')')]
                f = s[s.rindex(')') + 2:].split()
                last[(java, t)] = (name, int(f[11]) + int(f[12]))
        except OSError:
            pass
    if command.poll() is not None:
        break
    time.sleep(0.2)
wall = time.time() - start
by_jvm = collections.defaultdict(collections.Counter)
for (jvm, _), (name, ticks) in last.items():
    by_jvm[jvm][group(name)] += ticks / hz
totals = max(by_jvm.values(), key=lambda t: sum(t.values()), default=collections.Counter())
print(f"thread-cpu: {wall:.2f} s wall; CPU s by thread (share of the wall time), a thread's last reading up to 0.2 s before it ended:", file=sys.stderr)
for name, seconds in totals.most_common():
    if seconds >= 0.05:
        print(f"  {name:24s} {seconds:7.2f} s  {100 * seconds / wall:4.0f} %", file=sys.stderr)
print(f"  {'all':24s} {sum(totals.values()):7.2f} s  {100 * sum(totals.values()) / wall:4.0f} % (of {100 * os.cpu_count()} %)", file=sys.stderr)
if len(by_jvm) > 1:
    print(f"  ({len(by_jvm)} JVMs ran; the busiest shown)", file=sys.stderr)
sys.exit(command.returncode)
PY
