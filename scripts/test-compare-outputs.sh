#!/usr/bin/env bash
# Test of scripts/compare_outputs.py: a tiny config (higher-lower N = 1..14 with a claim, a little
# Nim and turtles) run twice into two directories, each verified and reported. The two must
# compare equal although their timing columns differ; then differences planted in copies of the
# second (a value cell, a pivot count, a report cell, a missing part, a missing task) must each be
# caught, naming the table and column. Called by `make test`. Seconds.
# GAMESWEEP_BIN=path uses that binary instead of building this tree's.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${GAMESWEEP_BIN:-}" ]]; then
  cargo build --release --quiet
fi
bin=${GAMESWEEP_BIN:-${CARGO_TARGET_DIR:-target}/release/gamesweep}
compare=scripts/compare_outputs.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/tiny.toml" <<'EOF'
[higher_lower]
n = { from = 1, to = 14 }
methods = ["auto"]
chunk = 5

[[higher_lower.conjectures]]
name = "middle_dip"
statement = "a[N/2] < a[N/2-1] and a[N/2] < a[N/2+1]"
from = 6

[nim]
exhaustive = { heaps = 3, max_heap = 7 }
examples = [[3, 4, 5]]

[turtles]
lengths = { from = 1, to = 6 }
EOF

for side in a b; do
  for step in "run $tmp/tiny.toml --out" verify report; do
    # shellcheck disable=SC2086
    "$bin" $step "$tmp/$side" >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "test-compare-outputs: gamesweep $step failed"; exit 1; }
  done
done

fail() { echo "test-compare-outputs: FAILED: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }

# expect CODE DIR [PATTERN...]: compare a with DIR, check the exit code and that each pattern is printed.
expect() {
  local code=$1 dir=$2 got=0
  shift 2
  python3 "$compare" "$tmp/a" "$dir" >"$tmp/out" 2>&1 || got=$?
  [[ $got == "$code" ]] || fail "a vs $(basename "$dir"): exit $got, expected $code"
  for pattern in "$@"; do
    grep -qF -- "$pattern" "$tmp/out" || fail "a vs $(basename "$dir"): no line with: $pattern"
  done
}

# plant DIR PYTHON: a copy of b named DIR, then the Python snippet run in it (polars as pl, glob).
plant() {
  rm -rf "$tmp/$1"
  cp -r "$tmp/b" "$tmp/$1"
  (cd "$tmp/$1" && python3 -c "import glob, json, os; import polars as pl
$2")
}

# 1. Two runs of the same config are equal: timing columns, times and checksums are ignored.
expect 0 "$tmp/b" "higher_lower/values: 14 rows equal (ignoring exact_seconds, face_seconds, solve_seconds)" \
  "higher_lower/verification:" "report/higher_lower/iterations:" ".tasks: " "manifest.json: equal" "compare_outputs: equal"
# ... whatever the timing values (set far apart here, so the test does not rely on the clock).
plant timing '
for table, col, value in (("higher_lower/values", "solve_seconds", 1e9), ("nim/verification", "verified_unix", 0),
                          ("higher_lower/verification", "seconds", 123.0)):
    for p in glob.glob(table + "/*.parquet"):
        pl.read_parquet(p).with_columns(pl.lit(value).cast(pl.read_parquet_schema(p)[col]).alias(col)).write_parquet(p)
m = json.load(open("manifest.json")); m["updated_unix"] = 1; m["tasks"][0]["seconds"] = 99.0
json.dump(m, open("manifest.json", "w"))'
expect 0 "$tmp/timing" "compare_outputs: equal"

# 2. One value cell and one pivot count changed: both tables and columns named.
plant cells '
p = "higher_lower/values/part-auto-n6-10.parquet"
df = pl.read_parquet(p)
df.with_columns(pl.when(pl.col("n") == 7).then(pl.lit("1/3")).otherwise(pl.col("value")).alias("value")).write_parquet(p)
p = sorted(glob.glob("higher_lower/trace/*.parquet"))[0]
df = pl.read_parquet(p)
df.with_columns(pl.when(pl.int_range(pl.len()) == 3).then(pl.col("pivots") + 1).otherwise(pl.col("pivots")).alias("pivots")).write_parquet(p)'
expect 1 "$tmp/cells" "higher_lower/values: DIFFERENT" "column value differs in 1 row:" "n=7 method=auto" \
  "higher_lower/trace: DIFFERENT" "column pivots differs in 1 row:"

# 3. A report cell changed.
plant report '
p = "report/higher_lower/iterations.parquet"
pl.read_parquet(p).with_columns(pl.col("rounds") + 1).write_parquet(p)'
expect 1 "$tmp/report" "report/higher_lower/iterations: DIFFERENT" "column rounds differs in 14 rows:"

# 4. A missing part (its rows too), and a missing task marker.
plant part 'os.remove(sorted(glob.glob("turtles/rows/*.parquet"))[2])'
expect 1 "$tmp/part" "turtles/rows: DIFFERENT" "part only in OLD: part-length-3.parquet" "8 rows only in OLD"
plant task 'os.remove(sorted(glob.glob(".tasks/nim/*.json"))[0])'
expect 1 "$tmp/task" ".tasks: DIFFERENT" "1 task only in OLD: nim/"

# 5. Row order does not matter.
plant order '
p = sorted(glob.glob("nim/positions/*.parquet"))[0]
pl.read_parquet(p).reverse().write_parquet(p)'
expect 0 "$tmp/order" "nim/positions:" "in another order"

echo "test-compare-outputs: ok (equal runs, timing ignored, planted cell, pivot, report, part and task differences caught)"
