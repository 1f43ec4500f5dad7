//! The `[nim]` config section and its expansion into tasks.

use super::task::NimTask;
use crate::config::Section;
use crate::error::UserError;
use crate::game::check_task_count;
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

/// The section's tasks, in a stable order.
pub fn plan(section: &Section) -> Result<Vec<NimTask>, UserError> {
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
        check_task_count(total.div_ceil(chunk)).map_err(|why| section.invalid(&["random", "chunk"], &why))?;
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
    Ok(tasks)
}
