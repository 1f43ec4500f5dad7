//! Higher-lower (Dresher's guessing game, seed 000): column generation in
//! floating point, then an exact stage that solves the final basis with
//! p-adic lifting, repairs it with exact pivots if needed, and certifies the
//! value from both sides.

pub mod certificate;
pub mod conjectures;
pub mod exact_stage;
pub mod face;
mod figures;
pub mod height_limit;
mod kernels;
pub mod master;
pub mod pricing;
mod proofs;
mod report;
pub mod solver;
pub mod symmetric;
mod tables;
pub mod tree;
pub mod verdicts;
mod verify;

use crate::config::Section;
use crate::error::UserError;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict};
use crate::grid::{Bounded, Distinct, IntGrid};
use anyhow::Context;
use serde::Deserialize;
use solver::{FloatSolution, Method, SolveOptions};

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

pub struct HigherLower;

/// One task: consecutive N (or a run of the configured N) for one method.
#[derive(Debug, Clone, PartialEq)]
struct HigherLowerTask {
    method: Method,
    ns: Vec<usize>,
    tolerance: f64,
}

impl Task for HigherLowerTask {
    fn id(&self) -> String {
        let (first, last) = (self.ns[0], self.ns[self.ns.len() - 1]);
        if self.ns.len() == last - first + 1 {
            format!("{}-n{first}-{last}", self.method.as_str())
        } else {
            format!("{}-n{}", self.method.as_str(), self.ns.iter().map(usize::to_string).collect::<Vec<_>>().join("."))
        }
    }

    /// Solves each N in order and saves it as a step (its rows of every table
    /// and what N + 1's warm start needs), so that a rerun after a kill loads
    /// the saved N and solves only the rest. Each N warm-starts from the saved
    /// form of N - 1's solution whether it was just solved or loaded, so a
    /// resumed task solves exactly as an uninterrupted one.
    fn run(&self, context: &dyn TaskContext) -> anyhow::Result<Vec<Table>> {
        let options = SolveOptions::new(self.method, self.tolerance, 10_000_000);
        let mut previous: Option<FloatSolution> = None;
        let mut per_n = Vec::with_capacity(self.ns.len());
        for (k, &n) in self.ns.iter().enumerate() {
            let step = format!("n{n:04}");
            let of = format!("{} of {} N", k + 1, self.ns.len());
            let saved = context.load_step(&step).with_context(|| format!("N = {n}: loading step {step}"))?;
            let mut step_tables = match saved {
                Some(saved) => {
                    context.progress(&format!("N = {n} resumed from checkpoint, {of}"));
                    saved
                }
                None => {
                    let float = solver::solve(n, &options, previous.as_ref());
                    let exact = exact_stage::exact_stage(&float)
                        .map_err(|why| anyhow::anyhow!("N = {n}: exact stage failed: {why}"))?;
                    let face =
                        verdicts::face_stage(&exact.value, &exact.alpha, &exact.bob, exact.certificate.bob_max_guesses)
                            .map_err(|why| {
                                anyhow::anyhow!("N = {n}: deciding the conjectures over the optimal face failed: {why}")
                            })?;
                    let undecided: Vec<String> = face
                        .decided
                        .iter()
                        .filter_map(|d| d.why.as_ref().map(|why| format!("; {} undecided: {why}", d.name)))
                        .collect();
                    context.progress(&format!(
                        "N = {n} certified ({:.1} s + {:.1} s exact + {:.1} s face), {of}{}",
                        float.seconds,
                        exact.seconds,
                        face.seconds,
                        undecided.concat()
                    ));
                    let warm_start = tables::warm_start(&float)?;
                    let mut step_tables = tables::tables(&[(float, exact, face)])?;
                    step_tables.push(warm_start);
                    context.save_step(&step, &step_tables)?;
                    step_tables.into_iter().map(|t| (t.name.to_string(), t.batch)).collect()
                }
            };
            let warm_start = step_tables
                .remove(tables::WARM_START)
                .ok_or_else(|| anyhow::anyhow!("N = {n}: step {step} has no table {}", tables::WARM_START))?;
            previous = Some(
                tables::read_warm_start(&warm_start, self.method)
                    .with_context(|| format!("N = {n}: reading step {step}"))?,
            );
            per_n.push(step_tables);
        }
        tables::concat(&per_n)
    }

    fn verify(&self, stored: &StoredTask) -> anyhow::Result<Verdict> {
        verify::verify(self.method, &self.ns, stored)
    }

    fn cost_hint(&self) -> f64 {
        self.ns.iter().map(|&n| expected_solve_cost(n) * self.method.relative_cost()).sum()
    }

    /// The column pool (trees and their columns) grows faster than N^2 near a
    /// power of two. Measured peak RSS with one worker: 104 MB for the chain
    /// 505..512; the 1024 sweep peaked at 1.0 GB with two workers on the
    /// chains just below 1024. Above that the cube is a projection.
    fn memory_hint_mb(&self) -> u64 {
        let n = self.ns.iter().copied().max().unwrap_or(1) as f64;
        (48.0 + 56.0 * (n / 512.0).powi(3)).ceil() as u64
    }
}

/// A rough model of the seconds one N takes, for scheduling only: the master
/// costs about m^4 (m^2 pivots of O(m^2)), many times more just below a power
/// of two, where Alice's strategy is not the uniform interior and column
/// generation needs far more rounds (N = 993: 70-100 s warm, N = 956: 12 s,
/// N = 701: 1.2 s).
fn expected_solve_cost(n: usize) -> f64 {
    let m = n.div_ceil(2) as f64;
    let octave = (n as f64).log2().floor().exp2();
    let position = n as f64 / octave; // in [1, 2): how far N is into its octave
    1e-11 * m.powi(4) / (2.02 - position).powi(2) + 1e-8 * m.powi(3)
}

impl Game for HigherLower {
    fn name(&self) -> &'static str {
        "higher_lower"
    }

    fn tiny_config(&self) -> &'static str {
        "n = { from = 1, to = 12 }\nmethods = [\"auto\"]\nchunk = 6\n"
    }

    fn plan(&self, section: &Section) -> Result<Vec<Box<dyn Task>>, UserError> {
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
                chunks.iter().map(move |ns| {
                    Box::new(HigherLowerTask { method, ns: ns.clone(), tolerance: config.tolerance.0 }) as Box<dyn Task>
                })
            })
            .collect())
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        report::report(data)
    }
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
    use arrow::record_batch::RecordBatch;
    use std::cell::RefCell;
    use std::collections::BTreeMap;

    /// Keeps steps in memory, as the orchestrator keeps them on disk.
    #[derive(Default)]
    struct MemorySteps {
        steps: RefCell<BTreeMap<String, BTreeMap<String, RecordBatch>>>,
        notes: RefCell<Vec<String>>,
    }

    impl TaskContext for MemorySteps {
        fn progress(&self, note: &str) {
            self.notes.borrow_mut().push(note.to_string());
        }
        fn save_step(&self, step: &str, tables: &[Table]) -> anyhow::Result<()> {
            let tables = tables.iter().map(|t| (t.name.to_string(), t.batch.clone())).collect();
            assert!(self.steps.borrow_mut().insert(step.to_string(), tables).is_none(), "{step} saved twice");
            Ok(())
        }
        fn load_step(&self, step: &str) -> anyhow::Result<Option<BTreeMap<String, RecordBatch>>> {
            Ok(self.steps.borrow().get(step).cloned())
        }
    }

    /// The tables without their timing columns, which differ between runs.
    fn without_timings(tables: Vec<Table>) -> Vec<(&'static str, RecordBatch)> {
        tables
            .into_iter()
            .map(|t| {
                let keep: Vec<usize> = (0..t.batch.num_columns())
                    .filter(|&i| !t.batch.schema().field(i).name().ends_with("_seconds"))
                    .collect();
                (t.name, t.batch.project(&keep).unwrap())
            })
            .collect()
    }

    #[test]
    fn a_task_resumed_from_its_steps_writes_what_an_uninterrupted_one_writes() {
        for method in [Method::Auto, Method::Guess] {
            let task = HigherLowerTask { method, ns: (1..=14).collect(), tolerance: 1e-10 };
            let whole = MemorySteps::default();
            let expected = task.run(&whole).unwrap();
            assert_eq!(whole.steps.borrow().len(), 14);
            assert_eq!(
                expected.iter().map(|t| t.name).collect::<Vec<_>>(),
                ["values", "alice", "bob", "trace", "conjectures", "conjecture_proofs", "face_trees", "height_proofs"]
            );

            // Killed after N = 6: the rerun loads N = 1..6 and solves the rest warm.
            let resumed = MemorySteps::default();
            resumed
                .steps
                .borrow_mut()
                .extend(whole.steps.take().into_iter().filter(|(step, _)| step.as_str() <= "n0006"));
            let tables = task.run(&resumed).unwrap();
            assert_eq!(resumed.steps.borrow().len(), 14, "N = 7..14 saved");
            assert!(resumed.notes.borrow().contains(&"N = 6 resumed from checkpoint, 6 of 14 N".to_string()));
            assert!(resumed.notes.borrow()[6].starts_with("N = 7 certified"), "{:?}", resumed.notes.borrow());
            assert_eq!(without_timings(tables), without_timings(expected), "{method:?}");
        }
    }

    #[test]
    fn chunks_follow_consecutive_runs() {
        assert_eq!(chunk_runs(&[1, 2, 3, 4, 5], 2), vec![vec![1, 2], vec![3, 4], vec![5]]);
        assert_eq!(chunk_runs(&[1, 2, 5, 6, 7, 9], 10), vec![vec![1, 2], vec![5, 6, 7], vec![9]]);
        let task = HigherLowerTask { method: Method::Auto, ns: vec![5, 6, 7], tolerance: 1e-10 };
        assert_eq!(task.id(), "auto-n5-7");
    }
}
