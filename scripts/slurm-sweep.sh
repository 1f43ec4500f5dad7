#!/usr/bin/env bash
# Run a gamesweep config as a Slurm job array: array task i runs shard i/N of
# the plan (N = number of array tasks), all writing into one shared directory.
#
#   cargo build --release
#   sbatch --array=0-15 scripts/slurm-sweep.sh configs/thesis.toml /shared/gamesweep/thesis
#   # when all array tasks are done (or as a dependent job):
#   target/release/gamesweep verify /shared/gamesweep/thesis
#
# A failed or killed array task can simply be resubmitted: finished tasks are
# skipped. Without Slurm, set SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT
# by hand to run one shard.
#SBATCH --job-name=gamesweep
#SBATCH --cpus-per-task=2
#SBATCH --mem=8G
#SBATCH --time=08:00:00
#SBATCH --output=gamesweep-%A_%a.log
set -euo pipefail

config=${1:?usage: sbatch --array=0-<N-1> scripts/slurm-sweep.sh CONFIG OUTDIR}
out=${2:?usage: sbatch --array=0-<N-1> scripts/slurm-sweep.sh CONFIG OUTDIR}
id=${SLURM_ARRAY_TASK_ID:?not in a Slurm job array (submit with sbatch --array=0-<N-1>)}
count=${SLURM_ARRAY_TASK_COUNT:?SLURM_ARRAY_TASK_COUNT is not set}
first=${SLURM_ARRAY_TASK_MIN:-0}
bin=${GAMESWEEP_BIN:-${CARGO_TARGET_DIR:-target}/release/gamesweep}

exec "$bin" run "$config" --out "$out" --shard "$((id - first))/$count" --jobs "${SLURM_CPUS_PER_TASK:-1}"
