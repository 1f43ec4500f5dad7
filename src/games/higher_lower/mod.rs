//! Higher-lower (Dresher's guessing game, seed 000). A solve task takes
//! each N of its chunk through four stages (`pipeline`), then writes its
//! rows and a checkpoint:
//!
//! 1. `solve/`: column generation in floating point (Bob's restricted master,
//!    trees priced by the DPs of `pricing`), warm-started from N - 1;
//! 2. `exact_stage/`: the final basis solved exactly (p-adic lifting),
//!    repaired by exact pivots if needed, V certified from both sides;
//! 3. `face/`: every claim (`claims/`: the built-in conjectures) decided over
//!    all of Alice's optimal strategies, with exact proofs;
//! 4. `height_limit`: Table 3.1's proven bound on Bob's tallest tree.
//!
//! A claim task (`claim_task`) decides one more claim on a solve task's
//! stored solutions (from a config's `conjectures`, or `gamesweep conjecture`,
//! `conjecture_command`). `verify` re-derives both kinds from their rows.

mod chain_eta;
mod claim_task;
pub mod claims;
mod config;
pub mod conjecture_command;
pub mod exact_stage;
pub mod face;
mod figures;
pub mod height_limit;
pub mod hull;
pub mod mixture;
pub mod oeis;
mod pipeline;
pub mod pricing;
mod report;
pub mod solve;
mod stored;
pub mod symmetric;
mod tables;
mod task;
pub mod tree;
mod verify;

use crate::config::Section;
use crate::error::UserError;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict, boxed};
use std::collections::BTreeMap;
use task::{ClaimTask, HigherLowerTask, expected_claim_cost, expected_solve_cost};

/// The game as the registry holds it (`games::all`).
pub struct HigherLower;

impl Task for HigherLowerTask {
    fn id(&self) -> String {
        HigherLowerTask::id(self)
    }

    fn run(&self, context: &dyn TaskContext) -> anyhow::Result<Vec<Table>> {
        pipeline::solve_in_order(self.method, self.tolerance, &self.ns, context)
    }

    fn verify(&self, stored: &StoredTask) -> anyhow::Result<Verdict> {
        verify::verify(self.method, &self.ns, stored)
    }

    fn cost_hint(&self) -> f64 {
        self.ns.iter().map(|&n| expected_solve_cost(n) * self.method.relative_cost()).sum()
    }

    /// The column pool (trees and their columns) grows faster than N^2 near a
    /// power of two, so that part grows as N^3, fitted to the peak RSS of one
    /// worker on the chain just below 512 and of the 1024 sweep
    /// (docs/history.md#43701e3-memory-hints-for-cluster-requests); above 1024
    /// the cube is a projection. The task holds every N's tables until it
    /// writes them, about 8 bytes per N^2 (Bob's trees are N bytes each),
    /// fitted to the chain 1..600 in one task (0.70 GB)
    /// (docs/history.md#eb747e3-two-chains-for-the-1024-sweep-a-tasks-parts-written-without-concatenation).
    fn memory_hint_mb(&self) -> u64 {
        let n = self.ns.iter().copied().max().unwrap_or(1) as f64;
        let tables: f64 = self.ns.iter().map(|&n| (n * n) as f64).sum::<f64>() * 8e-6;
        (48.0 + 56.0 * (n / 512.0).powi(3) + tables).ceil() as u64
    }

    /// The tolerance decides where column generation stops, so what the
    /// float stage stores (the exact stage certifies either way).
    fn settings(&self) -> BTreeMap<&'static str, String> {
        BTreeMap::from([("tolerance", format!("{:e}", self.tolerance))])
    }
}

impl Task for ClaimTask {
    fn id(&self) -> String {
        ClaimTask::id(self)
    }

    fn run(&self, context: &dyn TaskContext) -> anyhow::Result<Vec<Table>> {
        claim_task::run(self, context)
    }

    fn verify(&self, stored: &StoredTask) -> anyhow::Result<Verdict> {
        verify::verify_claim(self, stored)
    }

    fn cost_hint(&self) -> f64 {
        self.ns.iter().map(|&n| expected_claim_cost(n)).sum()
    }

    /// The face of one N at a time per thread, and the source's tables.
    fn memory_hint_mb(&self) -> u64 {
        let n = self.ns.iter().copied().max().unwrap_or(1) as f64;
        (64.0 + 32.0 * (n / 512.0).powi(2)).ceil() as u64
    }

    fn inputs(&self) -> Vec<String> {
        vec![self.source_id()]
    }

    /// A claim's name is in the id; what it states and where it applies are not.
    fn settings(&self) -> BTreeMap<&'static str, String> {
        let claim = &self.claim;
        BTreeMap::from([
            ("statement", claim.statement.text().to_string()),
            ("from", claim.from.to_string()),
            ("when", claim.when.as_ref().map_or("", |w| w.text()).to_string()),
        ])
    }
}

impl Game for HigherLower {
    fn name(&self) -> &'static str {
        "higher_lower"
    }

    fn tiny_config(&self) -> &'static str {
        "n = { from = 1, to = 12 }\nmethods = [\"auto\"]\nchunk = 6\n"
    }

    fn plan(&self, section: &Section) -> Result<Vec<Box<dyn Task>>, UserError> {
        let (solve, claims) = config::plan(section)?;
        let mut tasks = boxed(solve);
        tasks.extend(boxed(claims));
        Ok(tasks)
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        report::report(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solve::Method;

    #[test]
    fn ids_name_the_method_and_the_n() {
        let task = |ns: Vec<usize>| HigherLowerTask { method: Method::Auto, ns, tolerance: 1e-10 };
        assert_eq!(task(vec![5, 6, 7]).id(), "auto-n5-7");
        assert_eq!(task(vec![1, 3]).id(), "auto-n1.3");
    }
}
