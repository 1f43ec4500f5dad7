//! The cards tables: `games` (one row per row, starting order and strategy)
//! and `summary` (per starting order and strategy: counts and margin sums,
//! so the report can pool tasks exactly).

use super::greedy::{Order, start};
use super::optimal::{best_score_cached, minimax};
use super::play::{Score, Strategy, play};
use super::task::CardsTask;
use crate::artifacts::columns::TableBuilder;
use crate::game::Table;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Rows up to this length are stored in `games.values` (for brute force in `verify`).
pub const STORED_VALUES_MAX_N: usize = 24;

/// One game of the task.
pub struct Game {
    pub row: u64,
    pub order: Order,
    /// A strategy against greedy, or `None` for the minimax value (optimal opponent).
    pub strategy: Option<Strategy>,
    pub score: Score,
}

pub fn strategy_name(strategy: Option<Strategy>) -> &'static str {
    strategy.map_or("minimax", Strategy::as_str)
}

/// Every game of a task, in row order.
pub fn games(task: &CardsTask) -> Vec<Game> {
    (task.first..=task.last)
        .into_par_iter()
        .flat_map_iter(|index| {
            let row = task.distribution.row(task.seed, task.n, index);
            let total: u64 = row.iter().map(|&v| u64::from(v)).sum();
            let mut out = Vec::new();
            for order in Order::BOTH {
                for strategy in Strategy::ALL {
                    let score = if strategy == Strategy::Optimal && task.cache {
                        let (a0, len0) = start(&row, order);
                        let player = best_score_cached(&row, a0, len0);
                        Score { player, opponent: total - player }
                    } else {
                        play(&row, order, strategy)
                    };
                    out.push(Game { row: index, order, strategy: Some(strategy), score });
                }
                if task.minimax {
                    // The mover's optimal total; the opponent moves first in the second order.
                    let mover = minimax(&row);
                    let player = if order == Order::PlayerFirst { mover } else { total - mover };
                    out.push(Game {
                        row: index,
                        order,
                        strategy: None,
                        score: Score { player, opponent: total - player },
                    });
                }
            }
            out
        })
        .collect()
}

pub fn tables(task: &CardsTask) -> anyhow::Result<Vec<Table>> {
    let games = games(task);
    let store = task.n <= STORED_VALUES_MAX_N;
    let values: BTreeMap<u64, Vec<u32>> = if store {
        (task.first..=task.last).map(|i| (i, task.distribution.row(task.seed, task.n, i))).collect()
    } else {
        BTreeMap::new()
    };
    let dist = task.distribution.to_string();
    let games_table = TableBuilder::new()
        .u32("n", games.iter().map(|_| task.n as u32))
        .str("distribution", games.iter().map(|_| dist.as_str()))
        .u64("seed", games.iter().map(|_| task.seed))
        .u64("row", games.iter().map(|g| g.row))
        .str("order", games.iter().map(|g| g.order.as_str()))
        .str("strategy", games.iter().map(|g| strategy_name(g.strategy)))
        .str("opponent", games.iter().map(|g| if g.strategy.is_some() { "greedy" } else { "optimal" }))
        .u64("player", games.iter().map(|g| g.score.player))
        .u64("opponent_score", games.iter().map(|g| g.score.opponent))
        .i64("margin", games.iter().map(|g| g.score.margin()))
        .u32_lists("values", games.iter().map(|g| values.get(&g.row).cloned().unwrap_or_default()))
        .build("games")?;
    Ok(vec![games_table, summary(task, &games)?])
}

/// Per (order, strategy): games, wins, ties, and margin sums.
pub fn summary(task: &CardsTask, games: &[Game]) -> anyhow::Result<Table> {
    #[derive(Default)]
    struct Tally {
        games: u64,
        wins: u64,
        ties: u64,
        margin: i64,
        margin_squares: f64,
    }
    let mut tallies: BTreeMap<(Order, &'static str), Tally> = BTreeMap::new();
    for g in games {
        let t = tallies.entry((g.order, strategy_name(g.strategy))).or_default();
        let m = g.score.margin();
        t.games += 1;
        t.wins += u64::from(m > 0);
        t.ties += u64::from(m == 0);
        t.margin += m;
        t.margin_squares += (m as f64).powi(2);
    }
    let rows: Vec<_> = tallies.iter().collect();
    let dist = task.distribution.to_string();
    TableBuilder::new()
        .u32("n", rows.iter().map(|_| task.n as u32))
        .str("distribution", rows.iter().map(|_| dist.as_str()))
        .str("order", rows.iter().map(|((o, _), _)| o.as_str()))
        .str("strategy", rows.iter().map(|((_, s), _)| *s))
        .u64("games", rows.iter().map(|(_, t)| t.games))
        .u64("wins", rows.iter().map(|(_, t)| t.wins))
        .u64("ties", rows.iter().map(|(_, t)| t.ties))
        .f64("win_rate", rows.iter().map(|(_, t)| t.wins as f64 / t.games as f64))
        .f64("tie_rate", rows.iter().map(|(_, t)| t.ties as f64 / t.games as f64))
        .i64("margin_sum", rows.iter().map(|(_, t)| t.margin))
        .f64("margin_square_sum", rows.iter().map(|(_, t)| t.margin_squares))
        .f64("mean_margin", rows.iter().map(|(_, t)| t.margin as f64 / t.games as f64))
        .build("summary")
}
