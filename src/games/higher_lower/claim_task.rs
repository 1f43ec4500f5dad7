//! A claim decided on a solve task's stored solutions, without solving
//! again: at each N of the claim task, the face is rebuilt from the stored
//! V, alpha and Bob's mixture, starts from the trees the sweep found as cuts
//! (`face_cuts`) and the box it proved (among its stored proofs), and the
//! claim is decided over it (`face::verdicts`). Where the stored face
//! dimension is 0, alpha* is Alice's only optimal strategy and decides the
//! claim alone (the face, costly to build, is skipped; `verify` rebuilds it
//! and finds the dimension again). Each N is saved as a step,
//! so a killed run resumes after the last saved N; the N of a batch are
//! decided side by side on the run's threads.

use super::claims::AtN;
use super::face::polytope::{AliceFace, LowerBound};
use super::face::proofs;
use super::face::verdicts::{ClaimVerdict, Decided, decide_claim, decide_on_the_only_alpha};
use super::stored::{self, Solution};
use super::tables::{conjecture_row, conjectures};
use super::task::ClaimTask;
use super::tree::Tree;
use crate::game::{Table, TaskContext};
use anyhow::{Context, anyhow};
use arrow::record_batch::RecordBatch;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

/// The tables a claim task writes (and each of its steps holds).
const TABLES: [&str; 3] = ["conjectures", "conjecture_proofs", "face_trees"];

/// What the sweep stored that a claim at one N needs.
struct Source {
    solutions: BTreeMap<u32, Solution>,
    cuts: BTreeMap<u32, Vec<Tree>>,
    boxes: BTreeMap<u32, BTreeMap<(usize, i8), LowerBound>>,
}

pub fn run(task: &ClaimTask, context: &dyn TaskContext) -> anyhow::Result<Vec<Table>> {
    let source_id = task.source_id();
    let input = |table: &str| context.input(&source_id, table).with_context(|| format!("reading {source_id}"));
    // The face cache only saves work: without it (a damaged part, a run of an
    // older version) every LP finds its cuts again, and verify re-proves the
    // verdicts either way.
    let cache = || -> anyhow::Result<_> {
        let stored_proofs = proofs::read(&input("conjecture_proofs")?, &input("face_trees")?)?;
        Ok((stored::cuts(&input("face_cuts")?)?, stored::boxes(&stored_proofs)))
    };
    let (cuts, boxes) = cache().unwrap_or_else(|why| {
        context.progress(&format!("deciding without the face cache ({why:#})"));
        Default::default()
    });
    let mixtures = [&input("bob")?, &input("face_mixture")?];
    let solutions = stored::solutions(&input("values")?, &input("alice")?, Some(mixtures))?;
    let source = Source { solutions, cuts, boxes };
    let mut per_n: BTreeMap<usize, BTreeMap<String, RecordBatch>> = BTreeMap::new();
    let mut todo = Vec::new();
    for &n in &task.ns {
        match context.load_step(&step(n))? {
            Some(saved) => {
                per_n.insert(n, saved);
            }
            None => todo.push(n),
        }
    }
    if todo.len() < task.ns.len() {
        context.progress(&format!("{} of {} N resumed from checkpoints", task.ns.len() - todo.len(), task.ns.len()));
    }
    // Batches as wide as the pool: an idle thread takes an N of this task.
    let width = 2 * rayon::current_num_threads().max(1);
    for batch in todo.chunks(width) {
        let decided: Vec<(usize, anyhow::Result<DecidedAt>)> =
            batch.par_iter().with_max_len(1).map(|&n| (n, decide_at(task, &source, n))).collect();
        for (n, result) in decided {
            let (tables, note) = result?;
            context.save_step(&step(n), &tables)?;
            per_n.insert(n, tables.into_iter().map(|t| (t.name.to_string(), t.batch)).collect());
            context.progress(&format!("N = {n}: {note}, {} of {} N", per_n.len(), task.ns.len()));
        }
    }
    concat(&per_n)
}

fn step(n: usize) -> String {
    format!("n{n:04}")
}

/// One N's rows of the three tables, and a note for the progress line.
type DecidedAt = (Vec<Table>, String);

/// The claim at N.
fn decide_at(task: &ClaimTask, source: &Source, n: usize) -> anyhow::Result<DecidedAt> {
    let start = Instant::now();
    let solution = source.solutions.get(&(n as u32)).ok_or_else(|| anyhow!("{} has no N = {n}", task.source_id()))?;
    let claim = &task.claim;
    let decided = match claim.at(n) {
        AtN::NotApplicable(_) => Decided {
            name: claim.name.as_str().to_string(),
            verdict: ClaimVerdict::NotApplicable,
            proofs: Vec::new(),
            why: None,
        },
        AtN::Applies(_) if solution.face_dimension == 0 => decide_on_the_only_alpha(&solution.alpha, claim),
        AtN::Applies(_) => {
            let face = AliceFace::new(&solution.value, &solution.alpha, solution.hull_mixture())
                .map_err(|why| anyhow!("N = {n}: the optimal face: {why}"))?;
            if let Some(cuts) = source.cuts.get(&(n as u32)) {
                face.add_cuts(cuts.iter().cloned());
            }
            if let Some(sides) = source.boxes.get(&(n as u32)) {
                let whole: Option<Vec<[LowerBound; 2]>> = face
                    .free_keys()
                    .iter()
                    .map(|&k| Some([sides.get(&(k, 1))?.clone(), sides.get(&(k, -1))?.clone()]))
                    .collect();
                if let Some(whole) = whole {
                    face.set_box(whole);
                }
            }
            decide_claim(&face, claim)
        }
    };
    let method = task.method.as_str();
    let row = conjecture_row(n as u32, method, claim, &solution.alpha, decided.verdict);
    let note = match &decided.why {
        Some(why) => format!("undecided ({why})"),
        None => format!("{} ({:.1} s)", decided.verdict.as_str(), start.elapsed().as_secs_f64()),
    };
    let [proof_rows, trees] = proofs::tables(&[(n as u32, method, std::slice::from_ref(&decided))])?;
    Ok((vec![conjectures(&[row])?, proof_rows, trees], note))
}

/// The three tables over all N of the task, in N order.
fn concat(per_n: &BTreeMap<usize, BTreeMap<String, RecordBatch>>) -> anyhow::Result<Vec<Table>> {
    let [no_proofs, no_trees] = proofs::tables(&[])?;
    let empty = [conjectures(&[])?, no_proofs, no_trees];
    empty
        .into_iter()
        .zip(TABLES)
        .map(|(empty, name)| {
            let schema = empty.batch.schema();
            let batches = per_n
                .values()
                .map(|tables| {
                    let batch = tables.get(name).ok_or_else(|| anyhow!("a checkpoint has no table {name}"))?;
                    anyhow::ensure!(
                        batch.schema().fields() == schema.fields(),
                        "a checkpoint's table {name} has other columns than this version writes (rerun with --force)"
                    );
                    Ok(batch)
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            Ok(Table { name: empty.name, batch: arrow::compute::concat_batches(&schema, batches)? })
        })
        .collect()
}
