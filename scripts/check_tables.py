"""Reads every table of a gamesweep output directory with polars, the way a
notebook would, and checks that none is empty (but those in MAY_BE_EMPTY) and
nothing failed verification.

Usage: python3 scripts/check_tables.py DIR
"""

import sys
from pathlib import Path

import polars as pl

# Tables that are empty in a correct run, and why.
MAY_BE_EMPTY = {
    # The trees the claims' proofs cut with: none when every optimal face with
    # a claim to decide is a point or needs no tree as a cut (configs/quick.toml
    # since the widening pins the hulls, 2026-11-27).
    "face_trees",
}


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
        if df.height == 0 and table.name not in MAY_BE_EMPTY:
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
