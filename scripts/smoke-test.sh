#!/usr/bin/env bash
# End-to-end smoke test of the main job, as a user would run it: the quick
# config in two shards through the Slurm script, a claim asked of it, then verify and report, then
# every table read back with polars and every notebook executed against the
# output. Called by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/gamesweep
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for k in 0 1; do
  SLURM_ARRAY_TASK_ID=$k GAMESWEEP_BIN=$bin scripts/slurm-sweep.sh configs/quick.toml "$out" 2
done
# A claim asked of the finished sweep (the config decides one of its own too).
"$bin" conjecture "$out" --name outer_keys 'a[1] >= 2/N and a[N] >= 2/N' --when 'N % 2 == 1'
"$bin" verify "$out"
"$bin" report "$out" >/dev/null
python3 scripts/check_tables.py "$out"
python3 scripts/verify_hl.py "$out" 100
scripts/run-notebooks.sh "$out"
