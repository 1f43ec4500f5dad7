//! The higher-lower tables (schemas in docs/tables.md): values, alice, bob, face_mixture, trace,
//! conjectures, conjecture_proofs and face_trees (`face::proofs`), face_cuts, height_proofs.

use super::claims::Claim;
use super::exact_stage::ExactOutcome;
use super::face::FaceOutcome;
use super::face::verdicts::{ClaimVerdict, Decided};
use super::mixture::Mixture;
use super::solve::FloatSolution;
use super::tree::Tree;
use crate::artifacts::columns::TableBuilder;
use crate::exact::{Rational, format_pq, to_f64};
use crate::game::Table;
use anyhow::{Context, anyhow};
use arrow::record_batch::RecordBatch;
use std::collections::BTreeMap;

/// One solved N: the float solution, its exact stage and its face stage.
pub type Solved = (FloatSolution, ExactOutcome, FaceOutcome);

/// All tables of one task from its solved N.
pub fn tables(solved: &[Solved]) -> anyhow::Result<Vec<Table>> {
    let decided: Vec<(u32, &str, &[Decided])> =
        solved.iter().map(|(f, _, face)| (f.n as u32, method(f), face.decided.as_slice())).collect();
    let [proofs, face_trees] = super::face::proofs::tables(&decided)?;
    let claims = super::claims::builtin();
    let rows: Vec<ConjectureRow> = solved
        .iter()
        .flat_map(|(f, e, face)| conjecture_rows(f.n as u32, method(f), claims, &e.alpha, &face.decided))
        .collect();
    Ok(vec![
        values(solved)?,
        alice(solved)?,
        bob(solved)?,
        face_mixture(solved)?,
        trace(solved)?,
        conjectures(&rows)?,
        proofs,
        face_trees,
        face_cuts(solved)?,
        height_proofs(solved)?,
    ])
}

fn method(f: &FloatSolution) -> &'static str {
    f.method.as_str()
}

/// One row per N: the value, the solver's effort, the exact and face stages' findings.
fn values(solved: &[Solved]) -> anyhow::Result<Table> {
    TableBuilder::new()
        .u32("n", solved.iter().map(|(f, _, _)| f.n as u32))
        .str("method", solved.iter().map(|(f, _, _)| method(f)))
        .str("value", solved.iter().map(|(_, e, _)| format_pq(&e.value)))
        .f64("value_f64", solved.iter().map(|(_, e, _)| to_f64(&e.value)))
        .f64("float_value_f64", solved.iter().map(|(f, _, _)| f.value))
        .f64("float_lower_f64", solved.iter().map(|(f, _, _)| f.lower))
        .u64("iterations", solved.iter().map(|(f, _, _)| f.iterations))
        .u32("rounds", solved.iter().map(|(f, _, _)| f.rounds))
        .u32("pricing_calls", solved.iter().map(|(f, _, _)| f.pricing_calls))
        .u32("columns", solved.iter().map(|(f, _, _)| f.columns))
        .u32("alice_support", solved.iter().map(|(_, e, _)| e.certificate.alice_support as u32))
        .bool("alice_unique", solved.iter().map(|(_, _, face)| face.dimension == 0))
        .u32("face_dimension", solved.iter().map(|(_, _, face)| face.dimension as u32))
        .u32("bob_support", solved.iter().map(|(_, e, _)| e.certificate.bob_support as u32))
        .u8("bob_max_guesses", solved.iter().map(|(_, e, _)| e.certificate.bob_max_guesses))
        .u8("bob_tallest_at_least", solved.iter().map(|(_, _, face)| face.bob_tallest_at_least))
        .u32("exact_pivots", solved.iter().map(|(_, e, _)| e.exact_pivots))
        .str(
            "exact_status",
            solved.iter().map(|(_, e, _)| if e.repair_reason.is_none() { "certified" } else { "repaired" }),
        )
        .str("repair_reason", solved.iter().map(|(_, e, _)| e.repair_reason.map_or(String::new(), |r| r.to_string())))
        .bool("warm_started", solved.iter().map(|(f, _, _)| f.warm_started))
        .f64("solve_seconds", solved.iter().map(|(f, _, _)| f.seconds))
        .f64("exact_seconds", solved.iter().map(|(_, e, _)| e.seconds))
        .f64("face_seconds", solved.iter().map(|(_, _, face)| face.seconds))
        .build("values")
}

/// Alice's alpha: one row per (N, key).
fn alice(solved: &[Solved]) -> anyhow::Result<Table> {
    let alice: Vec<(u32, &str, u32, &crate::exact::Rational)> = solved
        .iter()
        .flat_map(|(f, e, _)| e.alpha.iter().enumerate().map(move |(i, p)| (f.n as u32, method(f), i as u32 + 1, p)))
        .collect();
    TableBuilder::new()
        .u32("n", alice.iter().map(|r| r.0))
        .str("method", alice.iter().map(|r| r.1))
        .u32("i", alice.iter().map(|r| r.2))
        .str("prob", alice.iter().map(|r| format_pq(r.3)))
        .f64("prob_f64", alice.iter().map(|r| to_f64(r.3)))
        .build("alice")
}

/// Bob's mixture: one row per (N, tree) with its depths.
fn bob(solved: &[Solved]) -> anyhow::Result<Table> {
    mixture_table("bob", solved.iter().map(|(f, e, _)| (f, &e.bob)))
}

/// The wider optimal mixture of Bob's that Alice's face was built from, at
/// the N that have one (`exact_stage::widen`).
fn face_mixture(solved: &[Solved]) -> anyhow::Result<Table> {
    let mixtures = solved.iter().filter_map(|(f, e, _)| Some((f, e.face_mixture.as_ref()?)));
    mixture_table("face_mixture", mixtures)
}

/// One row per tree of each N's mixture.
fn mixture_table<'a>(
    name: &'static str,
    mixtures: impl Iterator<Item = (&'a FloatSolution, &'a Mixture)>,
) -> anyhow::Result<Table> {
    let bob: Vec<(u32, &str, u32, &crate::exact::Rational, Vec<u8>)> = mixtures
        .flat_map(|(f, mixture)| {
            mixture.iter().enumerate().map(move |(k, (t, y))| (f.n as u32, method(f), k as u32, y, t.depths().to_vec()))
        })
        .collect();
    TableBuilder::new()
        .u32("n", bob.iter().map(|r| r.0))
        .str("method", bob.iter().map(|r| r.1))
        .u32("tree", bob.iter().map(|r| r.2))
        .str("weight", bob.iter().map(|r| format_pq(r.3)))
        .f64("weight_f64", bob.iter().map(|r| to_f64(r.3)))
        .u8("height", bob.iter().map(|r| r.4.iter().copied().max().unwrap_or(0)))
        .u8_lists("depths", bob.into_iter().map(|r| r.4))
        .build(name)
}

/// The bounds of every pricing round.
fn trace(solved: &[Solved]) -> anyhow::Result<Table> {
    let trace: Vec<(u32, &str, &super::solve::TracePoint)> =
        solved.iter().flat_map(|(f, _, _)| f.trace.iter().map(move |t| (f.n as u32, method(f), t))).collect();
    TableBuilder::new()
        .u32("n", trace.iter().map(|r| r.0))
        .str("method", trace.iter().map(|r| r.1))
        .u32("round", trace.iter().map(|r| r.2.round))
        .f64("upper_f64", trace.iter().map(|r| r.2.upper))
        .f64("lower_f64", trace.iter().map(|r| r.2.lower))
        .u64("pivots", trace.iter().map(|r| r.2.pivots))
        .build("trace")
}

/// One row of `conjectures`: a claim at one N, evaluated on alpha* and decided over the optimal face.
#[derive(Debug, Clone, PartialEq)]
pub struct ConjectureRow {
    pub n: u32,
    pub method: String,
    pub name: String,
    pub statement: String,
    pub from: u32,
    pub when: String,
    pub applies: bool,
    pub holds: bool,
    pub verdict: ClaimVerdict,
    pub detail: String,
}

/// The rows of the claims at N (each decided, in the claims' order).
pub fn conjecture_rows(
    n: u32,
    method: &str,
    claims: &[Claim],
    alpha: &[Rational],
    decided: &[Decided],
) -> Vec<ConjectureRow> {
    claims
        .iter()
        .zip(decided)
        .map(|(claim, decided)| conjecture_row(n, method, claim, alpha, decided.verdict))
        .collect()
}

/// One claim's row at N, with the verdict decided over the face.
pub fn conjecture_row(n: u32, method: &str, claim: &Claim, alpha: &[Rational], verdict: ClaimVerdict) -> ConjectureRow {
    let evaluation = claim.evaluate(alpha);
    ConjectureRow {
        n,
        method: method.to_string(),
        name: claim.name.as_str().to_string(),
        statement: claim.statement.text().to_string(),
        from: claim.from,
        when: claim.when.as_ref().map_or(String::new(), |w| w.text().to_string()),
        applies: evaluation.applies,
        holds: evaluation.holds,
        verdict,
        detail: evaluation.detail,
    }
}

/// One row per (N, claim): checked on alpha*, and its verdict over the optimal face.
pub fn conjectures(rows: &[ConjectureRow]) -> anyhow::Result<Table> {
    TableBuilder::new()
        .u32("n", rows.iter().map(|r| r.n))
        .str("method", rows.iter().map(|r| r.method.as_str()))
        .str("name", rows.iter().map(|r| r.name.as_str()))
        .str("statement", rows.iter().map(|r| r.statement.as_str()))
        .u32("from_n", rows.iter().map(|r| r.from))
        .str("when", rows.iter().map(|r| r.when.as_str()))
        .bool("applies", rows.iter().map(|r| r.applies))
        .bool("holds", rows.iter().map(|r| r.holds))
        .str("verdict", rows.iter().map(|r| r.verdict.as_str()))
        .str("detail", rows.iter().map(|r| r.detail.as_str()))
        .build("conjectures")
}

/// The trees the face LPs of N found as cuts (face dimension > 0): a
/// claim asked later starts from them instead of finding them again.
fn face_cuts(solved: &[Solved]) -> anyhow::Result<Table> {
    let cuts: Vec<(u32, &str, u32, &Tree)> = solved
        .iter()
        .flat_map(|(f, _, face)| face.cuts.iter().enumerate().map(move |(k, t)| (f.n as u32, method(f), k as u32, t)))
        .collect();
    TableBuilder::new()
        .u32("n", cuts.iter().map(|r| r.0))
        .str("method", cuts.iter().map(|r| r.1))
        .u32("cut", cuts.iter().map(|r| r.2))
        .u8_lists("depths", cuts.iter().map(|r| r.3.depths().to_vec()))
        .build("face_cuts")
}

/// The height-limited game's alpha where alpha* does not prove Table 3.1's bound.
fn height_proofs(solved: &[Solved]) -> anyhow::Result<Table> {
    let height: Vec<(u32, &str, u8, u32, &crate::exact::Rational)> = solved
        .iter()
        .flat_map(|(f, _, face)| {
            let refuted = face.bob_tallest_at_least.saturating_sub(1);
            face.height_proof
                .iter()
                .flatten()
                .enumerate()
                .map(move |(i, p)| (f.n as u32, method(f), refuted, i as u32 + 1, p))
        })
        .collect();
    TableBuilder::new()
        .u32("n", height.iter().map(|r| r.0))
        .str("method", height.iter().map(|r| r.1))
        .u8("refuted_height", height.iter().map(|r| r.2))
        .u32("i", height.iter().map(|r| r.3))
        .str("prob", height.iter().map(|r| format_pq(r.4)))
        .build("height_proofs")
}

/// Each output table over all N of a task: the tables of every N (by name,
/// in N order, as checkpoints hold them), one table per N, which the
/// orchestrator writes as one part without copying them into one batch (a
/// chain of 972 N held its tables twice over at its end, 8 GB).
pub fn in_n_order(mut per_n: Vec<BTreeMap<String, RecordBatch>>) -> anyhow::Result<Vec<Table>> {
    let mut ordered = Vec::new();
    // The tables of no N give the names, order and schemas to write.
    for empty in tables(&[])? {
        if per_n.is_empty() {
            ordered.push(empty);
            continue;
        }
        let schema = empty.batch.schema();
        for tables in &mut per_n {
            let batch = tables
                .remove(empty.name)
                .ok_or_else(|| anyhow!("no table {}", empty.name))
                .and_then(|batch| {
                    anyhow::ensure!(
                        batch.schema().fields() == schema.fields(),
                        "table {} has other columns than this version writes",
                        empty.name
                    );
                    Ok(batch)
                })
                .context("a checkpoint does not match this version (rerun with --force)")?;
            ordered.push(Table { name: empty.name, batch });
        }
    }
    Ok(ordered)
}
