#!/usr/bin/env bash
# Makes sample/backups/tar-gzip, a real `pg_basebackup -Ft -z -X stream` of the shipped sample
# (sample/pgdata), and sample/backups/pgbackrest-zst, a real pgBackRest repository holding a
# full backup of it (compress-type=zst, repo-bundle, archive-copy), for the tests that read
# backups without starting a server (and on HDFS). The sample has no pg_wal, so a copy of it gets new WAL from pg_resetwal before
# a PostgreSQL 15 server starts on it; the relation files are the sample's, unchanged.
#
# usage: sample/backups/make-backup-sample.sh     (needs PostgreSQL 15 server binaries, as root or postgres)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pgbloat-backup-sample.XXXXXX")
trap 'rc=$?; as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -m immediate -w stop >/dev/null 2>&1 || true; [[ $rc -ne 0 && -f $WORK/log ]] && tail -5 "$WORK/log" >&2; rm -rf "$WORK"' EXIT
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
PORT=$((20000 + RANDOM % 20000))
cp -r "$HERE/../pgdata" "$WORK/data"
# the directories make-sample.sh leaves out, which a server needs to start
for d in pg_wal/archive_status pg_notify pg_replslot pg_serial pg_snapshots pg_stat pg_stat_tmp pg_subtrans \
    pg_tblspc pg_commit_ts pg_dynshmem pg_logical/snapshots pg_logical/mappings pg_twophase pg_multixact/offsets \
    pg_multixact/members pg_xact; do
  mkdir -p "$WORK/data/$d"
done
chmod 700 "$WORK/data"
printf 'local all all trust\nlocal replication all trust\n' > "$WORK/data/pg_hba.conf"
touch "$WORK/data/pg_ident.conf"
[[ $(id -u) -eq 0 ]] && chown -R postgres: "$WORK"
as_pg "$PG_BIN/pg_resetwal" -f "$WORK/data" >/dev/null
cat >> "$WORK/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$WORK'
port = $PORT
wal_level = replica
max_wal_senders = 2
archive_mode = on
archive_command = 'pgbackrest --config=$WORK/pgbackrest.conf --stanza=sample archive-push %p'
autovacuum = off
max_prepared_transactions = 4
CONF
cat > "$WORK/pgbackrest.conf" <<CONF
[global]
repo1-path=$WORK/repo
compress-type=zst
repo1-bundle=y
repo1-retention-full=1
start-fast=y
archive-copy=y
log-level-console=warn
log-level-file=off
lock-path=$WORK
[sample]
pg1-path=$WORK/data
pg1-socket-path=$WORK
pg1-port=$PORT
CONF
mkdir -p "$WORK/repo"
[[ $(id -u) -eq 0 ]] && chown -R postgres: "$WORK"
as_pg "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/log" -w start >/dev/null
rm -rf "$HERE/tar-gzip"
as_pg "$PG_BIN/pg_basebackup" -h "$WORK" -p "$PORT" -U postgres -D "$WORK/tar-gzip" -Ft -z -X stream --checkpoint=fast
cp -r "$WORK/tar-gzip" "$HERE/tar-gzip"
rm -f "$HERE/tar-gzip/backup_manifest" # not read; 100 kB
as_pg pgbackrest --config="$WORK/pgbackrest.conf" --stanza=sample stanza-create
as_pg pgbackrest --config="$WORK/pgbackrest.conf" --stanza=sample backup --type=full
rm -rf "$HERE/pgbackrest-zst" "$WORK/repo/archive" # the backup holds its own WAL (archive-copy)
cp -r "$WORK/repo" "$HERE/pgbackrest-zst"
rm -rf "$HERE/pgbackrest-zst/backup/sample/latest" "$HERE/pgbackrest-zst/backup/sample/backup.history"
du -sh "$HERE/tar-gzip" "$HERE/pgbackrest-zst"
