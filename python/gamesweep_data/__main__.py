"""``python3 -m gamesweep_data DIR``: every task of DIR whose rows are not checked,
one ``game/task: reason`` line each, sorted (nothing if every task is checked)."""

import argparse
import sys

from . import left_out


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m gamesweep_data",
        description="Print every task of a gamesweep run directory whose rows are not checked "
        "(docs/tables.md, 'Checked rows'), one 'game/task: reason' line each.",
    )
    parser.add_argument("dir", help="a run's output directory")
    args = parser.parse_args()
    try:
        rows = left_out(args.dir)
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for game, task, reason in rows:
        print(f"{game}/{task}: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
