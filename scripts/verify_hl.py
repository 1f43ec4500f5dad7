"""Re-verifies a higher-lower result from the Parquet rows alone, in exact
rational arithmetic (Python's fractions), without running gamesweep.

Alice's strategy alpha guarantees V when the best tree against it costs
exactly V (an O(N^3) interval DP on integer-scaled weights); Bob's mixture
guarantees V when every tree is a binary search tree and the worst key costs
exactly V. Both together prove V(N) = V.

Usage: python3 scripts/verify_hl.py DIR N [METHOD]
"""

import sys
from fractions import Fraction
from math import lcm
from pathlib import Path

import polars as pl


def best_tree_cost(weights: list[int]) -> int:
    """min over binary search trees T of sum_k w_k depth_T(k), root depth 1."""
    n = len(weights)
    prefix = [0]
    for w in weights:
        prefix.append(prefix[-1] + w)
    # cost[a][b] for keys a..b (1-based), empty intervals cost 0.
    cost = [[0] * (n + 2) for _ in range(n + 2)]
    for length in range(1, n + 1):
        for a in range(1, n - length + 2):
            b = a + length - 1
            split = min(cost[a][r - 1] + cost[r + 1][b] for r in range(a, b + 1))
            cost[a][b] = split + prefix[b] - prefix[a - 1]
    return cost[1][n]


def is_search_tree(depths: list[int]) -> bool:
    """Every subtree's key interval has a unique shallowest key at the right depth."""
    stack = [(0, len(depths), 1)]
    while stack:
        start, end, level = stack.pop()
        if start == end:
            continue
        part = depths[start:end]
        if min(part) != level or part.count(level) != 1:
            return False
        root = start + part.index(level)
        stack += [(start, root, level + 1), (root + 1, end, level + 1)]
    return True


def main(root: Path, n: int, method: str) -> None:
    def rows(table: str) -> pl.DataFrame:
        df = pl.read_parquet(root / "higher_lower" / table / "*.parquet")
        return df.filter((pl.col("n") == n) & (pl.col("method") == method))

    values = rows("values")
    if values.height != 1:
        sys.exit(f"N = {n}, method {method}: {values.height} value rows in {root}")
    value = Fraction(values["value"][0])

    alice = rows("alice").sort("i")
    alpha = [Fraction(p) for p in alice["prob"]]
    assert alice["i"].to_list() == list(range(1, n + 1)), "alpha must cover keys 1..N"
    assert all(a >= 0 for a in alpha) and sum(alpha) == 1, "alpha is not a distribution"
    scale = lcm(*(a.denominator for a in alpha))
    alice_bound = Fraction(best_tree_cost([int(a * scale) for a in alpha]), scale)
    assert alice_bound == value, f"the best tree against alpha costs {alice_bound}, not {value}"

    bob = rows("bob")
    weights = [Fraction(y) for y in bob["weight"]]
    trees = bob["depths"].to_list()
    assert all(y >= 0 for y in weights) and sum(weights) == 1, "Bob's weights are not a distribution"
    assert all(len(t) == n and is_search_tree(t) for t in trees), "a stored tree is not a binary search tree"
    worst = max(sum(y * t[k] for y, t in zip(weights, trees)) for k in range(n))
    assert worst == value, f"Bob's mixture lets Alice get {worst}, not {value}"

    print(
        f"N = {n} ({method}): V = {value} certified from the Parquet rows: the best tree against alpha "
        f"costs exactly V and Bob's {len(trees)} trees hold every key to exactly V."
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "auto")
