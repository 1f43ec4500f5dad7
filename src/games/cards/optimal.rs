//! The best play against the greedy opponent, and the other solvers.
//!
//! With the player to move on cards a..a+len, a round is the player's move and
//! the opponent's greedy reply: two cards go, and the left end moves by 0, 1
//! or 2. After k rounds from a start a0 the interval starts at one of a0 ..=
//! a0 + 2k: a level of at most 2k + 1 states, so a forward DP over levels
//! takes O(N^2) time (the report's "levels with merging"). To return the
//! moves in O(N) memory, the levels are split Hirschberg-style: a forward pass
//! to the middle level and a backward pass from the end meet in the middle
//! state of an optimal line, and both halves are solved again recursively
//! (about twice the work of one pass).

use super::greedy::{Side, greedy_takes_left};

/// The player's best total against the greedy opponent and the moves that
/// reach it (the player's moves in order; ties prefer the left card).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Best {
    pub player: u64,
    pub moves: Vec<Side>,
}

const UNREACHABLE: i64 = i64::MIN / 4;

/// One round from (a, len), the player to move: the player's gain and the
/// next start; a single card ends the game (len becomes 0).
fn round(row: &[u32], a: usize, len: usize, side: Side) -> (u64, usize) {
    debug_assert!(len >= 1);
    if len == 1 {
        return (u64::from(row[a]), a + 1);
    }
    let b = a + len - 1;
    match side {
        Side::Left => (u64::from(row[a]), if greedy_takes_left(row, a + 1, b) { a + 2 } else { a + 1 }),
        Side::Right => (u64::from(row[b]), if greedy_takes_left(row, a, b - 1) { a + 1 } else { a }),
    }
}

/// The interval length at level k of a game that starts with `len0` cards
/// and the player to move (0 once the cards are gone).
fn len_at(len0: usize, k: usize) -> usize {
    len0.saturating_sub(2 * k)
}

/// Rounds until the cards are gone: ceil(len0 / 2).
fn rounds(len0: usize) -> usize {
    len0.div_ceil(2)
}

/// The best play from the player to move on `row[a0..a0 + len0]`.
pub fn best_against_greedy(row: &[u32], a0: usize, len0: usize) -> Best {
    let levels = rounds(len0);
    let mut moves = Vec::with_capacity(levels);
    solve(row, len0, (0, a0), (levels, None), &mut moves);
    let player = replay(row, a0, len0, &moves);
    Best { player, moves }
}

/// The player's total when playing `moves` from (a0, len0) against greedy.
pub fn replay(row: &[u32], mut a: usize, len0: usize, moves: &[Side]) -> u64 {
    let mut total = 0;
    for (k, side) in moves.iter().enumerate() {
        let (gain, next) = round(row, a, len_at(len0, k), *side);
        total += gain;
        a = next;
    }
    total
}

/// Appends the optimal moves from state (level, start) to `to`: a fixed
/// state (level, Some(start)), or any end of the game (levels, None).
fn solve(row: &[u32], len0: usize, from: (usize, usize), to: (usize, Option<usize>), moves: &mut Vec<Side>) {
    let (k0, a0) = from;
    let (k1, target) = to;
    if k1 == k0 {
        return;
    }
    if k1 == k0 + 1 {
        // The better of the sides that reach the target (both can); left on ties.
        let len = len_at(len0, k0);
        let side = [Side::Left, Side::Right]
            .into_iter()
            .filter(|&s| len >= 2 || s == Side::Left)
            .filter(|&s| target.is_none_or(|t| round(row, a0, len, s).1 == t))
            .map(|s| (s, round(row, a0, len, s).0))
            .reduce(|best, next| if next.1 > best.1 { next } else { best })
            .expect("the target is one round away")
            .0;
        moves.push(side);
        return;
    }
    let mid = (k0 + k1) / 2;
    let forward = forward_to(row, len0, from, mid);
    let backward = backward_to(row, len0, from, mid, to);
    let (offset, _) = forward
        .iter()
        .zip(&backward)
        .enumerate()
        .map(|(d, (f, b))| (d, if *f == UNREACHABLE || *b == UNREACHABLE { UNREACHABLE } else { f + b }))
        .fold((0, UNREACHABLE - 1), |best, next| if next.1 > best.1 { next } else { best });
    let middle = a0 + offset;
    solve(row, len0, from, (mid, Some(middle)), moves);
    solve(row, len0, (mid, middle), to, moves);
}

/// Best scores from `from` to every state of level `to_level`, indexed by
/// offset from the start (UNREACHABLE where no line leads).
fn forward_to(row: &[u32], len0: usize, from: (usize, usize), to_level: usize) -> Vec<i64> {
    let (k0, a0) = from;
    let mut level = vec![0i64];
    for k in k0..to_level {
        let len = len_at(len0, k);
        let mut next = vec![UNREACHABLE; level.len() + 2];
        for (d, &score) in level.iter().enumerate().filter(|(_, s)| **s != UNREACHABLE) {
            for side in [Side::Left, Side::Right].into_iter().filter(|&s| len >= 2 || s == Side::Left) {
                let (gain, a) = round(row, a0 + d, len, side);
                let slot = &mut next[a - a0];
                *slot = (*slot).max(score + gain as i64);
            }
        }
        level = next;
    }
    level
}

/// Best scores from every state of level `at_level` (offsets from `from`'s
/// start, as in `forward_to`) to `to`.
fn backward_to(
    row: &[u32],
    len0: usize,
    from: (usize, usize),
    at_level: usize,
    to: (usize, Option<usize>),
) -> Vec<i64> {
    let (k0, a0) = from;
    let (k1, target) = to;
    let width = |k: usize| 2 * (k - k0) + 1;
    let mut level: Vec<i64> = (0..width(k1))
        .map(|d| match target {
            Some(t) if a0 + d != t => UNREACHABLE,
            _ => 0,
        })
        .collect();
    for k in (at_level..k1).rev() {
        let len = len_at(len0, k);
        level = (0..width(k))
            .map(|d| {
                [Side::Left, Side::Right]
                    .into_iter()
                    .filter(|&s| len >= 2 || s == Side::Left)
                    .map(|side| {
                        let (gain, a) = round(row, a0 + d, len, side);
                        let after = level[a - a0];
                        if after == UNREACHABLE { UNREACHABLE } else { after + gain as i64 }
                    })
                    .max()
                    .expect("a side")
            })
            .collect();
    }
    level
}

/// The best total against greedy by one backward pass over all levels (no
/// moves): the verification's independent route.
pub fn best_score_backward(row: &[u32], a0: usize, len0: usize) -> u64 {
    let levels = rounds(len0);
    let to = (levels, None);
    backward_to(row, len0, (0, a0), 0, to)[0] as u64
}

/// Exhaustive search over every sequence of the player's moves (2^(N/2)).
pub fn brute_force(row: &[u32], a0: usize, len0: usize) -> u64 {
    fn go(row: &[u32], a: usize, len: usize) -> u64 {
        if len == 0 {
            return 0;
        }
        [Side::Left, Side::Right]
            .into_iter()
            .filter(|&s| len >= 2 || s == Side::Left)
            .map(|side| {
                let (gain, next) = round(row, a, len, side);
                gain + go(row, next, len.saturating_sub(2))
            })
            .max()
            .expect("a side")
    }
    go(row, a0, len0)
}

/// The minimax value: the player's total when both sides play optimally for
/// their own totals, with the player to move on the whole row. O(N^2) time,
/// O(N) memory (score differences, one length at a time).
pub fn minimax(row: &[u32]) -> u64 {
    let n = row.len();
    if n == 0 {
        return 0;
    }
    // diff[a] = best (mover - other) on row[a..a + len], updated for len = 1..=n.
    let mut diff: Vec<i64> = row.iter().map(|&v| i64::from(v)).collect();
    for len in 2..=n {
        for a in 0..=n - len {
            diff[a] = (i64::from(row[a]) - diff[a + 1]).max(i64::from(row[a + len - 1]) - diff[a]);
        }
    }
    let total: i64 = row.iter().map(|&v| i64::from(v)).sum();
    ((total + diff[0]) / 2) as u64
}

/// The content-based cache of the report's "other point of view": the best
/// total from a sub-row depends only on its values, so equal sub-rows at
/// different offsets are solved once (rolling hashes key the sub-rows). Pays
/// on rows with many repeats (2 3 2 3 ...); on random rows it only adds
/// hashing. Depth-first with an explicit stack, so long rows cannot overflow
/// a thread's stack.
pub fn best_score_cached(row: &[u32], a0: usize, len0: usize) -> u64 {
    use std::collections::HashMap;
    let n = row.len();
    // Two polynomial hashes mod 2^61 - 1 with different bases: collisions are negligible.
    const P: u128 = (1 << 61) - 1;
    let bases = [1_000_003u128, 998_244_353u128];
    let mut prefix = vec![[0u128; 2]; n + 1];
    let mut power = vec![[1u128; 2]; n + 1];
    for i in 0..n {
        for h in 0..2 {
            prefix[i + 1][h] = (prefix[i][h] * bases[h] + u128::from(row[i]) + 1) % P;
            power[i + 1][h] = power[i][h] * bases[h] % P;
        }
    }
    let key = |a: usize, len: usize| -> (u64, u64, u32) {
        let h = |j: usize| ((prefix[a + len][j] + P * P - prefix[a][j] * power[len][j] % P) % P) as u64;
        (h(0), h(1), len as u32)
    };
    let mut cache: HashMap<(u64, u64, u32), u64> = HashMap::new();
    let sides = |len: usize| if len >= 2 { &[Side::Left, Side::Right][..] } else { &[Side::Left][..] };
    let mut stack = vec![(a0, len0)];
    while let Some(&(a, len)) = stack.last() {
        if len == 0 || cache.contains_key(&key(a, len)) {
            stack.pop();
            continue;
        }
        // The sub-rows after each of the player's moves; solve the missing ones first.
        let next: Vec<(u64, usize)> = sides(len).iter().map(|&side| round(row, a, len, side)).collect();
        let rest = len.saturating_sub(2);
        let missing: Vec<(usize, usize)> = next
            .iter()
            .filter(|&&(_, b)| rest > 0 && !cache.contains_key(&key(b, rest)))
            .map(|&(_, b)| (b, rest))
            .collect();
        if missing.is_empty() {
            let value = |b: usize| if rest == 0 { 0 } else { cache[&key(b, rest)] };
            let best = next.iter().map(|&(gain, b)| gain + value(b)).max().expect("a side");
            cache.insert(key(a, len), best);
            stack.pop();
        } else {
            stack.extend(missing);
        }
    }
    if len0 == 0 { 0 } else { cache[&key(a0, len0)] }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cards::greedy::{Order, start};
    use rayon::prelude::*;

    #[test]
    fn the_reports_row_is_won_both_ways() {
        let row = [3, 10, 3, 9, 5, 2];
        let total: u64 = row.iter().map(|&v| u64::from(v)).sum();
        // Player first.
        let best = best_against_greedy(&row, 0, 6);
        assert!(2 * best.player > total, "player first: {best:?}");
        assert_eq!(best.moves, vec![Side::Right, Side::Right, Side::Left], "2 - 9 - 10");
        // Opponent first: it takes the 3 on the left (3 >= 2).
        assert!(greedy_takes_left(&row, 0, 5));
        let best = best_against_greedy(&row, 1, 5);
        assert!(2 * best.player > total, "opponent first: {best:?}");
        assert_eq!(best.moves, vec![Side::Left, Side::Left, Side::Left], "10 - 9 - 2");
    }

    #[test]
    fn every_row_up_to_12_cards_of_values_1_to_4_matches_brute_force() {
        // 22 million rows, both orders: the DP, the backward pass and replay
        // of the moves all equal the exhaustive search.
        (1..=12u32).for_each(|n| {
            let count = 4u64.pow(n);
            (0..count).into_par_iter().for_each(|code| {
                let row: Vec<u32> = (0..n).map(|i| (code >> (2 * i) & 3) as u32 + 1).collect();
                for order in [Order::PlayerFirst, Order::OpponentFirst] {
                    let (a0, len0) = start(&row, order);
                    let exhaustive = brute_force(&row, a0, len0);
                    let best = best_against_greedy(&row, a0, len0);
                    assert_eq!(best.player, exhaustive, "{row:?} from {a0}");
                    assert_eq!(best_score_backward(&row, a0, len0), exhaustive);
                }
            });
        });
    }

    #[test]
    fn random_rows_up_to_16_match_brute_force() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..3000 {
            let n = rng.random_range(1..=16usize);
            let row: Vec<u32> = (0..n).map(|_| rng.random_range(1..=100u32)).collect();
            let exhaustive = brute_force(&row, 0, n);
            assert_eq!(best_against_greedy(&row, 0, n).player, exhaustive, "{row:?}");
            assert_eq!(best_score_cached(&row, 0, n), exhaustive, "{row:?}");
        }
    }

    #[test]
    fn minimax_matches_a_plain_recursion() {
        fn plain(row: &[u32]) -> i64 {
            match row.len() {
                0 => 0,
                n => (i64::from(row[0]) - plain(&row[1..])).max(i64::from(row[n - 1]) - plain(&row[..n - 1])),
            }
        }
        for row in [vec![3, 10, 3, 9, 5, 2], vec![1, 2, 3], vec![5], vec![2, 7, 2, 7, 2, 7, 2]] {
            let total: i64 = row.iter().map(|&v| i64::from(v)).sum();
            assert_eq!(minimax(&row) as i64, (total + plain(&row)) / 2, "{row:?}");
        }
    }

    #[test]
    fn the_content_cache_pays_on_repeats() {
        let periodic: Vec<u32> = (0..200).map(|i| 2 + i % 2).collect();
        assert_eq!(best_score_cached(&periodic, 0, 200), best_score_backward(&periodic, 0, 200));
        assert_eq!(best_score_cached(&periodic, 1, 199), best_score_backward(&periodic, 1, 199));
        // 20,000 rounds deep: the explicit stack, not the thread's, holds the path.
        let long: Vec<u32> = (0..40_000).map(|i| 2 + (i % 3 == 0) as u32).collect();
        assert_eq!(best_score_cached(&long, 0, long.len()), best_score_backward(&long, 0, long.len()));
    }
}
