#!/usr/bin/env bash
# Which resource a command saturates: runs it and, while it runs, reads /proc/stat and
# /proc/diskstats every 0.1 s. Prints one line: wall seconds, each core's busy share (user +
# system + irq; iowait and the hypervisor's steal apart), the device's busy share, its mean queue depth (requests in
# flight: the weighted I/O time over the wall time, as iostat's aqu-sz), the most requests seen
# in flight at once, the mean read size and MB/s read from the device.
#
# usage: bench/watch-device.sh DEVICE COMMAND [ARG...]     e.g. bench/watch-device.sh vda cat big >/dev/null
# environment: WATCH_SERIES=FILE also writes every 0.1 s interval's line to FILE (to find a
#   phase of the run, e.g. its scan stage, in the whole)
# output: the command's own output, then the line on standard error
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2; }
DEV=$1
shift
grep -q " $DEV " /proc/diskstats || { echo "watch-device: no device $DEV in /proc/diskstats" >&2; exit 2; }

# diskstats after the name: reads, merged, sectors read, ms reading, writes, merged, sectors
# written, ms writing, in flight, ms busy, weighted ms (Documentation/admin-guide/iostats.rst)
disk() { awk -v d="$DEV" '$3 == d { print $4, $6, $12, $13, $14 }' /proc/diskstats; }
cpus() { awk '/^cpu[0-9]/ { printf "%s %d %d %d ", $1, $2 + $3 + $4 + $7 + $8, $6, $9 }' /proc/stat; }
now_ms() { date +%s%3N; }


# One line from two readings: "T D C" each (milliseconds, disk(), cpus()), label first.
report() {
  awk -v label="$1" -v dev="$DEV" -v peak="$4" -v r0="$2" -v r1="$3" '
  BEGIN {
    split(r0, a, "|"); split(r1, b, "|"); ms = b[1] - a[1]
    split(a[2], d0, " "); split(b[2], d1, " "); n = split(a[3], x, " "); split(b[3], y, " ")
    reads = d1[1] - d0[1]; sectors = d1[2] - d0[2]; cores = ""
    # USER_HZ is 100: a jiffy is 10 ms
    for (i = 1; i <= n; i += 4) cores = cores sprintf(" %s %.0f%% (iowait %.0f%%, steal %.0f%%)", x[i], (y[i+1] - x[i+1]) * 1000 / ms, (y[i+2] - x[i+2]) * 1000 / ms, (y[i+3] - x[i+3]) * 1000 / ms)
    printf "%s%.2f s;%s; %s busy %.0f%%, queue %.1f mean, %d peak; %.0f kB a read; %.0f MB/s\n",
      label, ms / 1000, cores, dev, (d1[4] - d0[4]) * 100 / ms, (d1[5] - d0[5]) / ms, peak,
      (reads > 0 ? sectors / 2 / reads : 0), sectors * 512 / 1e6 / (ms / 1000)
  }'
}
reading() { echo "$(now_ms)|$(disk)|$(cpus)"; }

first=$(reading)
"$@" &
pid=$!
peak=0
previous=$first
[[ -z ${WATCH_SERIES:-} ]] || : > "$WATCH_SERIES"
while kill -0 "$pid" 2>/dev/null; do
  sleep 0.1
  current=$(reading)
  IFS='|' read -r ms stats _ <<< "$current"
  read -r _ _ inflight _ _ <<< "$stats"
  (( inflight > peak )) && peak=$inflight
  [[ -z ${WATCH_SERIES:-} ]] || report "+$(( ms - ${first%%|*} )) ms " "$previous" "$current" "$inflight" >> "$WATCH_SERIES"
  previous=$current
done
status=0
wait "$pid" || status=$?
report "watch-device: " "$first" "$(reading)" "$peak" >&2
exit $status
