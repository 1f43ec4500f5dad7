//! The `[cards]` config section and its expansion into tasks.

use super::card_rows::Distribution;
use super::task::CardsTask;
use crate::config::Section;
use crate::error::UserError;
use crate::game::check_task_count;
use crate::grid::{Bounded, Distinct, IntGrid};
use serde::Deserialize;

/// Largest row length.
pub const MAX_N: u32 = 1_000_000;
/// The most cards a section may deal over all its rows: 10^11 cards take
/// about half an hour on 2 cores (the optimum against greedy: 18 ns a card,
/// N = 10^4, docs/benchmarks.md).
const MAX_CARDS: u64 = 100_000_000_000;

/// The `[cards]` config section.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CardsConfig {
    /// Row lengths N.
    n: IntGrid<1, MAX_N>,
    /// Value models: "cards" (a 52-card deck, values 2..14) and/or "uniform-LOW-HIGH".
    distributions: Distinct<Distribution>,
    /// Random rows per (N, distribution).
    rows: Bounded<1, 100_000_000>,
    #[serde(default)]
    seed: u64,
    /// Rows per task.
    #[serde(default = "default_chunk")]
    chunk: Bounded<1, 100_000_000>,
    /// Rows longer than this skip the minimax value (O(N^2) per row).
    #[serde(default = "default_minimax_max_n")]
    minimax_max_n: Bounded<0, MAX_N>,
    /// Score the optimal strategy with the report's content cache instead of
    /// the levels: pays on rows with many repeated runs, costs on random rows.
    #[serde(default)]
    cache: bool,
}

fn default_chunk() -> Bounded<1, 100_000_000> {
    const { Bounded::new(2000) }
}
fn default_minimax_max_n() -> Bounded<0, MAX_N> {
    const { Bounded::new(5000) }
}

/// The section's tasks, in a stable order.
pub fn plan(section: &Section) -> Result<Vec<CardsTask>, UserError> {
    let config: CardsConfig = section.parse()?;
    if config.distributions.is_empty() {
        return Err(section.invalid(&["distributions"], "needs at least one of \"cards\", \"uniform-LOW-HIGH\""));
    }
    // Bounds before anything is built: the task count, and the cards of all rows.
    let (rows, chunk) = (u64::from(config.rows.get()), u64::from(config.chunk.get()));
    let lengths = config.n.values().iter().map(|&n| u64::from(n)).sum::<u64>();
    let models = config.distributions.values().len() as u64;
    check_task_count(models * config.n.values().len() as u64 * rows.div_ceil(chunk))
        .map_err(|why| section.invalid(&["rows"], &why))?;
    let cards = models * lengths * rows;
    if cards > MAX_CARDS {
        return Err(section.invalid(
            &["rows"],
            &format!(
                "this deals {cards:.2e} cards in all (rows x N x models), at most {MAX_CARDS:.0e} (hours of work)"
            ),
        ));
    }
    let mut tasks = Vec::new();
    for &distribution in config.distributions.values() {
        for &n in config.n.values() {
            if let Some(max) = distribution.max_cards()
                && n as usize > max
            {
                return Err(section
                    .invalid(&["n"], &format!("N = {n} is above {max}, the most cards the {distribution} model has")));
            }
            for first in (0..rows).step_by(chunk as usize) {
                tasks.push(CardsTask {
                    n: n as usize,
                    distribution,
                    seed: config.seed,
                    first,
                    last: (first + chunk).min(rows) - 1,
                    minimax: n <= config.minimax_max_n.get(),
                    cache: config.cache,
                });
            }
        }
    }
    Ok(tasks)
}
