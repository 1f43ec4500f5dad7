//! Nim (seed 003): Pi's grouping, Phi's halving and Bouton's XOR rule, each
//! checked against exhaustive game search on every small position and
//! against one another on random positions with heaps up to 2^62.

pub mod algorithms;
pub mod brute;
mod report;
mod tables;
mod verify;

use crate::config::Section;
use crate::error::UserError;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict};
use crate::grid::{Bounded, Distinct};
use serde::Deserialize;

/// Largest heap of a random position: 2^62.
pub const MAX_RANDOM_HEAP: u64 = 1 << 62;

/// The `[nim]` config section.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NimConfig {
    /// Every position of up to `heaps` heaps of at most `max_heap` coins (as sorted tuples).
    exhaustive: Option<ExhaustiveConfig>,
    random: Option<RandomConfig>,
    /// Positions whose halving tables (Phi's algorithm) are written in full.
    #[serde(default)]
    examples: Distinct<Vec<u64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExhaustiveConfig {
    heaps: Bounded<1, 8>,
    max_heap: Bounded<1, 1000>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RandomConfig {
    positions: Bounded<1, 100_000_000>,
    /// Heaps per position (2..=this).
    heaps: Bounded<2, 64>,
    /// Heaps are uniform in 0..=2^bits - 1 (bits at most 62).
    bits: Bounded<1, 62>,
    #[serde(default)]
    seed: u64,
    #[serde(default = "default_chunk")]
    chunk: Bounded<1, 100_000_000>,
}

fn default_chunk() -> Bounded<1, 100_000_000> {
    const { Bounded::new(100_000) }
}

pub struct Nim;

#[derive(Debug, Clone, PartialEq)]
pub enum NimTask {
    Exhaustive { heaps: usize, max_heap: u64 },
    Random { heaps: usize, bits: u32, seed: u64, first: u64, last: u64 },
    Halving { positions: Vec<Vec<u64>> },
}

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
        let config: NimConfig = section.parse()?;
        let mut tasks = Vec::new();
        if let Some(e) = &config.exhaustive {
            let count = (f64::from(e.max_heap.get()) + 1.0).powi(e.heaps.get() as i32);
            if count > 1e9 {
                return Err(section.invalid(
                    &["exhaustive"],
                    &format!(
                        "{} heaps of up to {} coins is too many positions for exhaustive search (at most 1e9 tuples)",
                        e.heaps.get(),
                        e.max_heap.get()
                    ),
                ));
            }
            tasks.push(NimTask::Exhaustive { heaps: e.heaps.get() as usize, max_heap: u64::from(e.max_heap.get()) });
        }
        if let Some(r) = &config.random {
            let (total, chunk) = (u64::from(r.positions.get()), u64::from(r.chunk.get()));
            for first in (0..total).step_by(chunk as usize) {
                tasks.push(NimTask::Random {
                    heaps: r.heaps.get() as usize,
                    bits: r.bits.get(),
                    seed: r.seed,
                    first,
                    last: (first + chunk).min(total) - 1,
                });
            }
        }
        if !config.examples.is_empty() {
            if config.examples.values().iter().any(|p| p.is_empty() || p.iter().any(|&h| h > MAX_RANDOM_HEAP)) {
                return Err(section.invalid(&["examples"], "each example is a non-empty list of heaps from 0 to 2^62"));
            }
            tasks.push(NimTask::Halving { positions: config.examples.values().to_vec() });
        }
        if tasks.is_empty() {
            return Err(section.invalid(&[], "nothing to solve: give exhaustive, random or examples"));
        }
        Ok(tasks.into_iter().map(|t| Box::new(t) as Box<dyn Task>).collect())
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        report::report(data)
    }
}
