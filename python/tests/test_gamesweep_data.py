"""gamesweep_data against a real run damaged in every way the checked rule names.

A tiny run (turtles and Risk) is verified after one task was forged (a cell
rewritten, its marker updated: verify fails it); then a second config (Nim)
is run into the same directory and never verified, one part gets a flipped
byte, one marker is cut short, one verification part is deleted, one marker
is rewritten in the old rows-only format (one agreeing, one not) and a part
is planted without a marker. Every left-out task must be named with its
reason, and the plain glob (and ``unchecked=True``) must still see them all.

Needs the binary: GAMESWEEP_BIN, else $CARGO_TARGET_DIR/release/gamesweep,
else target/release/gamesweep. GAMESWEEP_CHECKED_DIR, if set, is where the
damaged directory is built (and kept, for scripts/test-checked-reading.sh).

    python3 -m unittest discover -s python/tests     (from the repository root)
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import warnings
from pathlib import Path

import polars as pl

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))
import gamesweep_data as gd  # noqa: E402

CONFIG_A = """
[turtles]
lengths = { from = 1, to = 6 }

[risk]
round_outcomes = true
battles = { attackers = 5, defenders = 5 }
"""
CONFIG_B = """
[nim]
exhaustive = { heaps = 3, max_heap = 7 }
examples = [[3, 4, 5]]
"""
SHA_CHANGED = "content changed since it was written (SHA-256 differs)"
# What the damage below must leave out, by task: (status, reason or its start).
TURTLES = {
    "length-1": ("certified", ""),  # its marker rewritten in the old rows-only format, agreeing
    "length-2": ("certified", ""),
    "length-3": ("failed", "failed by verify: "),
    "length-4": ("damaged", f"damaged part: turtles/rows/part-length-4.parquet: {SHA_CHANGED}"),
    "length-5": ("damaged", "damaged marker: .tasks/turtles/length-5.json: not a task marker ("),
    "length-6": ("never verified", "never verified"),
    "length-7": ("no marker", "no marker (unfinished, or being rewritten)"),
}
RISK = {
    "battles-max-dice-a5-d5": ("certified", ""),
    "battles-optimal-a5-d5": ("damaged", "damaged part: risk/battle_policy/part-battles-optimal-a5-d5.parquet: "),
    "round-outcomes": ("certified", ""),
}


def binary() -> Path:
    if os.environ.get("GAMESWEEP_BIN"):
        return Path(os.environ["GAMESWEEP_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return (target if target.is_absolute() else REPO / target) / "release" / "gamesweep"


def gamesweep(*args: object, expect: int = 0) -> None:
    done = subprocess.run([str(binary()), *map(str, args)], capture_output=True, text=True)
    if done.returncode != expect:
        raise AssertionError(f"gamesweep {' '.join(map(str, args))}: exit {done.returncode}\n{done.stderr}")


def set_marker(run: Path, game: str, task: str, change) -> None:
    path = run / ".tasks" / game / f"{task}.json"
    marker = json.loads(path.read_text())
    change(marker)
    path.write_text(json.dumps(marker, indent=2))


def build_damaged(run: Path) -> None:
    """A tiny run in ``run``, damaged as the module's docstring says."""
    configs = run.parent
    (configs / "a.toml").write_text(CONFIG_A)
    (configs / "b.toml").write_text(CONFIG_B)
    gamesweep("run", configs / "a.toml", "--out", run)
    # turtles/length-3 forged: a verdict flipped, the marker made to agree.
    part = run / "turtles/rows/part-length-3.parquet"
    rows = pl.read_parquet(part)
    rows.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(~pl.col("brute_wins")).otherwise(pl.col("brute_wins"))).write_parquet(part)
    data = part.read_bytes()
    set_marker(run, "turtles", "length-3", lambda m: m["tables"]["rows"].update(bytes=len(data), sha256=hashlib.sha256(data).hexdigest()))
    gamesweep("verify", run, expect=1)
    gamesweep("run", configs / "b.toml", "--out", run)  # Nim: never verified
    part = run / "turtles/rows/part-length-4.parquet"
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0x01
    part.write_bytes(bytes(data))
    marker = run / ".tasks/turtles/length-5.json"
    marker.write_text(marker.read_text()[:40])
    (run / "turtles/verification/part-length-6.parquet").unlink()
    shutil.copy(run / "turtles/rows/part-length-2.parquet", run / "turtles/rows/part-length-7.parquet")
    # Old markers list only row counts: one agreeing, one one row off.
    set_marker(run, "turtles", "length-1", lambda m: m.update(tables={"rows": m["tables"]["rows"]["rows"]}))
    set_marker(run, "risk", "battles-optimal-a5-d5", lambda m: m["tables"].update({t: p["rows"] + 1 for t, p in m["tables"].items()}))


def snapshot(root: Path) -> dict:
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(root.rglob("*"))}


def left_out_warnings(caught) -> list:
    return [str(w.message) for w in caught if issubclass(w.category, gd.UncheckedRowsLeftOut)]


class CheckedReading(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        if not binary().is_file():
            raise unittest.SkipTest(f"no gamesweep binary at {binary()} (cargo build --release, or set GAMESWEEP_BIN)")
        cls.scratch = None
        if os.environ.get("GAMESWEEP_CHECKED_DIR"):
            cls.run_dir = Path(os.environ["GAMESWEEP_CHECKED_DIR"])
            shutil.rmtree(cls.run_dir, ignore_errors=True)
            cls.run_dir.parent.mkdir(parents=True, exist_ok=True)
        else:
            cls.scratch = tempfile.mkdtemp(prefix="gamesweep-data-")
            cls.run_dir = Path(cls.scratch) / "run"
        build_damaged(cls.run_dir)
        cls.before = snapshot(cls.run_dir)

    @classmethod
    def tearDownClass(cls) -> None:
        if cls.scratch:
            shutil.rmtree(cls.scratch, ignore_errors=True)

    def read(self, table: str, **kwargs):
        """``gd.read`` and the messages of its UncheckedRowsLeftOut warnings."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame = gd.read(self.run_dir, table, **kwargs)
        return frame, left_out_warnings(caught)

    def part(self, game: str, table: str, task: str) -> pl.DataFrame:
        return pl.read_parquet(self.run_dir / game / table / f"part-{task}.parquet")

    def assert_tasks(self, game: str, expected: dict) -> None:
        found = gd.tasks(self.run_dir, game)
        self.assertEqual(found.columns, ["task", "checked", "status", "reason"])
        self.assertEqual(found["task"].to_list(), sorted(expected))
        for task, checked, status, reason in found.iter_rows():
            want_status, want_reason = expected[task]
            self.assertEqual((status, checked), (want_status, want_status in ("certified", "repaired")), task)
            if want_reason:
                self.assertTrue(reason.startswith(want_reason), (task, reason))
            else:
                self.assertEqual(reason, "", task)

    def test_tasks_judged_by_the_rule(self) -> None:
        self.assert_tasks("turtles", TURTLES)
        self.assert_tasks("risk", RISK)
        self.assert_tasks("nim", {t: ("never verified", "never verified") for t in gd.tasks(self.run_dir, "nim")["task"]})
        self.assertGreaterEqual(gd.tasks(self.run_dir, "nim").height, 2)
        reason = dict(gd.tasks(self.run_dir, "risk").select("task", "reason").iter_rows())["battles-optimal-a5-d5"]
        self.assertRegex(reason, r": \d+ rows, the marker recorded \d+$")

    def test_read_leaves_out_exactly_the_unchecked_tasks(self) -> None:
        frame, said = self.read("turtles/rows")
        self.assertTrue(frame.equals(pl.concat([self.part("turtles", "rows", t) for t in ("length-1", "length-2")])))
        self.assertEqual(len(said), 1)
        for task, (status, reason) in TURTLES.items():
            named = f"turtles/{task}: {reason}" in said[0]
            self.assertEqual(named, status not in ("certified", "repaired"), (task, said[0]))
        self.assertIn("left out the rows of 5 of 7 tasks", said[0])

    def test_unchecked_and_the_plain_glob_see_every_part(self) -> None:
        glob = pl.read_parquet(self.run_dir / "turtles/rows/*.parquet")
        frame, said = self.read("turtles/rows", unchecked=True)
        self.assertEqual(said, [])
        self.assertTrue(frame.equals(glob))
        every = pl.concat([self.part("turtles", "rows", f"length-{k}") for k in range(1, 8)])
        self.assertTrue(glob.sort(glob.columns).equals(every.sort(every.columns)))
        self.assertGreater(glob.height, self.read("turtles/rows")[0].height)

    def test_verification_table_follows_the_rule(self) -> None:
        frame, said = self.read("turtles/verification")
        self.assertEqual(sorted(frame["task_id"]), ["length-1", "length-2"])
        self.assertEqual(set(frame["status"]), {"certified"})
        for task in ("length-3", "length-4", "length-5"):  # their verification parts exist, their tasks are left out
            self.assertIn(f"turtles/{task}: ", said[0])
        self.assertIn("failed", set(self.read("turtles/verification", unchecked=True)[0]["status"]))

    def test_damaged_tables_of_a_task_leave_out_all_its_tables(self) -> None:
        frame, said = self.read("risk/battles")  # battles-optimal's battle_policy part disagrees with its marker
        self.assertTrue(frame.equals(self.part("risk", "battles", "battles-max-dice-a5-d5")))
        self.assertIn("risk/battles-optimal-a5-d5: damaged part: risk/battle_policy/", said[0])
        frame, said = self.read("risk/round_outcomes")
        self.assertEqual((frame.height > 0, said), (True, []))

    def test_nothing_checked_gives_an_empty_frame_with_the_schema(self) -> None:
        frame, said = self.read("nim/positions")
        self.assertEqual(frame.height, 0)
        self.assertEqual(frame.schema, pl.read_parquet_schema(next((self.run_dir / "nim/positions").glob("*.parquet"))))
        self.assertIn("never verified", said[0])

    def test_left_out_lists_every_game(self) -> None:
        rows = gd.left_out(self.run_dir)
        self.assertEqual(rows, sorted(rows))
        self.assertEqual({g for g, _, _ in rows}, {"nim", "risk", "turtles"})
        self.assertEqual({t for g, t, _ in rows if g == "turtles"}, {t for t, (s, _) in TURTLES.items() if s not in ("certified", "repaired")})

    def test_bad_names_are_refused(self) -> None:
        with self.assertRaises(FileNotFoundError):
            gd.read(self.run_dir, "turtles/no_such_table")
        with self.assertRaises(FileNotFoundError):
            gd.read(self.run_dir, "no_such_game/rows")
        with self.assertRaises(FileNotFoundError):
            gd.read(self.run_dir / "nowhere", "turtles/rows")
        for table in ("rows", "turtles/rows/x", "../turtles/rows", "turtles/.."):
            with self.assertRaises(ValueError):
                gd.read(self.run_dir, table)
        self.assertEqual(gd.games(self.run_dir), ["nim", "risk", "turtles"])
        self.assertIn("rows", gd.tables(self.run_dir, "turtles"))

    def test_zz_nothing_was_written(self) -> None:
        # Named to run last; every other test has read the directory by then.
        self.assertEqual(snapshot(self.run_dir), self.before)


if __name__ == "__main__":
    unittest.main()
