//! Three ways to play Nim (normal play: who cannot move loses), each giving
//! the verdict for the player to move and, when it is a win, a winning move.
//!
//! - Pi's grouping: split every heap into groups by merging equal groups
//!   (powers of two); lost iff every group size occurs an even number of
//!   times; else take from a heap holding the largest odd-count group,
//!   removing the odd-count groups it holds and adding those it lacks.
//! - Phi's halving: halve every heap (dropping remainders) and solve the half
//!   game recursively; a lost half game is won iff the total is odd (take one
//!   from an odd heap); a half game won by leaving K in a heap of S is won by
//!   leaving 2K or 2K + 1 in that heap, whichever leaves an even total.
//! - Bouton's rule: lost iff the XOR of the heaps is 0; else reduce a heap h
//!   with h XOR x < h to h XOR x.

use std::collections::BTreeMap;

/// Leave `leave` coins in heap `heap` (0-based), fewer than it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub heap: usize,
    pub leave: u64,
}

/// The verdict for the player to move: a winning move, or `None` (lost).
pub type Verdict = Option<Move>;

/// Whether `m` is a legal move in `heaps` (takes at least one coin).
pub fn is_legal(heaps: &[u64], m: &Move) -> bool {
    m.heap < heaps.len() && m.leave < heaps[m.heap]
}

/// The heaps after a move.
pub fn apply(heaps: &[u64], m: &Move) -> Vec<u64> {
    let mut next = heaps.to_vec();
    next[m.heap] = m.leave;
    next
}

/// Bouton's XOR rule (the first heap that can be reduced).
pub fn bouton(heaps: &[u64]) -> Verdict {
    let x = heaps.iter().fold(0, |a, h| a ^ h);
    if x == 0 {
        return None;
    }
    heaps.iter().position(|&h| h ^ x < h).map(|heap| Move { heap, leave: heaps[heap] ^ x })
}

/// A heap's groups: the result of merging equal groups until all differ,
/// as counts per group size (at most one of each size in the end).
pub fn groups(heap: u64) -> BTreeMap<u64, u64> {
    // Start with `heap` groups of one coin; merge pairs of equal groups.
    let mut counts: BTreeMap<u64, u64> = BTreeMap::new();
    if heap > 0 {
        counts.insert(1, heap);
    }
    let mut size = 1u64;
    while counts.get(&size).is_some_and(|&c| c >= 2) {
        let c = counts[&size];
        counts.insert(size, c % 2);
        *counts.entry(2 * size).or_insert(0) += c / 2;
        size *= 2;
    }
    counts.retain(|_, c| *c > 0);
    counts
}

/// Pi's grouping algorithm.
pub fn pi(heaps: &[u64]) -> Verdict {
    let split: Vec<BTreeMap<u64, u64>> = heaps.iter().map(|&h| groups(h)).collect();
    let mut totals: BTreeMap<u64, u64> = BTreeMap::new();
    for g in &split {
        for (size, count) in g {
            *totals.entry(*size).or_insert(0) += count;
        }
    }
    let odd: Vec<u64> = totals.iter().filter(|(_, c)| *c % 2 == 1).map(|(s, _)| *s).collect();
    let largest = *odd.last()?;
    let heap = split.iter().position(|g| g.contains_key(&largest)).expect("some heap holds the group");
    // Remove the odd-count groups the heap holds, add those it lacks.
    let leave = odd.iter().fold(
        heaps[heap],
        |left, size| {
            if split[heap].contains_key(size) { left - size } else { left + size }
        },
    );
    Some(Move { heap, leave })
}

/// One line of Phi's table: the heaps at this depth of halving, and what
/// the way back up found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HalvingRow {
    pub heaps: Vec<u64>,
    pub total_odd: bool,
    pub verdict: Verdict,
}

/// Phi's halving algorithm; returns the verdict and the whole table, top
/// (the game itself) to bottom (all heaps empty), as the column prints it.
pub fn phi(heaps: &[u64]) -> (Verdict, Vec<HalvingRow>) {
    let mut levels: Vec<Vec<u64>> = vec![heaps.to_vec()];
    while levels.last().expect("non-empty").iter().any(|&h| h > 0) {
        let half: Vec<u64> = levels.last().expect("non-empty").iter().map(|h| h / 2).collect();
        levels.push(half);
    }
    // Back up: the all-empty game is lost.
    let mut below: Verdict = None;
    let mut table: Vec<HalvingRow> = Vec::with_capacity(levels.len());
    for (depth, level) in levels.iter().enumerate().rev() {
        let total_odd = level.iter().fold(0u64, |a, h| a ^ (h & 1)) == 1;
        let verdict = if depth == levels.len() - 1 {
            None
        } else {
            match below {
                None => total_odd.then(|| {
                    let heap = level.iter().position(|h| h % 2 == 1).expect("an odd total has an odd heap");
                    Move { heap, leave: level[heap] - 1 }
                }),
                Some(m) => {
                    // Leave 2K or 2K + 1 in the same heap so that the total left is even.
                    let others_odd =
                        level.iter().enumerate().filter(|(i, _)| *i != m.heap).fold(0u64, |a, (_, h)| a ^ (h & 1));
                    Some(Move { heap: m.heap, leave: 2 * m.leave + others_odd })
                }
            }
        };
        table.push(HalvingRow { heaps: level.clone(), total_odd, verdict });
        below = verdict;
    }
    table.reverse();
    (below, table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_example_19_5_3() {
        let heaps = [19, 5, 3];
        assert_eq!(groups(19), BTreeMap::from([(16, 1), (2, 1), (1, 1)]));
        assert_eq!(groups(5), BTreeMap::from([(4, 1), (1, 1)]));
        assert_eq!(pi(&heaps), Some(Move { heap: 0, leave: 6 }), "leave 6 in the 19-heap");
        let (verdict, table) = phi(&heaps);
        assert_eq!(verdict, Some(Move { heap: 0, leave: 6 }));
        // The column's table, top to bottom: heaps, parity, winnable, heap, leave.
        let printed: [([u64; 3], bool, Option<u64>); 6] = [
            ([19, 5, 3], true, Some(6)),
            ([9, 2, 1], false, Some(3)),
            ([4, 1, 0], true, Some(1)),
            ([2, 0, 0], false, Some(0)),
            ([1, 0, 0], true, Some(0)),
            ([0, 0, 0], false, None),
        ];
        assert_eq!(table.len(), printed.len());
        for (row, (heaps, odd, leave)) in table.iter().zip(printed) {
            assert_eq!(row.heaps, heaps);
            assert_eq!(row.total_odd, odd, "{heaps:?}");
            assert_eq!(row.verdict.map(|m| m.leave), leave, "{heaps:?}");
            assert!(row.verdict.is_none_or(|m| m.heap == 0), "always heap A");
        }
        assert_eq!(bouton(&heaps), Some(Move { heap: 0, leave: 6 }));
    }

    #[test]
    fn the_columns_exercises() {
        // 10, 8, 6: the halving table as printed, then solved.
        let (verdict, table) = phi(&[10, 8, 6]);
        let halves: Vec<Vec<u64>> = table.iter().map(|r| r.heaps.clone()).collect();
        assert_eq!(halves, vec![vec![10, 8, 6], vec![5, 4, 3], vec![2, 2, 1], vec![1, 1, 0], vec![0, 0, 0]]);
        assert_eq!(verdict, bouton(&[10, 8, 6]));
        // 3, 4, 5: a win (take 2 from the 3); 4, 5, 6: a win as well.
        assert_eq!(pi(&[3, 4, 5]), Some(Move { heap: 0, leave: 1 }));
        assert_eq!(phi(&[3, 4, 5]).0, Some(Move { heap: 0, leave: 1 }));
        for algorithm in [pi, |h: &[u64]| phi(h).0, bouton] {
            let m = algorithm(&[4, 5, 6]).expect("4, 5, 6 is a win");
            assert!(is_legal(&[4, 5, 6], &m));
            assert_eq!(bouton(&apply(&[4, 5, 6], &m)), None, "the move leaves a lost position");
        }
    }
}
