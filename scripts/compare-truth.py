#!/usr/bin/env python3
"""Compares a pgbloat CSV report with a ground-truth truth.csv (pgstattuple of every table)
and relations.csv (pg_relation_filepath). Prints each mismatch; exit 1 if any.

usage: compare-truth.py TRUTH_DIR REPORT_CSV
"""
import csv
import sys

FIELDS = ["table_len", "tuple_count", "tuple_len", "tuple_percent", "dead_tuple_count",
          "dead_tuple_len", "dead_tuple_percent", "free_space", "free_percent"]


def main(truth_dir, report_csv):
    with open(f"{truth_dir}/truth.csv", newline="") as f:
        truth = list(csv.DictReader(f))
    with open(f"{truth_dir}/relations.csv", newline="") as f:
        paths = {(r["database"], r["schema"], r["relname"]): r["filepath"] for r in csv.DictReader(f)}
    with open(report_csv, newline="") as f:
        report = {(r["database"], r["schema"], r["relname"]): r for r in csv.DictReader(f)}
    bad = 0
    for t in truth:
        key = (t["database"], t["schema"], t["relname"])
        r = report.get(key)
        if r is None:
            print(f"missing from report: {key}")
            bad += 1
            continue
        for field in FIELDS:
            if float(t[field]) != float(r[field]):
                print(f"{key} {field}: truth {t[field]} report {r[field]}")
                bad += 1
        if key in paths and paths[key] != r["relpath"]:
            print(f"{key} relpath: truth {paths[key]} report {r['relpath']}")
            bad += 1
        if r["bad_pages"] != "0":
            print(f"{key} bad_pages {r['bad_pages']}")
            bad += 1
    print(f"{len(truth)} relations compared, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
