#!/usr/bin/env bash
# Runs docs/quickstart.md as a reader would, so that it cannot go stale: its ```sh and ```python blocks in
# order, from the root of a scratch copy of the repository (nothing is written into the clone), the sh
# blocks in one shell (an `export` carries over, as in a terminal), each python block as a script of its
# own. Each ```text block right after one of them is its output: its lines must appear in that block's
# output (stdout and stderr), in order, where `...` matches anything. The scratch copy's `target` is a link
# to the clone's cargo target directory ($CARGO_TARGET_DIR if set, else target/), so the tutorial's
# `cargo build --release` reuses the clone's build and `target/release/gamesweep` is its binary.
# Called by `make test`.
#   scripts/run-quickstart.sh        (QUICKSTART_DOC=FILE runs another page instead, to try the check)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
doc=$(realpath "${QUICKSTART_DOC:-docs/quickstart.md}")
target=$(realpath -m "${CARGO_TARGET_DIR:-target}")
mkdir -p "$target"
if [ -n "${CARGO_TARGET_DIR:-}" ]; then
  export CARGO_TARGET_DIR="$target"
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# A clone's files: everything but .git, the build and what git ignores (outputs under data/, caches).
ignored() { git -C "$root" check-ignore -q "$1" 2>/dev/null; }
for entry in * .[!.]*; do
  [ -e "$entry" ] || continue
  case "$entry" in .git | target | data) continue ;; esac
  ignored "$entry" || cp -a "$entry" "$scratch/"
done
mkdir "$scratch/data"
for entry in data/*; do
  [ -e "$entry" ] || continue
  ignored "$entry" || cp -a "$entry" "$scratch/data/"
done
ln -s "$target" "$scratch/target"

python3 - "$doc" "$scratch" <<'PY'
import os
import re
import subprocess
import sys
import time

doc, scratch = sys.argv[1], sys.argv[2]
RUN = {"sh", "python"}

# The fenced blocks of the page: (language, first line number, text).
blocks, current = [], None
for number, line in enumerate(open(doc, encoding="utf-8"), 1):
    fence = re.match(r"^(`{3,})\s*([\w+-]*)", line)
    if current is None and fence:
        current = (fence.group(1), fence.group(2), number, [])
    elif current is not None and line.strip() == current[0]:
        blocks.append((current[1], current[2], "".join(current[3])))
        current = None
    elif current is not None:
        current[3].append(line)
if current is not None:
    sys.exit(f"run-quickstart: {doc}:{current[2]}: an unclosed code block")

runnable = [k for k, (lang, _, _) in enumerate(blocks) if lang in RUN]
if len(runnable) < 5:
    sys.exit(f"run-quickstart: {doc}: only {len(runnable)} sh/python blocks; is the page still a tutorial?")

# One bash script: each block after a marker line; a python block through a quoted heredoc.
script = ["exec 2>&1", "set -euo pipefail"]
for k in runnable:
    lang, line, text = blocks[k]
    script.append(f"printf '\\n@@quickstart-block {k}@@\\n'")
    if lang == "sh":
        script.append(text)
    else:
        script.append("python3 - <<'QUICKSTART_PYTHON'\n" + text + "QUICKSTART_PYTHON")
script.append("printf '\\n@@quickstart-end@@\\n'")

start = time.time()
print(f"run-quickstart: {len(runnable)} blocks of {doc} in {scratch}", flush=True)
process = subprocess.Popen(
    ["bash", "-c", "\n".join(script)],
    cwd=scratch,
    stdout=subprocess.PIPE,
    text=True,
    env={**os.environ, "PYTHONUNBUFFERED": "1"},
)
outputs, block = {}, None
for line in process.stdout:
    marker = re.match(r"^@@quickstart-(block (\d+)|end)@@$", line.rstrip("\n"))
    if marker:
        block = int(marker.group(2)) if marker.group(2) else None
        if block is not None:
            lang, number, _ = blocks[block]
            print(f"--- {doc}:{number} ({lang})", flush=True)
            outputs[block] = []
        continue
    if block is not None:
        outputs[block].append(line.rstrip("\n"))
    print("    " + line, end="", flush=True)
status = process.wait()
if status != 0:
    where = f"{doc}:{blocks[block][1]}" if block is not None else doc
    sys.exit(f"run-quickstart: FAILED: the block at {where} exited with {status}")


def matches(expected, actual):
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


# Each ```text block right after a run block: its lines, in order, in that block's output.
failures, checked = [], 0
for k in runnable:
    if k + 1 >= len(blocks) or blocks[k + 1][0] != "text":
        continue
    expected = [l.rstrip() for l in blocks[k + 1][2].splitlines() if l.strip()]
    actual = [l.rstrip() for l in outputs.get(k, [])]
    at = 0
    for want in expected:
        while at < len(actual) and not matches(want, actual[at]):
            at += 1
        if at == len(actual):
            failures.append(f"{doc}:{blocks[k + 1][1]}: the output of the block at line {blocks[k][1]} has no line {want!r} (in this order)")
            break
        at += 1
    checked += 1
for failure in failures:
    print("run-quickstart: " + failure)
print(f"run-quickstart: {len(runnable)} blocks ran, {checked} outputs checked, {len(failures)} differ, in {time.time() - start:.1f} s")
sys.exit(1 if failures else 0)
PY
