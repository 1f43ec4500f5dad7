#!/usr/bin/env python3
"""Compares two gamesweep output directories, table by table, ignoring wall-clock times.

Usage: scripts/compare_outputs.py [--ignore NAME]... [--rows K] OLD_DIR NEW_DIR

Exit 0 if they hold the same results, 1 (listing every difference) if not, 2 on bad arguments.
One summary line per compared item ("higher_lower/values: 300 rows equal"), then the differences:
per table, the parts (tasks) only on one side, the columns added, removed or retyped, the rows only
on one side and, per differing column, how many rows differ and the first K of them by key with
both values.

What is compared (the layout: docs/tables.md):

- every table of every game, `DIR/<game>/<table>/part-*.parquet`, the verification tables
  included: the set of parts, then the parts of a table concatenated and compared as one frame.
  Rows are matched by key, not by position (row order does not matter): the table's documented
  key (higher-lower's `n, method, ...`, verification's `task_id`), else the shortest prefix of
  its non-float, non-list columns that is unique on both sides (a duplicate counter is appended
  when none is). Floats compare exactly (NaN equal to NaN);
- the task markers `DIR/.tasks/<game>/<id>.json`: the set of tasks, and per task its table names
  and row counts, version, config hash and settings; the set of failure notes (`*.failed.txt`);
- the stored configs `DIR/.configs/*.toml`: names (their SHA-256) and contents;
- `DIR/manifest.json`, field by field (its task list keyed by game and id, like the markers);
- the report's analysis tables `DIR/report/<game>/*.parquet` when both sides have a report (a
  report on one side only is noted, not counted as a difference: it is derived from the tables).

What is ignored, and why (each is wall-clock or follows from a wall-clock value):

- table columns `solve_seconds`, `exact_seconds`, `face_seconds` (higher-lower's `values`, and
  `solve_seconds` in the report's `higher_lower/iterations`): durations of the solve stages;
  the verification tables' `seconds` (how long `verify` took) and `verified_unix` (when it ran);
  and, as a safety net, any other column named `seconds`, `*_seconds` or `*_unix` (none exists
  today: every column of the quick, higher-lower and 1..1024 outputs was inspected). Each
  table's summary line names the columns it ignored;
- in markers and in the manifest's task list: `seconds`, `finished_unix`, and each part's
  `sha256` and `bytes` (a part's bytes change whenever one of its timing cells does; the parts
  themselves are compared cell by cell above, and their `rows` are compared here);
- in the manifest: `updated_unix`, `task_seconds_total`, `configs.<sha>.last_run_unix`,
  `last_run.started_unix`, `last_run.wall_seconds`;
- noted but not counted as differences, since they describe how the last `run` was invoked, not
  what was computed: the manifest's `configs.<sha>.path` and `last_run.config_path` (the config
  path as typed), `last_run.jobs` (thread count), `last_run.shard`, `last_run.tasks_ran` and
  `last_run.tasks_skipped` (resume history: one run or several shards);
- scratch and coordination state: `DIR/.steps/` (checkpoints of unfinished tasks; an unfinished
  task already shows as a missing marker), `DIR/.claims/` (leases), `DIR/.tmp/`, `DIR/logs/`;
  the report's Markdown, HTML and figures (they print the timing columns).

`--ignore NAME` ignores one more column or marker/manifest field name (repeatable), e.g.
`--ignore version` to compare outputs of two program versions.
"""
import argparse
import json
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

try:
    import polars as pl
except ImportError:  # pragma: no cover
    sys.exit("compare_outputs: needs polars (pip install -r notebooks/requirements.txt)")

TIMING_COLUMNS = {"solve_seconds", "exact_seconds", "face_seconds", "seconds", "verified_unix"}
TIMING_PATTERN = re.compile(r"^(seconds|.*_seconds|.*_unix)$")
MARKER_IGNORED = {"seconds", "finished_unix"}
PART_IGNORED = {"sha256", "bytes"}
MANIFEST_IGNORED = {"updated_unix", "task_seconds_total", "last_run_unix", "started_unix", "wall_seconds"}
MANIFEST_NOTES = {"path", "config_path", "jobs", "shard", "tasks_ran", "tasks_skipped"}
NOT_GAMES = {"report", "logs"}

# Documented keys (docs/tables.md); other tables get an inferred key.
KEYS = {
    ("higher_lower", "values"): ["n", "method"],
    ("higher_lower", "alice"): ["n", "method", "i"],
    ("higher_lower", "bob"): ["n", "method", "tree"],
    ("higher_lower", "face_mixture"): ["n", "method", "tree"],
    ("higher_lower", "trace"): ["n", "method", "round"],
    ("higher_lower", "conjectures"): ["n", "method", "name"],
    ("higher_lower", "face_trees"): ["n", "method", "name", "tree"],
    ("higher_lower", "face_cuts"): ["n", "method", "cut"],
    ("higher_lower", "height_proofs"): ["n", "method", "i"],
    ("report/higher_lower", "table_3_1"): ["n"],
    ("report/higher_lower", "conjectures_summary"): ["name"],
    ("report/higher_lower", "iterations"): ["n", "method"],
    ("report/higher_lower", "bound_trace_n100"): ["n", "method", "round"],
}


class Comparison:
    def __init__(self, old, new, ignore, rows):
        self.old, self.new, self.rows = old, new, rows
        self.ignore = set(ignore)
        self.differences = 0

    def ok(self, line):
        print(line)

    def differ(self, line, details=()):
        self.differences += 1
        print(line)
        for d in details:
            print("    " + d)

    def ignored_column(self, name):
        return name in TIMING_COLUMNS or TIMING_PATTERN.match(name) or name in self.ignore


def listdir(path):
    return sorted(os.listdir(path)) if os.path.isdir(path) else []


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def short(value, width=60):
    text = str(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def same_bytes(a, b):
    if os.path.getsize(a) != os.path.getsize(b):
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 22), fb.read(1 << 22)
            if x != y:
                return False
            if not x:
                return True


def read_table(files, with_part=False):
    frames = []
    for f in files:
        df = pl.read_parquet(f)
        if with_part:
            df = df.with_columns(pl.lit(os.path.basename(f)).alias("__part"))
        frames.append(df)
    if not frames:
        return pl.DataFrame()
    try:
        return pl.concat(frames, how="vertical")
    except Exception:
        return pl.concat(frames, how="diagonal_relaxed")


def is_float(dtype):
    return dtype in (pl.Float32, pl.Float64)


def is_nested(dtype):
    return isinstance(dtype, (pl.List, pl.Array, pl.Struct))


def choose_key(name, old, new):
    """Key columns for matching rows, unique on both sides; '__dup' appended when needed."""
    common = [c for c in old.columns if c in new.columns and not c.startswith("__")]
    documented = KEYS.get(name) or (["task_id"] if name[1] == "verification" else None)
    candidates = [c for c in common if not is_float(old.schema[c]) and not is_nested(old.schema[c])
                  and old.schema[c] == new.schema[c]]
    tries = []
    if documented and all(c in candidates for c in documented):
        tries.append(documented)
    tries += [candidates[:k] for k in range(1, len(candidates) + 1)]
    for key in tries:
        if old.n_unique(subset=key) == old.height and new.n_unique(subset=key) == new.height:
            return key, old, new
    key = candidates
    dup = (pl.int_range(pl.len()).over(key) if key else pl.int_range(pl.len())).alias("__dup")
    return key + ["__dup"], old.with_columns(dup), new.with_columns(dup)


def key_text(row, key):
    return " ".join(f"{k}={short(row[k], 40)}" for k in key if k != "__dup") or f"row {row.get('__dup', '')}"


def compare_table(cmp, game, table, old_dir, new_dir):
    """Parts paired by name: byte-identical files are equal, others are compared as frames (timing
    columns dropped); the parts that differ, or exist on one side only, are then concatenated and
    their rows matched by key."""
    name = f"{game}/{table}"
    old_files = [f for f in listdir(old_dir) if f.endswith(".parquet")]
    new_files = [f for f in listdir(new_dir) if f.endswith(".parquet")]
    if not old_files and not new_files:
        return
    if not old_files or not new_files:
        side, count = ("OLD", len(old_files)) if old_files else ("NEW", len(new_files))
        cmp.differ(f"{name}: DIFFERENT: table only in {side} ({count} parts)")
        return
    details = [f"part only in OLD: {f}" for f in sorted(set(old_files) - set(new_files))]
    details += [f"part only in NEW: {f}" for f in sorted(set(new_files) - set(old_files))]
    ignored, equal_rows, differing, unreadable = set(), 0, [], set()
    common = sorted(set(old_files) & set(new_files))
    with ThreadPoolExecutor(max(2, min(8, os.cpu_count() or 2))) as pool:
        results = list(pool.map(lambda f: compare_part(cmp, os.path.join(old_dir, f), os.path.join(new_dir, f)), common))
    for f, (status, rows, drop) in zip(common, results):
        ignored |= drop
        if status == "equal":
            equal_rows += rows
        elif status == "differ":
            differing.append(f)
        else:  # a damaged part: named, then left out of the row comparison
            details.append(f"part {f} unreadable: {status}")
            unreadable.add(f)
    old_part = [f for f in old_files if f in differing or f not in new_files]
    new_part = [f for f in new_files if f in differing or f not in old_files]
    try:
        old = read_table([os.path.join(old_dir, f) for f in old_part], True)
        new = read_table([os.path.join(new_dir, f) for f in new_part], True)
    except Exception as e:
        cmp.differ(f"{name}: DIFFERENT", details + [f"a part only on one side is unreadable: {short(e, 200)}"])
        return
    ignored |= {c for c in old.columns + new.columns if cmp.ignored_column(c)}
    old, new = old.drop(ignored, strict=False), new.drop(ignored, strict=False)
    suffix = f" (ignoring {', '.join(sorted(ignored))})" if ignored else ""
    if not old_part and not new_part and not details:
        cmp.ok(f"{name}: {equal_rows} rows equal{suffix}")
        return
    # A side without parts to compare: an empty frame of the other side's columns.
    old, new = (new.clear() if not old_part else old), (old.clear() if not new_part else new)
    for c in old.columns:
        if c not in new.columns:
            details.append(f"column {c} only in OLD")
        elif old.schema[c] != new.schema[c]:
            details.append(f"column {c}: type {old.schema[c]} in OLD, {new.schema[c]} in NEW")
    details += [f"column {c} only in NEW" for c in new.columns if c not in old.columns]
    if old.width or new.width:
        details += diff_rows(cmp, (game, table), old, new)
    old_rows, new_rows = equal_rows + old.height, equal_rows + new.height
    if details:
        equal_parts = len(set(old_files) & set(new_files)) - len(differing) - len(unreadable)
        same = f"; {equal_rows} rows in {plural(equal_parts, 'equal part')}" if equal_parts else ""
        cmp.differ(f"{name}: DIFFERENT ({old_rows} rows in OLD, {new_rows} in NEW{same}){suffix}", details)
    else:
        cmp.ok(f"{name}: {old_rows} rows equal, in another order{suffix}")


def compare_part(cmp, old_path, new_path):
    """One pair of parts: ("equal" | "differ" | the read error, rows, timing columns seen)."""
    try:
        if same_bytes(old_path, new_path):
            # Identical files (the usual case for tables without timing columns): no decoding.
            drop = {c for c in pl.read_parquet_schema(old_path) if cmp.ignored_column(c)}
            return "equal", pl.scan_parquet(old_path).select(pl.len()).collect().item(), drop
        old, new = pl.read_parquet(old_path), pl.read_parquet(new_path)
    except Exception as e:
        return short(e, 200), 0, set()
    drop = {c for c in old.columns + new.columns if cmp.ignored_column(c)}
    old, new = old.drop(drop, strict=False), new.drop(drop, strict=False)
    if old.schema == new.schema and old.height == new.height and old.equals(new):
        return "equal", old.height, drop
    return "differ", 0, drop


def diff_rows(cmp, name, old, new):
    details = []
    key, old, new = choose_key(name, old, new)
    values = [c for c in old.columns if c in new.columns and c not in key and not c.startswith("__")
              and old.schema[c] == new.schema[c]]
    left = old.with_columns(pl.lit(True).alias("__in_old"))
    right = new.rename({c: c + "__new" for c in new.columns if c not in key}).with_columns(pl.lit(True).alias("__in_new"))
    joined = left.join(right, on=key, how="full", coalesce=True, nulls_equal=True).sort(key, nulls_last=True)
    for side, present, absent, part in (("OLD", "__in_old", "__in_new", "__part"), ("NEW", "__in_new", "__in_old", "__part__new")):
        rows = joined.filter(pl.col(present).is_not_null() & pl.col(absent).is_null())
        if rows.height:
            first = "; ".join(f"[{r[part]}] {key_text(r, key)}" for r in rows.head(cmp.rows).iter_rows(named=True))
            details.append(f"{plural(rows.height, 'row')} only in {side}: {first}")
    both = joined.filter(pl.col("__in_old").is_not_null() & pl.col("__in_new").is_not_null())
    if not values or not both.height:
        return details
    masks = both.select([(~pl.col(c).eq_missing(pl.col(c + "__new"))).alias(c) for c in values])
    counts = masks.sum().row(0, named=True)
    for c in values:
        if not counts[c]:
            continue
        rows = both.filter(masks[c]).head(cmp.rows)
        first = "; ".join(f"[{r['__part']}] {key_text(r, key)}: {short(r[c])} -> {short(r[c + '__new'])}"
                          for r in rows.iter_rows(named=True))
        details.append(f"column {c} differs in {plural(counts[c], 'row')}: {first}")
    return details


def normal_marker(marker, ignore):
    """A marker (or a manifest task entry) without its wall-clock fields."""
    out = {k: v for k, v in marker.items() if k not in MARKER_IGNORED and k not in ignore}
    tables = marker.get("tables", {})
    out["tables"] = {
        t: ({k: v for k, v in info.items() if k not in PART_IGNORED and k not in ignore} if isinstance(info, dict)
            else {"rows": info})
        for t, info in tables.items()
    }
    return out


def dict_diff(old, new, path=""):
    """(path, old, new) for every leaf that differs."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new), key=str):
            p = f"{path}.{k}" if path else str(k)
            if k not in old:
                out.append((p, "(absent)", new[k]))
            elif k not in new:
                out.append((p, old[k], "(absent)"))
            else:
                out += dict_diff(old[k], new[k], p)
        return out
    return [] if old == new else [(path, old, new)]


def compare_markers(cmp):
    def markers(root):
        found, failed = {}, set()
        tasks = os.path.join(root, ".tasks")
        for game in listdir(tasks):
            for f in listdir(os.path.join(tasks, game)):
                path = os.path.join(tasks, game, f)
                if f.endswith(".failed.txt"):
                    failed.add(f"{game}/{f}")
                elif f.endswith(".json"):
                    try:
                        with open(path, encoding="utf-8") as fh:
                            found[(game, f[:-5])] = normal_marker(json.load(fh), cmp.ignore)
                    except (OSError, ValueError) as e:
                        found[(game, f[:-5])] = {"unreadable": str(e)}
        return found, failed

    old, old_failed = markers(cmp.old)
    new, new_failed = markers(cmp.new)
    details = []
    for side, a, b in (("OLD", old, new), ("NEW", new, old)):
        missing = sorted(set(a) - set(b))
        if missing:
            details.append(f"{plural(len(missing), 'task')} only in {side}: " + ", ".join(f"{g}/{t}" for g, t in missing[:20])
                           + (" ..." if len(missing) > 20 else ""))
    for task in sorted(set(old) & set(new)):
        for path, a, b in dict_diff(old[task], new[task]):
            details.append(f"{task[0]}/{task[1]}: {path}: {short(a)} -> {short(b)}")
    for side, a, b in (("OLD", old_failed, new_failed), ("NEW", new_failed, old_failed)):
        for f in sorted(a - b):
            details.append(f"failure note only in {side}: {f}")
    if details:
        cmp.differ(f".tasks: DIFFERENT ({len(old)} tasks in OLD, {len(new)} in NEW)", details)
    else:
        cmp.ok(f".tasks: {len(old)} tasks equal (table names and rows; checksums, sizes and times ignored)")


def compare_configs(cmp):
    def configs(root):
        d = os.path.join(root, ".configs")
        return {f: open(os.path.join(d, f), "rb").read() for f in listdir(d) if not f.startswith(".")}

    old, new = configs(cmp.old), configs(cmp.new)
    details = [f"only in {side}: {f}" for side, a, b in (("OLD", old, new), ("NEW", new, old)) for f in sorted(set(a) - set(b))]
    details += [f"{f}: contents differ" for f in sorted(set(old) & set(new)) if old[f] != new[f]]
    if details:
        cmp.differ(".configs: DIFFERENT", details)
    else:
        cmp.ok(f".configs: {plural(len(old), 'config')} equal")


def compare_manifest(cmp):
    def load(root):
        path = os.path.join(root, "manifest.json")
        if not os.path.exists(path):
            return None
        with open(path, encoding="utf-8") as f:
            return json.load(f)

    def strip(value, notes, path=""):
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                p = f"{path}.{k}" if path else k
                if k in MANIFEST_IGNORED or k in cmp.ignore:
                    continue
                if k in MANIFEST_NOTES and not isinstance(v, (dict, list)):
                    notes[p] = v
                    continue
                out[k] = strip(v, notes, p)
            return out
        return value

    old, new = load(cmp.old), load(cmp.new)
    if old is None or new is None:
        if old is None and new is None:
            cmp.ok("manifest.json: absent on both sides")
        else:
            cmp.differ(f"manifest.json: DIFFERENT: only in {'OLD' if new is None else 'NEW'}")
        return
    tasks = {}
    for side, m in (("old", old), ("new", new)):
        tasks[side] = {f"{t.get('game')}/{t.get('id')}": normal_marker(t, cmp.ignore) for t in m.pop("tasks", [])}
    old_notes, new_notes = {}, {}
    old, new = strip(old, old_notes), strip(new, new_notes)
    old["tasks"], new["tasks"] = tasks["old"], tasks["new"]
    details = [f"{p}: {short(a)} -> {short(b)}" for p, a, b in dict_diff(old, new)]
    if details:
        cmp.differ("manifest.json: DIFFERENT", details[:50] + ([f"... {len(details) - 50} more"] if len(details) > 50 else []))
    else:
        cmp.ok(f"manifest.json: equal ({len(old['tasks'])} tasks; times, checksums and sizes ignored)")
    notes = [f"{p}: {short(a)} -> {short(b)}" for p, a, b in dict_diff(old_notes, new_notes)]
    if notes:
        print("    note (how the last run was invoked, not compared): " + "; ".join(notes))


def games(root):
    return [g for g in listdir(root) if not g.startswith(".") and g not in NOT_GAMES
            and os.path.isdir(os.path.join(root, g))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--ignore", action="append", default=[], metavar="NAME",
                        help="one more column or marker/manifest field to ignore (repeatable)")
    parser.add_argument("--rows", type=int, default=5, metavar="K", help="differing rows shown per column (5)")
    args = parser.parse_args()
    for d in (args.old, args.new):
        if not os.path.isdir(d):
            print(f"compare_outputs: {d}: not a directory", file=sys.stderr)
            sys.exit(2)
    cmp = Comparison(args.old, args.new, args.ignore, args.rows)
    tables = 0
    for game in sorted(set(games(args.old)) | set(games(args.new))):
        old_game, new_game = os.path.join(args.old, game), os.path.join(args.new, game)
        for table in sorted(set(listdir(old_game)) | set(listdir(new_game))):
            if os.path.isdir(os.path.join(old_game, table)) or os.path.isdir(os.path.join(new_game, table)):
                compare_table(cmp, game, table, os.path.join(old_game, table), os.path.join(new_game, table))
                tables += 1
    compare_markers(cmp)
    compare_configs(cmp)
    compare_manifest(cmp)
    old_report, new_report = os.path.join(args.old, "report"), os.path.join(args.new, "report")
    if os.path.isdir(old_report) and os.path.isdir(new_report):
        for game in sorted(set(listdir(old_report)) | set(listdir(new_report))):
            og, ng = os.path.join(old_report, game), os.path.join(new_report, game)
            if not (os.path.isdir(og) or os.path.isdir(ng)):
                continue
            for f in sorted({f for f in listdir(og) + listdir(ng) if f.endswith(".parquet")}):
                compare_report_table(cmp, game, f, og, ng)
                tables += 1
    elif os.path.isdir(old_report) or os.path.isdir(new_report):
        print(f"report: only in {'OLD' if os.path.isdir(old_report) else 'NEW'}, not compared")
    if cmp.differences:
        print(f"compare_outputs: {plural(cmp.differences, 'difference')} ({tables} tables compared): {args.old} vs {args.new}")
        sys.exit(1)
    print(f"compare_outputs: equal ({tables} tables compared): {args.old} vs {args.new}")


def compare_report_table(cmp, game, file, old_dir, new_dir):
    """One analysis table of the report: a single Parquet file per side."""
    import tempfile

    name = f"report/{game}/{file[:-8]}"
    old_path, new_path = os.path.join(old_dir, file), os.path.join(new_dir, file)
    if not os.path.exists(old_path) or not os.path.exists(new_path):
        cmp.differ(f"{name}: DIFFERENT: only in {'OLD' if os.path.exists(old_path) else 'NEW'}")
        return
    # The table machinery works on directories of parts: view each file as a one-part table.
    with tempfile.TemporaryDirectory() as tmp:
        for side, path in (("old", old_path), ("new", new_path)):
            os.makedirs(os.path.join(tmp, side))
            os.symlink(os.path.abspath(path), os.path.join(tmp, side, file))
        compare_table(cmp, f"report/{game}", file[:-8], os.path.join(tmp, "old"), os.path.join(tmp, "new"))


if __name__ == "__main__":
    main()
