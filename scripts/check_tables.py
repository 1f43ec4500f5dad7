"""Reads every table of a gamesweep output directory with polars, the way a
notebook would, and checks that none is empty and nothing failed verification.

Usage: python3 scripts/check_tables.py DIR
"""

import sys
from pathlib import Path

import polars as pl


def main(root: Path) -> None:
    # DIR/<game>/<table>/ holds the parts of one dataset; DIR/report/<game>/
    # holds the report's analyses, one file each.
    tables = sorted(
        p for p in root.glob("*/*") if p.is_dir() and p.parent.name != "report" and any(p.glob("*.parquet"))
    )
    if not tables:
        sys.exit(f"{root}: no tables")
    for table in tables:
        df = pl.read_parquet(table / "*.parquet")
        print(f"{table.relative_to(root)}: {df.height} rows, {df.width} columns")
        if df.height == 0:
            sys.exit(f"{table}: empty")
        if table.name == "verification":
            bad = df.filter(pl.col("status") == "failed")
            if bad.height:
                sys.exit(f"{table}: failed tasks:\n{bad}")
    for analysis in sorted(root.glob("report/*/*.parquet")):
        df = pl.read_parquet(analysis)
        print(f"{analysis.relative_to(root)}: {df.height} rows, {df.width} columns")
        if df.height == 0:
            sys.exit(f"{analysis}: empty")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
