//! The per-N pipeline of a solve task: each N of the task in order, float
//! column generation (warm-started from N - 1) -> exact stage -> face stage
//! (the built-in conjectures, Table 3.1's bound, first tried with N - 1's
//! height-limited alpha) -> its rows of every table
//! -> a checkpoint step, which also holds `warm_start`, the one row of N's
//! solution that N + 1 starts from (a table only checkpoints hold).

use super::chain_eta::ChainEta;
use super::exact_stage::exact_stage_reporting;
use super::face::face_stage;
use super::height_limit::HeightHints;
use super::solve::{FloatSolution, Method, SolveOptions, solve_reporting};
use super::stored::read_height_proofs;
use super::tables::{in_n_order, tables};
use super::tree::Tree;
use crate::artifacts::columns::Columns;
use crate::exact::Rational;
use crate::game::{Table, TaskContext};
use anyhow::{Context, anyhow};
use arrow::array::{Array, ArrayRef, Float64Array, ListArray, UInt8Array, UInt32Array};
use arrow::buffer::OffsetBuffer;
use arrow::datatypes::Field;
use arrow::record_batch::RecordBatch;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

/// Solves each N of `ns` in order and saves it as a step (its rows of every table
/// and what N + 1's warm start needs), so that a rerun after a kill loads
/// the saved N and solves only the rest. Each N warm-starts from the saved
/// form of N - 1's solution whether it was just solved or loaded, so a
/// resumed task solves exactly as an uninterrupted one.
pub fn solve_in_order(
    method: Method,
    tolerance: f64,
    ns: &[usize],
    context: &dyn TaskContext,
) -> anyhow::Result<Vec<Table>> {
    let options = SolveOptions::new(method, tolerance, 10_000_000);
    let mut previous: Option<FloatSolution> = None;
    // N - 1's height-limited alpha, where it had one: the first try for N's Table 3.1 bound.
    let mut previous_height: Option<Vec<Rational>> = None;
    let mut per_n = Vec::with_capacity(ns.len());
    let mut eta = ChainEta::default();
    for (k, &n) in ns.iter().enumerate() {
        let step = format!("n{n:04}");
        let of = format!("{} of {} N", k + 1, ns.len());
        // The N after this one, weighed once here rather than on every round's note.
        let after = &ChainEta::weigh(&ns[k + 1..]);
        let saved = context.load_step(&step).with_context(|| format!("N = {n}: loading step {step}"))?;
        let mut step_tables = match saved {
            Some(saved) => {
                if let Some(seconds) = warm_seconds(&saved) {
                    eta.record_warm(n, seconds);
                }
                context.progress(&format!("N = {n} resumed from checkpoint, {of}{}", eta.note(None, after)));
                saved
            }
            None => {
                let started = Instant::now();
                let left = || eta.note(Some((n, started.elapsed().as_secs_f64())), after);
                let float = solve_reporting(n, &options, previous.as_ref(), &|note| {
                    context.progress(&format!("N = {n} {note}, {of}{}", left()))
                });
                let repairing = |note: &str| {
                    context.progress(&format!("N = {n} repairing the float basis: {note}, {of}{}", left()))
                };
                let mut exact = exact_stage_reporting(&float, &repairing)
                    .map_err(|why| anyhow::anyhow!("N = {n}: exact stage failed: {why}"))?;
                let tallest = exact.certificate.bob_max_guesses;
                let face_hull = exact.face_hull.take();
                let hull_mixture = exact.face_mixture.as_ref().unwrap_or(&exact.bob);
                let claims = super::claims::builtin();
                let mut face = face_stage(
                    &exact.value,
                    &exact.alpha,
                    hull_mixture,
                    face_hull,
                    tallest,
                    claims,
                    HeightHints { previous: previous_height.as_deref(), priced: &float.pool },
                )
                .map_err(|why| {
                    anyhow::anyhow!("N = {n}: deciding the conjectures over the optimal face failed: {why}")
                })?;
                if let Some(pinned) = face.pinned_mixture.take() {
                    exact.face_mixture = Some(pinned);
                }
                let undecided: Vec<String> = face
                    .decided
                    .iter()
                    .filter_map(|d| d.why.as_ref().map(|why| format!("; {} undecided: {why}", d.name)))
                    .collect();
                if float.warm_started {
                    eta.record_warm(n, float.seconds + exact.seconds + face.seconds);
                }
                context.progress(&format!(
                    "N = {n} certified ({:.1} s + {:.1} s exact + {:.1} s face), {of}{}{}",
                    float.seconds,
                    exact.seconds,
                    face.seconds,
                    eta.note(None, after),
                    undecided.concat()
                ));
                let warm_start = warm_start(&float)?;
                let mut step_tables = tables(&[(float, exact, face)])?;
                step_tables.push(warm_start);
                context.save_step(&step, &step_tables)?;
                step_tables.into_iter().map(|t| (t.name.to_string(), t.batch)).collect()
            }
        };
        let warm_start = step_tables
            .remove(WARM_START)
            .ok_or_else(|| anyhow::anyhow!("N = {n}: step {step} has no table {}", WARM_START))?;
        previous = Some(read_warm_start(&warm_start, method).with_context(|| format!("N = {n}: reading step {step}"))?);
        // Read back from the step's rows, so that a resumed task tries what an uninterrupted one tries.
        let heights = step_tables
            .get("height_proofs")
            .ok_or_else(|| anyhow::anyhow!("N = {n}: step {step} has no table height_proofs"))?;
        previous_height =
            read_height_proofs(heights)?.remove(&(n as u32)).map(|(_, alpha)| alpha.into_values().collect());
        per_n.push(step_tables);
    }
    in_n_order(per_n)
}

/// The stage sums (solve + exact + face) a saved step recorded for its N, if
/// that N was warm-started and they can be read: what the chain's ETA learns
/// from a resumed N (only the estimate reads them, so a step without them
/// leaves it out).
fn warm_seconds(saved: &BTreeMap<String, RecordBatch>) -> Option<f64> {
    let values = saved.get("values").filter(|values| values.num_rows() == 1)?;
    if !values.bools("warm_started").ok()?.value(0) {
        return None;
    }
    ["solve_seconds", "exact_seconds", "face_seconds"].iter().map(|name| Some(values.f64s(name).ok()?.value(0))).sum()
}

/// Name of the checkpoint-only table that carries N's solution to N + 1.
pub const WARM_START: &str = "warm_start";

/// What N + 1's warm start reads of N's solution, as one row: n, beta
/// (list<f64>) and pool (each tree as its depth vector, list<list<u8>>).
pub fn warm_start(float: &FloatSolution) -> anyhow::Result<Table> {
    let depths = UInt8Array::from_iter_values(float.pool.iter().flat_map(|t| t.depths().iter().copied()));
    let trees = lists(Arc::new(depths), float.pool.iter().map(Tree::len));
    let batch = RecordBatch::try_from_iter([
        ("n", Arc::new(UInt32Array::from(vec![float.n as u32])) as ArrayRef),
        ("beta", lists(Arc::new(Float64Array::from(float.beta.clone())), [float.beta.len()])),
        ("pool", lists(trees, [float.pool.len()])),
    ])?;
    Ok(Table { name: WARM_START, batch })
}

/// N's solution rebuilt from its `warm_start` row, with what the warm start
/// reads (n, beta, pool) and neutral values elsewhere.
pub fn read_warm_start(batch: &RecordBatch, method: Method) -> anyhow::Result<FloatSolution> {
    anyhow::ensure!(batch.num_rows() == 1, "{WARM_START} has {} rows instead of 1", batch.num_rows());
    let list = |name: &str| -> anyhow::Result<ArrayRef> { Ok(batch.column_as::<ListArray>(name)?.value(0)) };
    let beta = list("beta")?;
    let beta = beta.as_any().downcast_ref::<Float64Array>().ok_or_else(|| anyhow!("beta: not f64 lists"))?;
    let pool = list("pool")?;
    let pool = pool.as_any().downcast_ref::<ListArray>().ok_or_else(|| anyhow!("pool: not lists of lists"))?;
    let pool = (0..pool.len())
        .map(|k| {
            let depths = pool.value(k);
            let depths = depths.as_any().downcast_ref::<UInt8Array>().ok_or_else(|| anyhow!("pool: not u8 lists"))?;
            Tree::from_depths(depths.values().to_vec()).map_err(|why| anyhow!("pool tree {k}: {why}"))
        })
        .collect::<anyhow::Result<_>>()?;
    let n = batch.u32s("n")?.value(0) as usize;
    Ok(FloatSolution::starting_point(n, method, beta.values().to_vec(), pool))
}

/// `values` cut into consecutive lists of the given lengths (items non-null).
fn lists(values: ArrayRef, lengths: impl IntoIterator<Item = usize>) -> ArrayRef {
    let item = Arc::new(Field::new("item", values.data_type().clone(), false));
    Arc::new(ListArray::new(item, OffsetBuffer::from_lengths(lengths), values, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// Keeps steps in memory, as the orchestrator keeps them on disk.
    #[derive(Default)]
    struct MemorySteps {
        steps: RefCell<BTreeMap<String, BTreeMap<String, RecordBatch>>>,
        notes: RefCell<Vec<String>>,
    }

    impl crate::game::Inputs for MemorySteps {
        fn input(&self, task: &str, _table: &str) -> anyhow::Result<RecordBatch> {
            anyhow::bail!("a solve task reads no other task ({task})")
        }
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
            let ns: Vec<usize> = (1..=14).collect();
            let run = |steps: &MemorySteps| solve_in_order(method, 1e-10, &ns, steps);
            let whole = MemorySteps::default();
            let expected = run(&whole).unwrap();
            assert_eq!(whole.steps.borrow().len(), 14);
            let mut names: Vec<&str> = expected.iter().map(|t| t.name).collect();
            names.dedup();
            assert_eq!(expected.len(), 14 * names.len(), "one table per N and name");
            assert_eq!(
                names,
                [
                    "values",
                    "alice",
                    "bob",
                    "face_mixture",
                    "trace",
                    "conjectures",
                    "conjecture_proofs",
                    "face_trees",
                    "face_cuts",
                    "height_proofs"
                ]
            );

            // Killed after N = 6: the rerun loads N = 1..6 and solves the rest warm.
            let resumed = MemorySteps::default();
            resumed
                .steps
                .borrow_mut()
                .extend(whole.steps.take().into_iter().filter(|(step, _)| step.as_str() <= "n0006"));
            let tables = run(&resumed).unwrap();
            assert_eq!(resumed.steps.borrow().len(), 14, "N = 7..14 saved");
            // The cold N = 1 gives no estimate; the warm N = 2..6 give the chain's ETA from their
            // stored seconds, on every line from then on.
            let notes = resumed.notes.borrow();
            assert_eq!(notes[0], "N = 1 resumed from checkpoint, 1 of 14 N");
            assert!(notes[5].starts_with("N = 6 resumed from checkpoint, 6 of 14 N, about "), "{notes:?}");
            let (last, solving) = notes[6..].split_last().unwrap();
            assert!(solving.iter().all(|note| note.contains(" left in this chain")), "{notes:?}");
            assert!(last.starts_with("N = 14 certified") && !last.contains(" left in"), "{last}");
            // After the resumed N, N = 7 solves (each round noted), then is certified.
            assert!(notes[6].starts_with("N = 7 solving, round 1, V between"), "{notes:?}");
            let after_rounds = notes[6..].iter().find(|note| !note.starts_with("N = 7 solving"));
            assert!(after_rounds.is_some_and(|note| note.starts_with("N = 7 certified")), "{notes:?}");
            assert_eq!(without_timings(tables), without_timings(expected), "{method:?}");
        }
    }
}
