//! The `[higher_lower]` config section and its expansion into tasks.

use super::solve::Method;
use super::task::HigherLowerTask;
use crate::config::Section;
use crate::error::UserError;
use crate::grid::{Bounded, Distinct, IntGrid};
use serde::Deserialize;

/// Hard upper limit on N (keys); `max_n` may be raised up to this.
pub const HARD_MAX_N: u32 = 4096;

/// The `[higher_lower]` config section.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HigherLowerConfig {
    /// The N to solve: one value, a list, or a range.
    n: IntGrid<1, HARD_MAX_N>,
    /// Largest N this config may request (a guard against typos like 10000).
    #[serde(default = "default_max_n")]
    max_n: Bounded<1, HARD_MAX_N>,
    /// Solver methods, one task series each.
    #[serde(default = "default_methods")]
    methods: Distinct<Method>,
    /// Relative gap between the float bounds at which column generation stops.
    #[serde(default = "default_tolerance")]
    tolerance: Tolerance,
    /// Consecutive N per task: within a task each N warm-starts from N-1.
    #[serde(default = "default_chunk")]
    chunk: Bounded<1, HARD_MAX_N>,
}

fn default_max_n() -> Bounded<1, HARD_MAX_N> {
    const { Bounded::new(1024) }
}
fn default_methods() -> Distinct<Method> {
    Distinct::from(vec![Method::Auto])
}
fn default_tolerance() -> Tolerance {
    Tolerance(1e-10)
}
fn default_chunk() -> Bounded<1, HARD_MAX_N> {
    const { Bounded::new(25) }
}

/// A relative tolerance in (0, 0.1].
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(try_from = "f64")]
struct Tolerance(f64);

impl TryFrom<f64> for Tolerance {
    type Error = String;
    fn try_from(value: f64) -> Result<Self, String> {
        if value > 0.0 && value <= 0.1 {
            Ok(Tolerance(value))
        } else {
            Err(format!("invalid value {value}, expected a tolerance in (0, 0.1], e.g. 1e-10"))
        }
    }
}

/// The section's tasks, in a stable order.
pub fn plan(section: &Section) -> Result<Vec<HigherLowerTask>, UserError> {
    let config: HigherLowerConfig = section.parse()?;
    let max_n = config.max_n.get();
    if let Some(&too_big) = config.n.values().iter().find(|&&n| n > max_n) {
        return Err(section.invalid(
            &["n"],
            &format!("N = {too_big} is above max_n = {max_n} (raise max_n, at most {HARD_MAX_N}, to allow it)"),
        ));
    }
    if config.methods.is_empty() {
        return Err(section.invalid(&["methods"], "needs at least one of dresher, fast-pricing, guess, auto"));
    }
    let mut ns: Vec<usize> = config.n.values().iter().map(|&n| n as usize).collect();
    ns.sort_unstable();
    let chunks = chunk_runs(&ns, config.chunk.get() as usize);
    let mut methods = config.methods.values().to_vec();
    methods.sort();
    Ok(methods
        .into_iter()
        .flat_map(|method| {
            chunks.iter().map(move |ns| HigherLowerTask { method, ns: ns.clone(), tolerance: config.tolerance.0 })
        })
        .collect())
}

/// Splits sorted N into runs of consecutive values of at most `size` each.
fn chunk_runs(ns: &[usize], size: usize) -> Vec<Vec<usize>> {
    let mut chunks: Vec<Vec<usize>> = Vec::new();
    for &n in ns {
        match chunks.last_mut() {
            Some(last) if last.len() < size && last.last() == Some(&(n - 1)) => last.push(n),
            _ => chunks.push(vec![n]),
        }
    }
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_follow_consecutive_runs() {
        assert_eq!(chunk_runs(&[1, 2, 3, 4, 5], 2), vec![vec![1, 2], vec![3, 4], vec![5]]);
        assert_eq!(chunk_runs(&[1, 2, 5, 6, 7, 9], 10), vec![vec![1, 2], vec![5, 6, 7], vec![9]]);
    }
}
