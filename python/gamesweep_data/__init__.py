"""Read gamesweep's output tables: the checked rows only, unless asked otherwise.

A run directory DIR holds one Parquet part per task and table,
``DIR/<game>/<table>/part-<task>.parquet``. A plain glob over a table's
directory reads every part, checked or not. :func:`read` reads the rows of
*checked* tasks only, by the rule that ``gamesweep export`` and the report
apply (docs/tables.md, "Checked rows"). A task is checked when

(a) its marker ``DIR/.tasks/<game>/<task>.json`` reads;
(b) every part the marker lists is the file that was written: its size and
    SHA-256 (in markers without them, its row count);
(c) its verification part ``DIR/<game>/verification/part-<task>.parquet``
    reads and holds one row, with status ``certified`` or ``repaired``.

Every other task is left out, with a reason that starts with one of
``damaged marker:``, ``damaged part:``, ``failed by verify:``,
``never verified`` or ``no marker (unfinished, or being rewritten)``;
:func:`read` names each in a warning (:class:`UncheckedRowsLeftOut`).
Nothing here writes a file.

>>> import gamesweep_data as gd
>>> values = gd.read("data/quick", "higher_lower/values")   # checked rows
>>> gd.tasks("data/quick", "higher_lower")                  # every task: checked, or why not
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

import polars as pl

__all__ = [
    "NEVER_VERIFIED",
    "NO_MARKER",
    "UncheckedRowsLeftOut",
    "games",
    "left_out",
    "read",
    "tables",
    "tasks",
]

PathLike = Union[str, "os.PathLike[str]"]

#: The reason for a part whose task has no marker.
NO_MARKER = "no marker (unfinished, or being rewritten)"
#: The reason for an intact task without a verdict of ``gamesweep verify``.
NEVER_VERIFIED = "never verified"

_VERIFICATION = "verification"
_CHECKED = ("certified", "repaired")
_SAFE_NAME = re.compile(r"[A-Za-z0-9_.-]+")
# How many left-out tasks a warning names before it shortens the list, and
# how long a reason it shows.
_NAMED, _REASON_CHARS = 10, 300
_THREADS = min(8, os.cpu_count() or 1)
# Corrupt Parquet can make polars panic (PanicException is a BaseException).
_DECODE_ERRORS = (Exception, getattr(pl.exceptions, "PanicException", Exception))


class UncheckedRowsLeftOut(UserWarning):
    """:func:`read` left out the rows of tasks that are not checked; the message names them."""


# Shown at every call, not once per line of code (a notebook's cell run again
# warns again); a filter of the user's or of -W still decides first.
warnings.filterwarnings("always", category=UncheckedRowsLeftOut, append=True)


@dataclass(frozen=True)
class _Listed:
    """What a marker records of one part."""

    rows: int
    size: Optional[int]
    sha256: Optional[str]


@dataclass(frozen=True)
class _Verdict:
    """A task judged by the rule: its status, and why it is left out ("" if checked)."""

    status: str  # certified | repaired | failed | never verified | damaged | no marker
    reason: str = ""

    @property
    def checked(self) -> bool:
        return self.status in _CHECKED


@dataclass
class _Game:
    """One game's tasks in DIR, judged by the rule."""

    parts: Dict[str, Dict[str, Path]]  # table -> task -> part file, as found on disk
    listed: Dict[str, Dict[str, _Listed]]  # task -> table -> part record, of markers that read
    verdicts: Dict[str, _Verdict]  # every task with a marker or a part
    kept: Dict[str, bytes] = field(default_factory=dict)  # task -> the kept table's part, as checked


def read(dir: PathLike, table: str, *, unchecked: bool = False) -> pl.DataFrame:
    """The rows of ``table`` ("<game>/<table>", e.g. "higher_lower/values") in run directory ``dir``.

    By default, the parts of checked tasks only, concatenated in part order,
    each decoded from the very bytes whose size and SHA-256 were checked; the
    tasks left out are named in an :class:`UncheckedRowsLeftOut` warning (see
    :func:`tasks` for all of them). With no checked part, an empty frame with
    the table's schema (from any of its parts that reads; no columns if none).

    ``unchecked=True`` reads every ``*.parquet`` file of the table's
    directory, checked or not, as ``pl.read_parquet("DIR/<game>/<table>/*.parquet")``
    does, and warns of nothing.

    Raises ``FileNotFoundError`` if ``dir`` or the table does not exist, and
    ``ValueError`` if ``table`` is not "<game>/<table>".
    """
    root, game, name = _root(dir), *_split(table)
    table_dir = root / game / name
    if unchecked:
        if not table_dir.is_dir():
            raise FileNotFoundError(_no_table(root, game, name))
        files = sorted(table_dir.glob("*.parquet"))
        return pl.read_parquet(files) if files else pl.DataFrame()
    judged = _judge(root, game, keep=name)
    found = judged.parts.get(name, {})
    owners = set(found) | {task for task, listed in judged.listed.items() if name in listed}
    if not table_dir.is_dir() and not owners:
        raise FileNotFoundError(_no_table(root, game, name))
    left: List[Tuple[str, str]] = []
    included: List[str] = []
    for task in sorted(owners, key=_part_name):
        verdict = judged.verdicts[task]
        if not verdict.checked:
            left.append((task, verdict.reason))
        else:
            included.append(task)
    frame = _decode(game, name, [(task, judged.kept[task]) for task in included], left)
    if left:
        left.sort(key=lambda item: _part_name(item[0]))
        warnings.warn(_left_out_message(root, game, name, left, len(owners)), UncheckedRowsLeftOut, stacklevel=2)
    return frame if frame is not None else pl.DataFrame(schema=_schema(sorted(found.values())))


def tasks(dir: PathLike, game: str) -> pl.DataFrame:
    """Every task of ``game`` in ``dir`` that has a marker or a part, judged by the rule.

    Columns: task, checked (bool), status (certified, repaired, failed,
    never verified, damaged or no marker), reason (why the task's rows are
    left out; "" if checked). Sorted by task. Raises ``FileNotFoundError``
    if ``dir`` holds nothing of ``game``.
    """
    root = _root(dir)
    if not _safe(game):
        raise ValueError(f"game {game!r}: not a game name")
    if not (root / game).is_dir() and not (root / ".tasks" / game).is_dir():
        raise FileNotFoundError(f"{root}: no game {game} (games here: {', '.join(games(root)) or 'none'})")
    verdicts = _judge(root, game).verdicts
    names = sorted(verdicts)
    return pl.DataFrame(
        {
            "task": names,
            "checked": [verdicts[t].checked for t in names],
            "status": [verdicts[t].status for t in names],
            "reason": [verdicts[t].reason for t in names],
        },
        schema={"task": pl.String, "checked": pl.Boolean, "status": pl.String, "reason": pl.String},
    )


def left_out(dir: PathLike) -> List[Tuple[str, str, str]]:
    """Every task of every game in ``dir`` whose rows are not checked, as (game, task, reason), sorted."""
    root = _root(dir)
    return [
        (game, task, verdict.reason)
        for game in games(root)
        for task, verdict in sorted(_judge(root, game).verdicts.items())
        if not verdict.checked
    ]


def games(dir: PathLike) -> List[str]:
    """The games of ``dir``: those with a marker or a part, sorted."""
    root = _root(dir)
    found = set(_entries(root / ".tasks", dirs=True))
    for game in _entries(root, dirs=True):
        if any(_part_task(f) for table in _entries(root / game, dirs=True) for f in _entries(root / game / table)):
            found.add(game)
    return sorted(found)


def tables(dir: PathLike, game: str) -> List[str]:
    """The tables of ``game`` in ``dir``: its table directories and the tables its readable markers list."""
    root = _root(dir)
    found = set(_entries(root / game, dirs=True))
    for task in _marker_tasks(root, game):
        listed = _read_marker(root, game, task)
        if isinstance(listed, dict):
            found.update(listed)
    return sorted(found)


# --- the rule -------------------------------------------------------------------------------------


def _judge(root: Path, game: str, keep: Optional[str] = None) -> _Game:
    """Judges every task of ``game`` by the rule, reading each file once, and
    keeps the bytes of table ``keep``'s parts of the checked tasks."""
    parts: Dict[str, Dict[str, Path]] = {}
    for table in _entries(root / game, dirs=True):
        for name in _entries(root / game / table):
            task = _part_task(name)
            if task is not None:
                parts.setdefault(table, {})[task] = root / game / table / name
    verdicts: Dict[str, _Verdict] = {}
    listed: Dict[str, Dict[str, _Listed]] = {}
    for task in _marker_tasks(root, game):
        marker = _read_marker(root, game, task)
        if isinstance(marker, str):
            verdicts[task] = _Verdict("damaged", f"damaged marker: {marker}")
        elif marker is not None:
            listed[task] = marker
    jobs = [(task, table, part) for task, marker in listed.items() for table, part in sorted(marker.items())]
    with ThreadPoolExecutor(_THREADS) as pool:
        checks = pool.map(lambda job: _check_part(root, game, *job, keep=job[1] == keep), jobs)
        last = pool.map(lambda task: _last_verdict(root, game, task, keep=keep == _VERIFICATION), listed)
        checks, last = list(checks), dict(zip(listed, last))
    damage: Dict[str, str] = {}
    kept: Dict[str, bytes] = {}
    for (task, table, _), (why, data) in zip(jobs, checks):
        if why is not None:
            damage.setdefault(task, why)  # the first damaged part, in table order
        elif data is not None:
            kept[task] = data
    for task in listed:
        status, detail, data = last[task]
        if task in damage:
            verdicts[task] = _Verdict("damaged", f"damaged part: {damage[task]}")
        elif status is None:
            verdicts[task] = _Verdict(NEVER_VERIFIED, NEVER_VERIFIED)
        elif status == "failed":
            verdicts[task] = _Verdict("failed", f"failed by verify: {detail}")
        else:
            verdicts[task] = _Verdict(status)
            if data is not None:
                kept[task] = data
    for found in parts.values():
        for task in found:
            verdicts.setdefault(task, _Verdict("no marker", NO_MARKER))
    kept = {task: data for task, data in kept.items() if verdicts[task].checked}
    # A checked task's part that its marker does not list (the findings of
    # its check) is what `verify` wrote after the marker, read as it is.
    for task, path in parts.get(keep, {}).items() if keep is not None else ():
        if verdicts[task].checked and task not in kept:
            kept[task] = path.read_bytes()
    return _Game(parts, listed, verdicts, kept)


# The fields every marker has (besides `game`, `id` and `tables`), as the Rust side requires them.
_MARKER_KEYS = ("seconds", "finished_unix", "version", "config_sha256")


def _read_marker(root: Path, game: str, task: str) -> Union[Dict[str, _Listed], str, None]:
    """The parts a task's marker lists, by table, or why the marker does not read (None: it is gone)."""
    path = root / ".tasks" / game / f"{task}.json"
    shown = _relative(root, path)
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"{shown}: cannot be read: {_os_error(e)}"
    try:
        marker = json.loads(text)
    except ValueError as e:
        return f"{shown}: not a task marker ({e})"
    if not isinstance(marker, dict) or not isinstance(marker.get("tables"), dict):
        return f"{shown}: not a task marker (no `tables` map)"
    if not isinstance(marker.get("game"), str) or not isinstance(marker.get("id"), str):
        return f"{shown}: not a task marker (no `game` and `id`)"
    missing = [key for key in _MARKER_KEYS if key not in marker]
    if missing:
        return f"{shown}: not a task marker (no `{missing[0]}`)"
    if (marker["game"], marker["id"]) != (game, task):
        return f"{shown}: names task {marker['game']}/{marker['id']}, not {game}/{task}"
    listed: Dict[str, _Listed] = {}
    for table, part in marker["tables"].items():
        if not isinstance(table, str) or not _safe(table):
            return f"{shown}: not a task marker (table {table!r})"
        if _count(part):
            listed[table] = _Listed(part, None, None)
        elif (
            isinstance(part, dict)
            and _count(part.get("rows"))
            and (part.get("bytes") is None or _count(part["bytes"]))
            and (part.get("sha256") is None or isinstance(part["sha256"], str))
        ):
            listed[table] = _Listed(part["rows"], part.get("bytes"), part.get("sha256"))
        else:
            return f"{shown}: not a task marker (table {table!r}: {part!r})"
    return listed


def _check_part(
    root: Path, game: str, task: str, table: str, part: _Listed, *, keep: bool
) -> Tuple[Optional[str], Optional[bytes]]:
    """Whether a listed part is the file that was written: (why not, or None; its bytes if ``keep``)."""
    path = root / game / table / f"part-{task}.parquet"
    shown = _relative(root, path)
    try:
        data = path.read_bytes()
    except OSError as e:
        return f"{shown}: cannot be read: {_os_error(e)}", None
    if part.size is not None and part.sha256 is not None:
        if len(data) != part.size:
            return f"{shown}: {len(data)} bytes, the marker recorded {part.size}", None
        if hashlib.sha256(data).hexdigest() != part.sha256.lower():
            return f"{shown}: content changed since it was written (SHA-256 differs)", None
    else:
        try:
            rows = pl.scan_parquet(io.BytesIO(data)).select(pl.len()).collect().item()
        except _DECODE_ERRORS as e:
            return f"{shown}: {_one_line(e)}", None
        if rows != part.rows:
            return f"{shown}: {rows} rows, the marker recorded {part.rows}", None
    return None, data if keep else None


def _last_verdict(root: Path, game: str, task: str, *, keep: bool) -> Tuple[Optional[str], str, Optional[bytes]]:
    """The task's verification row: (status, detail, the part's bytes if ``keep``);
    status None if the part is absent, does not read or does not hold one row."""
    path = root / game / _VERIFICATION / f"part-{task}.parquet"
    try:
        data = path.read_bytes()
        frame = pl.read_parquet(io.BytesIO(data), columns=["status", "detail"])
    except _DECODE_ERRORS:
        return None, "", None
    if frame.height != 1:
        return None, "", None
    status, detail = frame.row(0)
    if status not in ("certified", "repaired", "failed"):
        return None, "", None
    return status, detail or "", data if keep else None


# --- helpers --------------------------------------------------------------------------------------


def _root(dir: PathLike) -> Path:
    root = Path(dir)
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such output directory")
    return root


def _split(table: str) -> Tuple[str, str]:
    names = table.split("/") if isinstance(table, str) else []
    if len(names) != 2 or not all(_safe(n) for n in names):
        raise ValueError(f"table {table!r}: expected '<game>/<table>', e.g. 'higher_lower/values'")
    return names[0], names[1]


def _no_table(root: Path, game: str, name: str) -> str:
    if not (root / game).is_dir() and not (root / ".tasks" / game).is_dir():
        return f"{root}: no table {game}/{name}: no game {game} (games here: {', '.join(games(root)) or 'none'})"
    return f"{root}: no table {game}/{name} (tables of {game}: {', '.join(tables(root, game)) or 'none'})"


def _decode(game: str, name: str, parts: List[Tuple[str, bytes]], left: List[Tuple[str, str]]) -> Optional[pl.DataFrame]:
    """The parts' rows in order (None if none); a part that does not decode is added to ``left``."""
    if not parts:
        return None
    try:
        return pl.read_parquet([data for _, data in parts])
    except _DECODE_ERRORS:
        pass  # find the part that does not decode (its marker vouches for a file that is not Parquet)
    frames = []
    for task, data in parts:
        try:
            frames.append(pl.read_parquet(io.BytesIO(data)))
        except _DECODE_ERRORS as e:
            left.append((task, f"damaged part: {_part_path(game, name, task)}: {_one_line(e)}"))
    return pl.concat(frames, how="vertical") if frames else None


def _schema(files: List[Path]) -> pl.Schema:
    """The schema of the first of ``files`` whose footer reads (an empty schema if none)."""
    for path in files:
        try:
            return pl.read_parquet_schema(path)
        except _DECODE_ERRORS:
            continue
    return pl.Schema()


def _left_out_message(root: Path, game: str, name: str, left: List[Tuple[str, str]], owners: int) -> str:
    lines = [
        f"{root}: {game}/{name}: left out the rows of {len(left)} of {owners} tasks, not checked "
        "(docs/tables.md, 'Checked rows'; unchecked=True reads them):"
    ]
    for task, reason in left[:_NAMED]:
        shown = reason if len(reason) <= _REASON_CHARS else reason[: _REASON_CHARS - 3] + "..."
        lines.append(f"  {game}/{task}: {shown}")
    if len(left) > _NAMED:
        lines.append(f"  ... and {len(left) - _NAMED} more (gamesweep_data.tasks(DIR, {game!r}) lists every task)")
    return "\n".join(lines)


def _marker_tasks(root: Path, game: str) -> List[str]:
    return [n[: -len(".json")] for n in _entries(root / ".tasks" / game) if n.endswith(".json")]


def _entries(path: Path, dirs: bool = False) -> List[str]:
    """Sorted names of the files (or directories) in ``path``, hidden ones aside; [] if it is no directory."""
    try:
        with os.scandir(path) as it:
            return sorted(e.name for e in it if not e.name.startswith(".") and e.is_dir() == dirs)
    except (FileNotFoundError, NotADirectoryError):
        return []


def _part_task(file_name: str) -> Optional[str]:
    if file_name.startswith("part-") and file_name.endswith(".parquet") and len(file_name) > len("part-.parquet"):
        return file_name[len("part-") : -len(".parquet")]
    return None


def _part_name(task: str) -> str:
    return f"part-{task}.parquet"


def _part_path(game: str, table: str, task: str) -> str:
    return f"{game}/{table}/{_part_name(task)}"


def _relative(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _safe(name: str) -> bool:
    return bool(_SAFE_NAME.fullmatch(name)) and not name.startswith(".")


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _os_error(error: OSError) -> str:
    return error.strerror or str(error)


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
