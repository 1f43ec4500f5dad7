//! Cards from either end against a greedy opponent (seed 002): the optimal
//! play against greedy in O(N^2) time and O(N) memory with its moves, the
//! minimax value, greedy and one-step-lookahead baselines, swept over random
//! rows of two card models, verified by an independent DP and brute force.

pub mod greedy;
pub mod optimal;
pub mod play;
mod report;
pub mod rows;
mod tables;
mod verify;

use crate::config::Section;
use crate::error::UserError;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict};
use crate::grid::{Bounded, Distinct, IntGrid};
use rows::Distribution;
use serde::Deserialize;

/// Largest row length.
pub const MAX_N: u32 = 1_000_000;

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

pub struct Cards;

/// A block of random rows of one length and model.
#[derive(Debug, Clone, PartialEq)]
pub struct CardsTask {
    pub n: usize,
    pub distribution: Distribution,
    pub seed: u64,
    /// Row indices first..last (inclusive).
    pub first: u64,
    pub last: u64,
    pub minimax: bool,
    /// The optimal score comes from the content cache (`optimal::best_score_cached`).
    pub cache: bool,
}

impl Task for CardsTask {
    fn id(&self) -> String {
        format!(
            "n{}-{}-rows{}-{}-s{}{}{}",
            self.n,
            self.distribution,
            self.first,
            self.last,
            self.seed,
            if self.minimax { "" } else { "-nominimax" },
            if self.cache { "-cache" } else { "" }
        )
    }

    fn run(&self, _context: &dyn TaskContext) -> anyhow::Result<Vec<Table>> {
        tables::tables(self)
    }

    fn verify(&self, stored: &StoredTask) -> anyhow::Result<Verdict> {
        verify::verify(self, stored)
    }

    fn cost_hint(&self) -> f64 {
        // About 2 ns per level state (N^2 / 4 per order and pass) and per minimax cell.
        let rows = (self.last - self.first + 1) as f64;
        let n = self.n as f64;
        rows * 2e-9 * (2.0 * n * n + if self.minimax { n * n / 2.0 } else { 0.0 } + 100.0 * n)
    }
}

impl Game for Cards {
    fn name(&self) -> &'static str {
        "cards"
    }

    fn tiny_config(&self) -> &'static str {
        "n = [6, 10]\ndistributions = [\"uniform-1-10\"]\nrows = 50\nseed = 1\n"
    }

    fn plan(&self, section: &Section) -> Result<Vec<Box<dyn Task>>, UserError> {
        let config: CardsConfig = section.parse()?;
        if config.distributions.is_empty() {
            return Err(section.invalid(&["distributions"], "needs at least one of \"cards\", \"uniform-LOW-HIGH\""));
        }
        let mut tasks = Vec::new();
        for &distribution in config.distributions.values() {
            for &n in config.n.values() {
                if let Some(max) = distribution.max_cards()
                    && n as usize > max
                {
                    return Err(section.invalid(
                        &["n"],
                        &format!("N = {n} is above {max}, the most cards the {distribution} model has"),
                    ));
                }
                let (rows, chunk) = (u64::from(config.rows.get()), u64::from(config.chunk.get()));
                for first in (0..rows).step_by(chunk as usize) {
                    tasks.push(Box::new(CardsTask {
                        n: n as usize,
                        distribution,
                        seed: config.seed,
                        first,
                        last: (first + chunk).min(rows) - 1,
                        minimax: n <= config.minimax_max_n.get(),
                        cache: config.cache,
                    }) as Box<dyn Task>);
                }
            }
        }
        Ok(tasks)
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        report::report(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_content_cache_scores_every_game_as_the_levels_do() {
        let plain = CardsTask {
            n: 40,
            distribution: Distribution::Uniform { low: 1, high: 3 },
            seed: 3,
            first: 0,
            last: 199,
            minimax: false,
            cache: false,
        };
        let cached = CardsTask { cache: true, ..plain.clone() };
        let scores = |task: &CardsTask| tables::games(task).iter().map(|g| g.score).collect::<Vec<_>>();
        assert_eq!(scores(&plain), scores(&cached));
    }
}
