//! Nim (seed 003): Pi's grouping, Phi's halving and Bouton's XOR rule, each
//! checked against exhaustive game search on every small position and
//! against one another on random positions with heaps up to 2^62.

pub mod algorithms;
pub mod brute;
mod config;
mod report;
mod tables;
mod task;
mod verify;

use crate::config::Section;
use crate::error::UserError;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict, boxed};
use task::NimTask;

/// The game as the registry holds it (`games::all`).
pub struct Nim;

impl Task for NimTask {
    fn id(&self) -> String {
        match self {
            NimTask::Exhaustive { heaps, max_heap } => format!("exhaustive-h{heaps}-max{max_heap}"),
            NimTask::Random { heaps, bits, seed, first, last } => {
                format!("random-h{heaps}-b{bits}-s{seed}-{first}-{last}")
            }
            NimTask::Halving { positions } => {
                let text: Vec<String> =
                    positions.iter().map(|p| p.iter().map(u64::to_string).collect::<Vec<_>>().join("_")).collect();
                format!("halving-{}", text.join("."))
            }
        }
    }

    fn run(&self, _context: &dyn TaskContext) -> anyhow::Result<Vec<Table>> {
        tables::tables(self)
    }

    fn verify(&self, stored: &StoredTask) -> anyhow::Result<Verdict> {
        verify::verify(self, stored)
    }

    fn cost_hint(&self) -> f64 {
        match self {
            NimTask::Exhaustive { heaps, max_heap } => 1e-6 * (*max_heap as f64 + 1.0).powi(*heaps as i32),
            NimTask::Random { first, last, .. } => 2e-6 * (last - first + 1) as f64,
            NimTask::Halving { .. } => 0.001,
        }
    }
}

impl Game for Nim {
    fn name(&self) -> &'static str {
        "nim"
    }

    fn tiny_config(&self) -> &'static str {
        "exhaustive = { heaps = 3, max_heap = 7 }\nexamples = [[3, 4, 5]]\n"
    }

    fn plan(&self, section: &Section) -> Result<Vec<Box<dyn Task>>, UserError> {
        Ok(boxed(config::plan(section)?))
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        report::report(data)
    }
}
