//! Cards from either end against a greedy opponent (seed 002): the optimal
//! play against greedy in O(N^2) time and O(N) memory with its moves, the
//! minimax value, greedy and one-step-lookahead baselines, swept over random
//! rows of two card models, verified by an independent DP and brute force.

pub mod card_rows;
mod config;
pub mod greedy;
pub mod optimal;
pub mod play;
mod report;
mod tables;
mod task;
mod verify;

use crate::config::Section;
use crate::error::UserError;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict, boxed};
use task::CardsTask;

/// The game as the registry holds it (`games::all`).
pub struct Cards;

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
        Ok(boxed(config::plan(section)?))
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        report::report(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use card_rows::Distribution;

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
