#!/usr/bin/env bash
# Executes every notebook headless against a run's output directory and fails
# if any cell fails. Installs the pinned notebook requirements first; the
# notebooks import gamesweep_data from this tree's python/.
#   scripts/run-notebooks.sh [DIR]     (default: data/quick, the main job's output)
set -euo pipefail
cd "$(dirname "$0")/.."
data=$(realpath "${1:-data/quick}")
[ -d "$data" ] || { echo "error: $data: no such output directory (run: make run)" >&2; exit 2; }
python3 -m pip install --quiet --disable-pip-version-check -r notebooks/requirements.txt

export GAMESWEEP_DATA="$data" MPLBACKEND=Agg PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
for notebook in notebooks/*.ipynb; do
  echo "executing $notebook against $data"
  (cd notebooks && python3 - "$(basename "$notebook")" <<'PY'
import sys
import nbformat
from nbclient import NotebookClient

path = sys.argv[1]
notebook = nbformat.read(path, as_version=4)
NotebookClient(notebook, timeout=600, kernel_name="python3").execute()
PY
  )
done
