#!/usr/bin/env bash
# Run a gamesweep config on Slurm as a job array: array task K runs shard K/S
# of the plan (`gamesweep run --shard K/S`), every shard writing into one
# shared output directory. Tested on a real single-node Slurm by
# scripts/test-slurm.sh (docs/resume-and-clusters.md, "Cluster (Slurm)").
#
# Submit from the login node (sizes the array and the memory from the plan,
# chains an optional verify job, prints the job ids):
#   scripts/slurm-sweep.sh submit CONFIG OUTDIR [--tasks S] [--mem MB] [--verify [--verify-mem MB]] [-- SBATCH-OPTIONS...]
# or submit the array by hand:
#   sbatch --array=0-15 scripts/slurm-sweep.sh CONFIG OUTDIR 16
#   sbatch --dependency=afterok:JOBID scripts/slurm-sweep.sh verify OUTDIR
# Resubmit a failed or cancelled index K alone; it runs exactly shard K/16,
# and finished tasks are skipped:
#   sbatch --array=K scripts/slurm-sweep.sh CONFIG OUTDIR 16
#
# The shard count S (third argument) is the array's total, given explicitly:
# Slurm's own task count is the size of one submission (1 for a resubmitted
# index), so taking it from there would make a resubmitted index run the
# whole remaining sweep.
#
# Logs go to OUTDIR/logs/ (unless sbatch is given --output). Without Slurm,
# set SLURM_ARRAY_TASK_ID by hand to run one shard (scripts/smoke-test.sh).
#SBATCH --job-name=gamesweep
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --time=08:00:00
#SBATCH --output=/dev/null
set -euo pipefail

usage() {
  cat >&2 <<'EOF'
usage: scripts/slurm-sweep.sh submit CONFIG OUTDIR [--tasks S] [--mem MB] [--verify [--verify-mem MB]] [-- SBATCH-OPTIONS...]
       sbatch --array=0-<S-1> scripts/slurm-sweep.sh CONFIG OUTDIR S
       sbatch [--dependency=afterok:JOBID] scripts/slurm-sweep.sh verify OUTDIR
EOF
  exit 2
}

# The repository: this script's parent, except under sbatch, which runs a
# spool copy of it from the submit directory (submit from the repository, or
# set GAMESWEEP_BIN; `submit` sets it for its jobs).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ -n ${SLURM_JOB_ID:-} ]] && here=${SLURM_SUBMIT_DIR:-$here}
bin=${GAMESWEEP_BIN:-${CARGO_TARGET_DIR:-$here/target}/release/gamesweep}

# Logs into OUTDIR/logs/ when Slurm was left to the script's --output=/dev/null.
log_to() {
  local out=$1 name=$2
  if [[ -n ${SLURM_JOB_ID:-} && $(readlink -f /proc/$$/fd/1) == /dev/null ]]; then
    mkdir -p "$out/logs"
    exec >>"$out/logs/$name.log" 2>&1
  fi
}

# Megabytes for sbatch --mem: each of the array task's workers may run the
# plan's hungriest task at once, plus the program itself.
memory_for() {
  local plan=$1 jobs=$2
  awk -v jobs="$jobs" 'NR > 1 && $5 > max { max = $5 } END { print jobs * max + 128 }' <<<"$plan"
}

submit() {
  local config=${1:-} out=${2:-}
  [[ -n $config && -n $out ]] || usage
  shift 2
  # verify re-derives every task exactly with all its workers at once: make
  # thesis peaked at 2.6 GB on 2 cores, so it gets its own default.
  local tasks='' mem='' verify=false verify_mem=4096 cpus=2
  while (($#)); do
    case $1 in
      --tasks) tasks=${2:?--tasks needs a number}; shift 2 ;;
      --mem) mem=${2:?--mem needs megabytes}; shift 2 ;;
      --verify) verify=true; shift ;;
      --verify-mem) verify_mem=${2:?--verify-mem needs megabytes}; shift 2 ;;
      --) shift; break ;;
      *) echo "slurm-sweep.sh: unknown option $1" >&2; usage ;;
    esac
  done
  local extra=("$@")
  for opt in "${extra[@]}"; do
    [[ $opt == --cpus-per-task=* ]] && cpus=${opt#*=}
  done
  local plan planned
  plan=$("$bin" plan "$config")
  planned=$(($(wc -l <<<"$plan") - 1))
  # One array task per plan task at most: more would be harmless but idle.
  tasks=${tasks:-$((planned < 16 ? planned : 16))}
  mem=${mem:-$(memory_for "$plan" "$cpus")}
  export GAMESWEEP_BIN=$bin
  mkdir -p "$out/logs"
  local job
  job=$(sbatch --parsable --array="0-$((tasks - 1))" --mem="${mem}M" --output="$out/logs/gamesweep-%A_%a.log" \
    "${extra[@]}" "$here/scripts/slurm-sweep.sh" "$config" "$out" "$tasks")
  echo "submitted job array $job: $planned tasks of $config in $tasks shards, ${mem} MB per array task, logs in $out/logs/"
  echo "resubmit index K alone with: sbatch --array=K scripts/slurm-sweep.sh $config $out $tasks"
  if $verify; then
    local check
    check=$(sbatch --parsable --dependency="afterok:${job%%;*}" --mem="${verify_mem}M" --output="$out/logs/verify-%j.log" \
      "$here/scripts/slurm-sweep.sh" verify "$out")
    echo "submitted verify job $check, ${verify_mem} MB (runs once every array task has succeeded)"
  fi
}

case ${1:-} in
  submit) shift; submit "$@"; exit ;;
  verify)
    out=${2:-}
    [[ -n $out ]] || usage
    log_to "$out" "verify-${SLURM_JOB_ID:-local}"
    exec "$bin" verify "$out" --jobs "${SLURM_CPUS_PER_TASK:-1}"
    ;;
  "" | -h | --help) usage ;;
esac

config=$1
out=${2:-}
[[ -n $out ]] || usage
log_to "$out" "gamesweep-${SLURM_ARRAY_JOB_ID:-${SLURM_JOB_ID:-local}}_${SLURM_ARRAY_TASK_ID:-none}"
id=${SLURM_ARRAY_TASK_ID:?not in a Slurm job array (submit with sbatch --array=0-<S-1>, or use: slurm-sweep.sh submit)}
shards=${3:-}
[[ -n $shards ]] || {
  echo "slurm-sweep.sh: pass the sweep's shard count S as the third argument (sbatch --array=0-<S-1> scripts/slurm-sweep.sh $config $out S)" >&2
  exit 2
}
if ! [[ $shards =~ ^[1-9][0-9]*$ && $id =~ ^[0-9]+$ ]] || ((id >= shards)); then
  echo "slurm-sweep.sh: array index $id is not a shard of $shards (indices 0..$((shards - 1)))" >&2
  exit 2
fi
echo "slurm-sweep.sh: job ${SLURM_JOB_ID:-local}, array index $id: shard $id/$shards of $config on $(hostname)"
exec "$bin" run "$config" --out "$out" --shard "$id/$shards" --jobs "${SLURM_CPUS_PER_TASK:-1}"
