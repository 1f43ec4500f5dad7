#!/usr/bin/env bash
# The cluster path on a real Slurm. Starts a one-node cluster (munged,
# slurmctld, slurmd; Debian 12's slurm-wlm 22.05) whose configuration, state,
# sockets, logs and outputs all live in one temporary directory, and runs the
# sweep through scripts/slurm-sweep.sh as a user would:
#   1. sbatch --array=0-3 of configs/quick.toml with a verify job chained
#      after it (--dependency=afterok): every task certified;
#   2. the same array resubmitted: every task skipped;
#   3. a resubmitted index without the shard count: refused, nothing run;
#   4. a 4-task array of slower tasks, index K cancelled mid-way, then
#      `sbatch --array=K` alone: it runs exactly shard K and completes the
#      sweep; `slurm-sweep.sh submit --verify` then skips all and certifies.
# Every daemon it started is stopped, also on failure; `ps` before and after
# shows it. Skips with one line where it cannot run (not root, no packages).
# Called by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

skip() {
  echo "test-slurm: SKIPPED: $*"
  exit 0
}
[[ $(id -u) == 0 ]] || skip "needs root (munged runs as the munge user, slurmd as root)"
daemons() { ps -eo pid,user,args | awk 'NR == 1 || /[m]unged|[s]lurmctld|[s]lurmd/'; }
echo "test-slurm: Slurm and munge processes before:"
daemons
daemon_pids() { for name in munged slurmctld slurmd; do pgrep -x "$name" || true; done | sort; }
pids_before=$(daemon_pids)
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  command -v apt-get >/dev/null || skip "Slurm is not installed and there is no apt-get to install it"
  echo "test-slurm: installing slurmctld slurmd slurm-client munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q slurmctld slurmd slurm-client munge >/dev/null 2>&1 ||
    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q slurmctld slurmd slurm-client munge >/dev/null 2>&1; } ||
    skip "could not install slurmctld slurmd slurm-client munge (no package access)"
  # Where an init system started the packages' own services, stop them: the
  # test runs daemons of its own only, and leaves none behind.
  for pid in $(comm -13 <(echo "$pids_before") <(daemon_pids)); do
    echo "test-slurm: stopping $(ps -o comm= -p "$pid") (pid $pid), started by the package installation"
    kill "$pid" 2>/dev/null || true
  done
fi
id munge >/dev/null 2>&1 || skip "the munge package created no munge user"

cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-$repo/target}/release/gamesweep
export GAMESWEEP_BIN=$bin

started=$(date +%s)
phase_start=$started
phase() {
  local now
  now=$(date +%s)
  echo "test-slurm: [$((now - phase_start)) s] $*"
  phase_start=$now
}
git_before=$(git status --porcelain 2>/dev/null || true)

tmp=$(mktemp -d /tmp/gamesweep-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
  local status=$?
  trap - EXIT
  if ((status != 0)); then
    echo "test-slurm: FAILED; the daemons' last log lines:"
    tail -n 20 "$tmp"/*.log "$tmp"/munge/munged.log "$tmp"/*.stderr 2>/dev/null || true
  fi
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$tmp"
  echo "test-slurm: Slurm and munge processes after:"
  daemons
  exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# munge: a fresh key and socket of our own, munged as the munge user.
mkdir -p "$tmp/munge"
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chown -R munge: "$tmp/munge"
chmod 711 "$tmp/munge"
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge/munge.socket
setpriv --reuid=munge --regid=munge --clear-groups munged --foreground --force --key-file="$tmp/munge/munge.key" \
  --socket="$socket" --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" \
  --log-file="$tmp/munge/munged.log" >"$tmp/munged.stderr" 2>&1 &
pids+=($!)

# Slurm: one node of 2 CPUs and 6 GB, everything under $tmp, ports of its own.
# Two free ports, bound at once so that they differ.
read -r ctld_port slurmd_port < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
host=$(hostname -s)
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=gamesweep-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=3600
SlurmdParameters=config_overrides
PlugStackConfig=$tmp/plugstack.conf
NodeName=gsnode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=6000 State=UNKNOWN
PartitionName=test Nodes=gsnode Default=YES MaxTime=INFINITE State=UP
EOF
touch "$tmp/plugstack.conf"
export SLURM_CONF=$tmp/slurm.conf
for _ in $(seq 50); do [[ -S $socket ]] && break; sleep 0.1; done
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.stderr" 2>&1 &
pids+=($!)
slurmd -D -N gsnode -f "$SLURM_CONF" >"$tmp/slurmd.stderr" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  sinfo -h -o %T 2>/dev/null | grep -qx idle && break
  sleep 0.2
done
sinfo -h -o %T | grep -qx idle || { echo "test-slurm: the node did not come up"; sinfo; exit 1; }
phase "cluster up: $(sinfo -h -o '%P %D node(s) %c CPUs %m MB %T')"

# Waits until no task of job $1 is pending or running (at most $2 seconds).
wait_job() {
  local job=$1 limit=${2:-600} waited=0
  while [[ -n $(squeue -h -j "$job" -o %i 2>/dev/null) ]]; do
    ((waited < limit * 5)) || { echo "test-slurm: job $job did not finish within $limit s"; squeue; exit 1; }
    sleep 0.2
    waited=$((waited + 1))
  done
}
# One line per (array) task of job $1: id, state, exit code.
states() {
  scontrol -o show job "$1" | tr ' ' '\n' | awk -F= '
    $1 == "JobId" { name = $2 } $1 == "ArrayJobId" { name = $2 } $1 == "ArrayTaskId" { name = name "_" $2 }
    $1 == "JobState" { state = $2 } $1 == "ExitCode" { printf "  job %s: %s, exit code %s\n", name, state, $2 }'
}
# Asserts that job $1's tasks all ended in state $2.
expect_state() {
  local job=$1 want=$2 got
  got=$(scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]*' | sort -u)
  [[ $got == "JobState=$want" ]] || { echo "test-slurm: job $job: expected $want, got: $got"; states "$job"; exit 1; }
}
fail() {
  echo "test-slurm: $*"
  exit 1
}
# The ids of the tasks shard $2 of config $1 holds.
shard_ids() { "$bin" plan "$1" --shard "$2" | awk 'NR > 1 { print $2 "/" $3 }' | sort; }

# 1. The quick config as a 4-task array, verify chained after it.
out=$tmp/quick
job=$(sbatch --parsable --array=0-3 --cpus-per-task=1 scripts/slurm-sweep.sh configs/quick.toml "$out" 4)
check=$(sbatch --parsable --dependency="afterok:$job" --mem=4G scripts/slurm-sweep.sh verify "$out")
echo "test-slurm: submitted array job $job (sbatch --array=0-3 scripts/slurm-sweep.sh configs/quick.toml OUT 4) and verify job $check (sbatch --dependency=afterok:$job --mem=4G scripts/slurm-sweep.sh verify OUT)"
wait_job "$job"
wait_job "$check"
states "$job"
states "$check"
expect_state "$job" COMPLETED
expect_state "$check" COMPLETED
verify_log=$out/logs/verify-$check.log
grep -E '^[a-z_]+: [0-9]+ tasks planned' "$verify_log" | sed 's/^/  /'
if grep -E '^[a-z_]+: [0-9]+ tasks planned' "$verify_log" | grep -Ev ' [0-9]+ repaired, 0 failed, 0 missing;'; then
  fail "verify job $check: not every task certified or repaired"
fi
phase "array $job done, verify job $check: every task certified or repaired"

# 2. The same array again: every task already done.
again=$(sbatch --parsable --array=0-3 --cpus-per-task=1 scripts/slurm-sweep.sh configs/quick.toml "$out" 4)
wait_job "$again"
expect_state "$again" COMPLETED
for k in 0 1 2 3; do
  grep -h '^gamesweep: ran' "$out/logs/gamesweep-${again}_$k.log" | sed "s/^/  index $k: /"
  grep -q '^gamesweep: ran 0 tasks, skipped [1-9]' "$out/logs/gamesweep-${again}_$k.log" ||
    fail "resubmitted index $k ran tasks again"
done
phase "resubmitted array $again: every task skipped"

# 3. A resubmitted index without the shard count is refused.
bad=$(sbatch --parsable --array=2 scripts/slurm-sweep.sh configs/quick.toml "$out")
wait_job "$bad"
expect_state "$bad" FAILED
sed 's/^/  /' "$out/logs/gamesweep-${bad}_2.log"
phase "index 2 resubmitted without the shard count: refused (job $bad FAILED, exit 2)"

# 4. Tasks of some seconds each; index 1 cancelled mid-way, then resubmitted alone.
slow=$tmp/slow.toml
cat >"$slow" <<'EOF'
[higher_lower]
n = { from = 449, to = 512 }
methods = ["auto"]
chunk = 16
EOF
out=$tmp/slow
k=1
job=$(sbatch --parsable --array=0-3 --cpus-per-task=1 scripts/slurm-sweep.sh "$slow" "$out" 4)
echo "test-slurm: submitted array job $job (4 tasks of higher-lower chains); cancelling index $k once it has started"
log=$out/logs/gamesweep-${job}_$k.log
for _ in $(seq 600); do
  [[ -f $log ]] && grep -q 'tasks in' "$log" && break
  sleep 0.1
done
sleep 2
scancel "${job}_$k"
wait_job "$job"
states "$job"
[[ $(scontrol -o show job "${job}_$k" | grep -o 'JobState=[A-Z]*') == JobState=CANCELLED ]] || fail "index $k was not cancelled"
missing=0
while read -r task; do
  [[ -f $out/.tasks/$task.json ]] || missing=$((missing + 1))
done < <(shard_ids "$slow" "$k/4")
((missing > 0)) || fail "index $k finished before it was cancelled; nothing to resume"
phase "index $k cancelled with $missing task(s) of its shard unfinished"

resume=$(sbatch --parsable --array=$k --cpus-per-task=1 scripts/slurm-sweep.sh "$slow" "$out" 4)
wait_job "$resume"
states "$resume"
expect_state "$resume" COMPLETED
ran=$(grep -o '^done [a-z_]*/[^ ]*' "$out/logs/gamesweep-${resume}_$k.log" | cut -d' ' -f2 | sort)
grep -h '^gamesweep: ran' "$out/logs/gamesweep-${resume}_$k.log" | sed 's/^/  /'
[[ -n $ran && $ran == "$(shard_ids "$slow" "$k/4")" ]] || fail "sbatch --array=$k ran [$ran], not shard $k/4's tasks"
phase "sbatch --array=$k (job $resume) ran exactly shard $k/4: $(echo $ran)"

submitted=$(scripts/slurm-sweep.sh submit "$slow" "$out" --tasks 4 --verify -- --cpus-per-task=1)
echo "$submitted" | sed 's/^/  /'
job=$(grep -o 'job array [0-9]*' <<<"$submitted" | grep -o '[0-9]*$')
check=$(grep -o 'verify job [0-9]*' <<<"$submitted" | grep -o '[0-9]*$')
wait_job "$job"
wait_job "$check"
expect_state "$job" COMPLETED
expect_state "$check" COMPLETED
grep -L '^gamesweep: ran 0 tasks' "$out"/logs/gamesweep-"${job}"_*.log | grep . && fail "the resubmission ran tasks again"
grep -E '^higher_lower: ' "$out/logs/verify-$check.log" | sed 's/^/  /'
grep -q '^higher_lower: 4 tasks planned: [0-9]* certified, [0-9]* repaired, 0 failed, 0 missing' "$out/logs/verify-$check.log" ||
  fail "verify job $check: the sweep is not complete and certified"
phase "slurm-sweep.sh submit --verify: array $job skipped every task, verify job $check certified the sweep"

[[ $(git status --porcelain 2>/dev/null || true) == "$git_before" ]] || fail "files appeared in the repository: $(git status --porcelain)"
echo "test-slurm: passed in $(($(date +%s) - started)) s; nothing written in the repository, the cluster's state, logs and outputs only under $tmp"
