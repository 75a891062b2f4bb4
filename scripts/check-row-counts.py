#!/usr/bin/env python3
"""Acceptance check for View 5: every CSV of a tables folder has a SQL table in <index>/tables.sqlite
whose row count equals the CSV's data rows (header excluded, blank lines skipped).

Deliberately independent of the TypeScript loader: Python's csv module counts the rows and the
sqlite3 module reads the index (read-only). Not part of `npm test` (it reads the shared data).

Usage: python3 scripts/check-row-counts.py TABLES_DIR INDEX_DIR
"""
import csv
import os
import sqlite3
import sys


def main(tables_dir: str, index_dir: str) -> int:
    csv.field_size_limit(sys.maxsize)
    db = sqlite3.connect(f"file:{os.path.join(index_dir, 'tables.sqlite')}?mode=ro", uri=True)
    mapping = dict(db.execute("SELECT table_id, physical FROM _tables"))
    checked, problems = 0, []
    for name in sorted(os.listdir(tables_dir)):
        if not name.endswith(".csv"):
            continue
        table_id = name[:-4]
        with open(os.path.join(tables_dir, name), newline="", encoding="utf-8-sig") as f:
            rows = [r for r in csv.reader(f) if r]
        expected = max(0, len(rows) - 1)
        physical = mapping.get(table_id)
        if physical is None:
            problems.append(f"{name}: no SQL table for id {table_id}")
            continue
        actual = db.execute(f'SELECT COUNT(*) FROM "{physical}"').fetchone()[0]
        recorded = db.execute("SELECT row_count FROM _tables WHERE table_id = ?", (table_id,)).fetchone()[0]
        if actual != expected or recorded != expected:
            problems.append(f"{name}: CSV has {expected} rows, SQL table {physical} has {actual} (recorded {recorded})")
        checked += 1
    for p in problems:
        print(p)
    print(f"{checked} CSV tables checked, {len(problems)} mismatches")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
