//! Exact checks of stored cards results: every row is regenerated from its
//! seed; the optimum against greedy is recomputed by an independent backward
//! pass over all levels (and by brute force for N <= 20), the baselines are
//! replayed, the minimax value recomputed by a memoised recursion, and the
//! summary recounted.

use super::greedy::{Order, start};
use super::optimal::{best_score_backward, brute_force};
use super::play::{Strategy, play};
use super::tables::{STORED_VALUES_MAX_N, games, summary};
use super::task::CardsTask;
use crate::artifacts::columns::{Columns, first_difference};
use crate::game::{StoredTask, Verdict};
use crate::keys::{exact_sequence, exact_tables};
use std::collections::HashMap;

/// Rows up to this length are also solved by exhaustive search.
const BRUTE_FORCE_MAX_N: usize = 20;
/// Rows up to this length get the minimax value from a plain memoised recursion.
const MEMO_MINIMAX_MAX_N: usize = 400;

pub fn verify(task: &CardsTask, stored: &StoredTask) -> anyhow::Result<Verdict> {
    if let Err(why) = check_keys(task, stored) {
        return Ok(Verdict::failed(why));
    }
    let t = stored.table("games")?;
    let (row, order, strategy) = (t.u64s("row")?, t.strs("order")?, t.strs("strategy")?);
    let (player, opponent) = (t.u64s("player")?, t.u64s("opponent_score")?);
    let mut brute = 0;
    for r in 0..t.num_rows() {
        let index = row.value(r);
        let values = task.distribution.row(task.seed, task.n, index);
        if task.n <= STORED_VALUES_MAX_N && t.u32_list("values", r)? != values {
            return Ok(Verdict::failed(format!("row {index}: stored values differ from the seed's row")));
        }
        let total: u64 = values.iter().map(|&v| u64::from(v)).sum();
        if player.value(r) + opponent.value(r) != total {
            return Ok(Verdict::failed(format!("row {index}: scores do not add up to the row's total {total}")));
        }
        let order =
            if order.value(r) == Order::PlayerFirst.as_str() { Order::PlayerFirst } else { Order::OpponentFirst };
        let expected = match strategy.value(r) {
            "optimal" => {
                let (a0, len0) = start(&values, order);
                let best = best_score_backward(&values, a0, len0);
                if task.n <= BRUTE_FORCE_MAX_N {
                    brute += 1;
                    let exhaustive = brute_force(&values, a0, len0);
                    if exhaustive != best {
                        return Ok(Verdict::failed(format!(
                            "row {index}: backward pass {best} vs brute force {exhaustive}"
                        )));
                    }
                }
                best
            }
            "greedy" => play(&values, order, Strategy::Greedy).player,
            "lookahead" => play(&values, order, Strategy::Lookahead).player,
            "minimax" => {
                let mover =
                    if task.n <= MEMO_MINIMAX_MAX_N { memo_minimax(&values) } else { super::optimal::minimax(&values) };
                if order == Order::PlayerFirst { mover } else { total - mover }
            }
            other => return Ok(Verdict::failed(format!("unknown strategy {other:?}"))),
        };
        if player.value(r) != expected {
            return Ok(Verdict::failed(format!(
                "row {index}, {}, {}: stored {} vs recomputed {expected}",
                order.as_str(),
                strategy.value(r),
                player.value(r)
            )));
        }
    }
    let recount = summary(task, &games(task))?;
    if let Some(diff) = first_difference(stored.table("summary")?, &recount.batch) {
        return Ok(Verdict::failed(format!("summary: {diff}")));
    }
    Ok(Verdict::certified(format!(
        "{} games: optimum against greedy recomputed by the backward pass{}, baselines replayed, minimax recomputed, summary recounted",
        t.num_rows(),
        if brute > 0 { format!(" and by brute force ({brute} games)") } else { String::new() }
    )))
}

/// The games table holds every planned (row, order, strategy) once, in the
/// task's order, with the task's constants in every row and margin = player
/// - opponent.
fn check_keys(task: &CardsTask, stored: &StoredTask) -> Result<(), String> {
    exact_tables(stored, &["games", "summary"])?;
    let e = |e: anyhow::Error| e.to_string();
    let t = stored.table("games").map_err(e)?;
    let (row, order, strategy) =
        (t.u64s("row").map_err(e)?, t.strs("order").map_err(e)?, t.strs("strategy").map_err(e)?);
    let keys = (0..t.num_rows()).map(|r| (row.value(r), order.value(r).to_string(), strategy.value(r).to_string()));
    let mut strategies: Vec<&str> = Strategy::ALL.iter().map(|s| s.as_str()).collect();
    if task.minimax {
        strategies.push("minimax");
    }
    let planned = (task.first..=task.last)
        .flat_map(|index| {
            let strategies = &strategies;
            Order::BOTH
                .into_iter()
                .flat_map(move |o| strategies.iter().map(move |s| (index, o.as_str().to_string(), s.to_string())))
        })
        .collect();
    exact_sequence("games", keys.collect(), planned, |(r, o, s)| format!("row {r}, {o}, {s}"))?;
    let (n, distribution, seed) =
        (t.u32s("n").map_err(e)?, t.strs("distribution").map_err(e)?, t.u64s("seed").map_err(e)?);
    let (opponent, player, opponent_score, margin) = (
        t.strs("opponent").map_err(e)?,
        t.u64s("player").map_err(e)?,
        t.u64s("opponent_score").map_err(e)?,
        t.i64s("margin").map_err(e)?,
    );
    let dist = task.distribution.to_string();
    for r in 0..t.num_rows() {
        let expected_opponent = if strategy.value(r) == "minimax" { "optimal" } else { "greedy" };
        if n.value(r) as usize != task.n || distribution.value(r) != dist || seed.value(r) != task.seed {
            return Err(format!("games: row {r} is not of N = {}, {dist}, seed {}", task.n, task.seed));
        }
        if opponent.value(r) != expected_opponent
            || margin.value(r) != player.value(r) as i64 - opponent_score.value(r) as i64
        {
            return Err(format!("games: row {r}: opponent or margin inconsistent"));
        }
        if task.n > STORED_VALUES_MAX_N && !t.u32_list("values", r).map_err(e)?.is_empty() {
            return Err(format!("games: row {r} stores values of a row longer than {STORED_VALUES_MAX_N}"));
        }
    }
    Ok(())
}

/// The mover's optimal total by a memoised recursion over intervals.
fn memo_minimax(row: &[u32]) -> u64 {
    fn best(row: &[u32], a: usize, b: usize, memo: &mut HashMap<(usize, usize), u64>) -> u64 {
        if a == b {
            return 0;
        }
        if let Some(&v) = memo.get(&(a, b)) {
            return v;
        }
        let rest: u64 = row[a..b].iter().map(|&v| u64::from(v)).sum();
        // Taking a card leaves the other player the mover of the rest.
        let left = rest - best(row, a + 1, b, memo);
        let right = rest - best(row, a, b - 1, memo);
        let v = left.max(right);
        memo.insert((a, b), v);
        v
    }
    best(row, 0, row.len(), &mut HashMap::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memoised_minimax_agrees() {
        for row in [vec![3, 10, 3, 9, 5, 2], vec![1], vec![4, 4], vec![1, 100, 1, 1, 2]] {
            assert_eq!(memo_minimax(&row), super::super::optimal::minimax(&row), "{row:?}");
        }
    }
}
