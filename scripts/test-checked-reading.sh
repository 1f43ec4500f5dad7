#!/usr/bin/env bash
# The checked-rows rule (docs/tables.md#checked-rows) end to end: a tiny run
# damaged in every way the rule names (python/tests/test_gamesweep_data.py
# builds it), read by the Python package python/gamesweep_data; then the
# tasks it leaves out, one "game/task: reason" line each, for comparison with
# the Rust side. Needs the release binary (GAMESWEEP_BIN, else
# $CARGO_TARGET_DIR/release/gamesweep, else target/release/gamesweep) and polars.
#   scripts/test-checked-reading.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export GAMESWEEP_BIN=$(realpath -m "${GAMESWEEP_BIN:-${CARGO_TARGET_DIR:-target}/release/gamesweep}")
[ -x "$GAMESWEEP_BIN" ] || { echo "error: $GAMESWEEP_BIN: no gamesweep binary (cargo build --release)" >&2; exit 2; }
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run=$work/run   # the damaged directory, kept for the comparisons below

# The kind of each reason, details cut: "game/task: damaged part: PATH", "game/task: never verified", ...
kinds() {
  sed -E 's/^([^ ]+: (damaged marker|failed by verify)): .*/\1/; s/^([^ ]+: damaged part: [^:]+): .*/\1/' | sort
}

# 1. Python: read() leaves out exactly the unchecked tasks, with their reasons, and warns.
GAMESWEEP_CHECKED_DIR=$run python3 -m unittest discover -s python/tests
python3 -m gamesweep_data "$run" >"$work/left-out.python.txt"
kinds <"$work/left-out.python.txt" >"$work/kinds.python.txt"
cat >"$work/kinds.expected.txt" <<'EOF'
nim/exhaustive-h3-max7: never verified
nim/halving-3_4_5: never verified
risk/battles-optimal-a5-d5: damaged part: risk/battle_policy/part-battles-optimal-a5-d5.parquet
turtles/length-3: failed by verify
turtles/length-4: damaged part: turtles/rows/part-length-4.parquet
turtles/length-5: damaged marker
turtles/length-6: never verified
turtles/length-7: no marker (unfinished, or being rewritten)
EOF
diff -u "$work/kinds.expected.txt" "$work/kinds.python.txt"

# 2. Rust (`gamesweep export`) on the same directory: without --leave-out it
#    writes nothing and names the tasks that are not checked (exit 1); with it,
#    it writes the checked rows and names the same tasks as left out. Both
#    lists, through kinds(), equal the Python reader's.
set +e
"$GAMESWEEP_BIN" export "$run" --out "$work/refused" 2>"$work/refused.err" >/dev/null
code=$?
set -e
[ "$code" = 1 ] || { echo "error: export of unchecked tasks exited $code, not 1" >&2; cat "$work/refused.err" >&2; exit 1; }
[ ! -e "$work/refused" ] || { echo "error: export wrote files although tasks are not checked" >&2; exit 1; }
sed -n 's/^  not checked: //p' "$work/refused.err" | kinds >"$work/kinds.refused.txt"
diff -u "$work/kinds.python.txt" "$work/kinds.refused.txt"
"$GAMESWEEP_BIN" export "$run" --out "$work/export" --leave-out 2>"$work/export.err" >/dev/null
sed -n 's/^  left out: //p' "$work/export.err" | kinds >"$work/kinds.rust.txt"
diff -u "$work/kinds.python.txt" "$work/kinds.rust.txt"
# The exported rows are the Python reader's, and fewer than a plain glob's.
GAMESWEEP_RUN=$run GAMESWEEP_EXPORT=$work/export python3 - <<'PY'
import os, warnings
import polars as pl
import gamesweep_data
run, export = os.environ["GAMESWEEP_RUN"], os.environ["GAMESWEEP_EXPORT"]
for table in ["turtles/rows", "risk/battles"]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        checked = gamesweep_data.read(run, table)
    exported = pl.read_parquet(f"{export}/{table}.parquet")
    everything = pl.read_parquet(f"{run}/{table}/*.parquet")
    assert exported.sort(exported.columns).equals(checked.sort(checked.columns)), table
    assert len(everything) > len(exported), f"{table}: the glob sees the unchecked rows too"
    meta = pl.read_parquet_metadata(f"{export}/{table}.parquet")
    assert meta["gamesweep.left_out"] != "[]" and meta["gamesweep.commit"], table
PY

echo "checked reading: the $(wc -l <"$work/kinds.python.txt") tasks left out as expected, with their reasons"
