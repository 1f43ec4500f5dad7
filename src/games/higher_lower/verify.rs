//! Re-certifies stored higher-lower results from the Parquet rows alone:
//! first the keys of every table against the task's plan, then Alice's alpha,
//! Bob's trees and weights, and the value, checked by the exact certificate
//! (exact best response to alpha; exact worst key against Bob's mixture), and
//! every derived column (supports, uniqueness of alpha, the face's dimension,
//! the conjecture rows) recomputed from the strategies, every claim's
//! verdict re-proven from its stored proofs (bounds and witnesses,
//! `verdicts::check_proofs`), and the bound on Bob's tallest tree re-proven
//! from alpha or its `height_proofs` row. No solver state is reused; the
//! `face_cuts` rows (a cache for later claims) need only be trees of N keys.

use super::claims::meaning::Inequality;
use super::claims::{self, AtN, Claim};
use super::exact_stage::certificate::certify;
use super::face::polytope::AliceFace;
use super::face::proofs;
use super::face::verdicts::{ClaimVerdict, check_proofs};
use super::height_limit;
use super::solve::Method;
use super::stored::{self, Alphas, HeightProofs, Mixtures, read_alphas, read_height_proofs, read_mixtures};
use super::tables::{ConjectureRow, conjecture_row};
use super::task::ClaimTask;
use super::tree::Tree;
use crate::artifacts::columns::Columns;
use crate::exact::{Rational, parse_pq};
use crate::game::{Status, StoredTask, Verdict};
use crate::keys::exact_keys;
use anyhow::anyhow;
use arrow::array::{Array, ListArray, UInt8Array, UInt32Array};
use arrow::record_batch::RecordBatch;
use std::collections::BTreeMap;

/// Certifies the stored N of one task (`method`, `ns`) from the rows alone,
/// after checking that every table holds exactly the planned keys: each N of
/// `ns` once in `values`, keys 1..=N in `alice`, trees 0..k-1 in `bob`, rounds
/// 1..=rounds in `trace`, and every conjecture once.
pub fn verify(method: Method, ns: &[usize], task: &StoredTask) -> anyhow::Result<Verdict> {
    let tables = SolveTables::of(task)?;
    let SolveTables { values, alice, bob, face_mixture, conjectures, conjecture_proofs, face_trees, .. } = tables;
    if let Err(why) = check_keys(method, ns, &tables) {
        return Ok(Verdict::failed(why));
    }
    let (mixtures, face_mixtures) = match (read_mixtures(bob)?, read_mixtures(face_mixture)?) {
        (Ok(mixtures), Ok(face_mixtures)) => (mixtures, face_mixtures),
        (Err(why), _) | (_, Err(why)) => return Ok(Verdict::failed(why)),
    };
    let mut stored = Strategies {
        alphas: read_alphas(alice)?,
        mixtures,
        face_mixtures,
        rows: read_conjectures(conjectures)?,
        proofs: match proofs::read(conjecture_proofs, face_trees) {
            Ok(stored) => stored,
            Err(why) => return Ok(Verdict::failed(format!("{why:#}"))),
        },
        height_proofs: read_height_proofs(tables.height_proofs)?,
    };
    let (mut certified, mut repaired, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    for row in 0..values.num_rows() {
        let n = values.u32s("n")?.value(row);
        match check_n(values, row, &mut stored)? {
            Err(why) => failed.push(format!("N = {n}: {why}")),
            Ok(None) => certified.push(n),
            Ok(Some(repair)) => repaired.push(format!("N = {n} ({repair})")),
        }
    }
    if let Some(((n, name), _)) = stored.proofs.first_key_value() {
        failed.push(format!("conjecture_proofs: proofs for N = {n}, {name}, which has no conjecture row"));
    }
    let summary = format!(
        "{} values certified exactly (alpha's best response and Bob's worst key both equal V){}",
        certified.len() + repaired.len(),
        ranges(&certified)
    );
    Ok(if !failed.is_empty() {
        Verdict::failed(format!("{} failed: {}", failed.len(), failed.join("; ")))
    } else if !repaired.is_empty() {
        Verdict::repaired(
            format!("{summary}; float basis not optimal, repaired by exact pivots: {}", repaired.join("; ")),
            Vec::new(),
        )
    } else {
        Verdict::certified(summary)
    })
}

/// A task's stored strategies and proofs by N, read from its rows; each N's
/// are taken out as it is checked, so what is left over has no `values` row.
struct Strategies {
    alphas: Alphas,
    mixtures: Mixtures,
    /// The wider mixtures the face stage built the face from, where it had one.
    face_mixtures: Mixtures,
    rows: BTreeMap<u32, Vec<ConjectureRow>>,
    proofs: proofs::StoredProofs,
    height_proofs: HeightProofs,
}

/// Re-derives one N's row of `values` from its stored strategies and proofs:
/// `Err(why)` when it fails, `Ok(Some(how))` when the stored result was a
/// repair, `Ok(None)` when certified.
fn check_n(
    values: &RecordBatch,
    row: usize,
    stored: &mut Strategies,
) -> anyhow::Result<Result<Option<String>, String>> {
    let n = values.u32s("n")?.value(row);
    let value = parse(values.strs("value")?.value(row))?;
    let mut alpha = stored.alphas.remove(&n).unwrap_or_default();
    alpha.sort_by_key(|(i, _)| *i);
    let alpha: Vec<Rational> = alpha.into_iter().map(|(_, p)| p).collect();
    let mixture = stored.mixtures.remove(&n).unwrap_or_default();
    let cert = match certify(&value, &alpha, &mixture) {
        Err(why) => return Ok(Err(why)),
        Ok(cert) => cert,
    };
    let face_mixture = stored.face_mixtures.remove(&n);
    // Alice's half holds for this alpha already: the wider mixture needs Bob's.
    if let Some(wider) = &face_mixture
        && let Err(why) = wider.holds(&value, alpha.len())
    {
        return Ok(Err(format!("face_mixture: {why}")));
    }
    let face = match AliceFace::new(&value, &alpha, face_mixture.as_ref().unwrap_or(&mixture)) {
        Ok(face) => face,
        Err(why) => return Ok(Err(format!("the optimal face: {why}"))),
    };
    let unique = face.dimension() == 0;
    let rows = stored.rows.remove(&n).unwrap_or_default();
    let claims_checked = check_claims(&face, claims::builtin(), &rows, &mut stored.proofs);
    let at_least = values.u8s("bob_tallest_at_least")?.value(row);
    let height_proof =
        stored.height_proofs.remove(&n).map(|(refuted, p)| (refuted, p.into_values().collect::<Vec<_>>()));
    let tallest_proven = at_least <= cert.bob_max_guesses
        && height_proof.as_ref().is_none_or(|(refuted, _)| *refuted + 1 == at_least)
        && height_limit::proves(&value, &alpha, height_proof.as_ref().map(|(_, p)| p.as_slice()), at_least);
    let stored_status = values.strs("exact_status")?.value(row);
    let repair_reason = values.strs("repair_reason")?.value(row);
    let stored_unique = values.bools("alice_unique")?.value(row);
    Ok(
        if cert.bob_support as u32 != values.u32s("bob_support")?.value(row)
            || cert.bob_max_guesses != values.u8s("bob_max_guesses")?.value(row)
        {
            Err("stored support or max guesses disagree with the strategies".into())
        } else if cert.alice_support as u32 != values.u32s("alice_support")?.value(row) {
            Err("stored alice_support disagrees with Alice's strategy".into())
        } else if unique != stored_unique {
            Err(format!("stored alice_unique is {stored_unique}, the rank test gives {unique}"))
        } else if face.dimension() as u32 != values.u32s("face_dimension")?.value(row) {
            Err("stored face_dimension disagrees with the strategies".into())
        } else if !tallest_proven {
            Err(format!("bob_tallest_at_least = {at_least} is not proven by alpha or height_proofs"))
        } else if let Err(why) = claims_checked {
            Err(why)
        } else if (stored_status == "repaired") == repair_reason.is_empty()
            || !["certified", "repaired"].contains(&stored_status)
        {
            Err(format!("exact_status {stored_status:?} does not match repair_reason {repair_reason:?}"))
        } else if stored_status == "repaired" {
            Ok(Some(format!("{} exact pivots: {repair_reason}", values.u32s("exact_pivots")?.value(row))))
        } else {
            Ok(None)
        },
    )
}

/// The height-limited games' alphas (keys 1..=N in order, `check_keys`).
/// The stored rows of `conjectures`, by N, in stored order.
pub(super) fn read_conjectures(batch: &RecordBatch) -> anyhow::Result<BTreeMap<u32, Vec<ConjectureRow>>> {
    let (n, method, name) = (batch.u32s("n")?, batch.strs("method")?, batch.strs("name")?);
    let (statement, from, when) = (batch.strs("statement")?, batch.u32s("from_n")?, batch.strs("when")?);
    let (applies, holds) = (batch.bools("applies")?, batch.bools("holds")?);
    let (verdict, detail) = (batch.strs("verdict")?, batch.strs("detail")?);
    let mut rows: BTreeMap<u32, Vec<ConjectureRow>> = BTreeMap::new();
    for r in 0..batch.num_rows() {
        let verdict = ClaimVerdict::parse(verdict.value(r)).ok_or_else(|| {
            anyhow!("conjectures: N = {}, {}: no such verdict {:?}", n.value(r), name.value(r), verdict.value(r))
        })?;
        rows.entry(n.value(r)).or_default().push(ConjectureRow {
            n: n.value(r),
            method: method.value(r).to_string(),
            name: name.value(r).to_string(),
            statement: statement.value(r).to_string(),
            from: from.value(r),
            when: when.value(r).to_string(),
            applies: applies.value(r),
            holds: holds.value(r),
            verdict,
            detail: detail.value(r).to_string(),
        });
    }
    Ok(rows)
}

/// The stored rows of `claims` at one N (one each, in order) against the
/// claims recomputed on the face's alpha, each verdict re-proven from its
/// stored proofs (taken out of `proofs`).
pub(super) fn check_claims(
    face: &AliceFace,
    claims: &[Claim],
    rows: &[ConjectureRow],
    proofs: &mut proofs::StoredProofs,
) -> Result<(), String> {
    let n = face.alpha().len();
    if rows.len() != claims.len() {
        return Err(format!("{} conjecture rows for {} claims", rows.len(), claims.len()));
    }
    for (claim, row) in claims.iter().zip(rows) {
        let name = claim.name.as_str();
        let verdict = row.verdict;
        if *row != conjecture_row(row.n, &row.method, claim, face.alpha(), verdict) {
            return Err(format!("{name}: the stored row disagrees with the claim recomputed on the strategies"));
        }
        let stored = proofs.remove(&(n as u32, name.to_string())).unwrap_or_default();
        check_proofs(face, &claim.at(n), verdict, &stored)
            .map_err(|why| format!("{name}: the verdict is not proven by its stored proofs: {why}"))?;
    }
    Ok(())
}

/// A solve task's tables, by name.
#[derive(Clone, Copy)]
struct SolveTables<'t> {
    values: &'t RecordBatch,
    alice: &'t RecordBatch,
    bob: &'t RecordBatch,
    face_mixture: &'t RecordBatch,
    trace: &'t RecordBatch,
    conjectures: &'t RecordBatch,
    conjecture_proofs: &'t RecordBatch,
    face_trees: &'t RecordBatch,
    height_proofs: &'t RecordBatch,
    face_cuts: &'t RecordBatch,
}

impl<'t> SolveTables<'t> {
    fn of(task: &'t StoredTask) -> anyhow::Result<Self> {
        Ok(SolveTables {
            values: task.table("values")?,
            alice: task.table("alice")?,
            bob: task.table("bob")?,
            face_mixture: task.table("face_mixture")?,
            trace: task.table("trace")?,
            conjectures: task.table("conjectures")?,
            conjecture_proofs: task.table("conjecture_proofs")?,
            face_trees: task.table("face_trees")?,
            height_proofs: task.table("height_proofs")?,
            face_cuts: task.table("face_cuts")?,
        })
    }

    fn named(&self) -> [(&'static str, &'t RecordBatch); 10] {
        [
            ("values", self.values),
            ("alice", self.alice),
            ("bob", self.bob),
            ("face_mixture", self.face_mixture),
            ("trace", self.trace),
            ("conjectures", self.conjectures),
            ("conjecture_proofs", self.conjecture_proofs),
            ("face_trees", self.face_trees),
            ("height_proofs", self.height_proofs),
            ("face_cuts", self.face_cuts),
        ]
    }
}

/// The error with its causes, as one line.
fn error(e: anyhow::Error) -> String {
    format!("{e:#}")
}

fn n_of(table: &RecordBatch) -> Result<UInt32Array, String> {
    table.u32s("n").map_err(error).cloned()
}

/// The keys of every table against the plan `ns` (and `method` in every row).
fn check_keys(method: Method, ns: &[usize], tables: &SolveTables) -> Result<(), String> {
    for (name, table) in tables.named() {
        let methods = table.strs("method").map_err(error)?;
        if let Some(r) = (0..table.num_rows()).find(|&r| methods.value(r) != method.as_str()) {
            return Err(format!(
                "{name}: row {r} has method {:?}, the task solves {:?}",
                methods.value(r),
                method.as_str()
            ));
        }
    }
    let planned = || ns.iter().map(|&n| n as u32);
    exact_keys("values", n_of(tables.values)?.values().iter().copied(), planned(), |n| format!("N = {n}"))?;
    let (an, ai) = (n_of(tables.alice)?, tables.alice.u32s("i").map_err(error)?);
    exact_keys(
        "alice",
        (0..tables.alice.num_rows()).map(|r| (an.value(r), ai.value(r))),
        planned().flat_map(|n| (1..=n).map(move |i| (n, i))),
        |(n, i)| format!("N = {n}, key {i}"),
    )?;
    // Bob's trees are numbered 0..k-1 without gaps; a wider mixture, where there is one, too.
    numbered("bob", tables.bob, "tree", 1, ns)?;
    numbered("face_mixture", tables.face_mixture, "tree", 0, ns)?;
    check_trace_keys(tables.values, tables.trace, ns)?;
    let (cn, names) = (n_of(tables.conjectures)?, tables.conjectures.strs("name").map_err(error)?);
    exact_keys(
        "conjectures",
        (0..tables.conjectures.num_rows()).map(|r| (cn.value(r), names.value(r).to_string())),
        planned().flat_map(|n| claims::builtin().iter().map(move |c| (n, c.name.as_str().to_string()))),
        |(n, name)| format!("N = {n}, {name}"),
    )?;
    // The cut cache: trees of N keys, numbered 0..k-1 per N of the task.
    numbered("face_cuts", tables.face_cuts, "cut", 0, ns)?;
    check_cut_trees(tables.face_cuts)?;
    check_height_proof_keys(tables.height_proofs, ns)
}

/// (N, column) of every row.
fn pairs(table: &RecordBatch, column: &str) -> Result<Vec<(u32, u32)>, String> {
    let (n, k) = (n_of(table)?, table.u32s(column).map_err(error)?);
    Ok((0..table.num_rows()).map(|r| (n.value(r), k.value(r))).collect())
}

/// Rows numbered 0..k-1 in `column` without gaps at each N of `ns` (at least `least` of them).
fn numbered(name: &str, table: &RecordBatch, column: &str, least: u32, ns: &[usize]) -> Result<(), String> {
    let rows = pairs(table, column)?;
    let mut counts: BTreeMap<u32, u32> = BTreeMap::new();
    for (n, _) in &rows {
        *counts.entry(*n).or_default() += 1;
    }
    exact_keys(
        name,
        rows,
        ns.iter().flat_map(|&n| (0..counts.get(&(n as u32)).copied().unwrap_or(least)).map(move |k| (n as u32, k))),
        |(n, k)| format!("N = {n}, {column} {k}"),
    )
}

/// The trace's rounds 1..=rounds at each N, as its `values` row counts them.
fn check_trace_keys(values: &RecordBatch, trace: &RecordBatch, ns: &[usize]) -> Result<(), String> {
    let (vn, rounds) = (n_of(values)?, values.u32s("rounds").map_err(error)?);
    let planned_rounds: BTreeMap<u32, u32> = (0..values.num_rows()).map(|r| (vn.value(r), rounds.value(r))).collect();
    exact_keys(
        "trace",
        pairs(trace, "round")?,
        ns.iter().flat_map(|&n| (1..=planned_rounds[&(n as u32)]).map(move |k| (n as u32, k))),
        |(n, k)| format!("N = {n}, round {k}"),
    )
}

/// Every cut of the cache is a tree of N keys.
fn check_cut_trees(face_cuts: &RecordBatch) -> Result<(), String> {
    let (cut_n, depths) = (n_of(face_cuts)?, face_cuts.column_as::<ListArray>("depths").map_err(error)?);
    for r in 0..face_cuts.num_rows() {
        let list = depths.value(r);
        let tree = list.as_any().downcast_ref::<UInt8Array>().map(|d| Tree::from_depths(d.values().to_vec()));
        if !matches!(tree, Some(Ok(t)) if t.len() == cut_n.value(r) as usize) {
            return Err(format!("face_cuts: N = {}, row {r} is no tree of N keys", cut_n.value(r)));
        }
    }
    Ok(())
}

/// A height proof, where there is one, is a whole alpha: keys 1..=N in order, one refuted height.
fn check_height_proof_keys(height_rows: &RecordBatch, ns: &[usize]) -> Result<(), String> {
    let (hn, hi, hh) =
        (n_of(height_rows)?, height_rows.u32s("i").map_err(error)?, height_rows.u8s("refuted_height").map_err(error)?);
    let proven: std::collections::BTreeSet<u32> = hn.values().iter().copied().collect();
    exact_keys(
        "height_proofs",
        (0..height_rows.num_rows()).map(|r| (hn.value(r), hi.value(r))),
        ns.iter().filter(|&&n| proven.contains(&(n as u32))).flat_map(|&n| (1..=n as u32).map(move |i| (n as u32, i))),
        |(n, i)| format!("N = {n}, key {i}"),
    )?;
    match (1..height_rows.num_rows()).find(|&r| hn.value(r) == hn.value(r - 1) && hh.value(r) != hh.value(r - 1)) {
        Some(r) => Err(format!("height_proofs: N = {} has two refuted heights", hn.value(r))),
        None => Ok(()),
    }
}

fn parse(text: &str) -> anyhow::Result<Rational> {
    parse_pq(text).map_err(|e| anyhow!(e))
}

/// " (N = 1..20, 25)" style summary of certified N.
pub(super) fn ranges(ns: &[u32]) -> String {
    if ns.is_empty() {
        return String::new();
    }
    let mut parts: Vec<String> = Vec::new();
    let mut start = ns[0];
    for w in 0..ns.len() {
        let end_of_run = w + 1 == ns.len() || ns[w + 1] != ns[w] + 1;
        if end_of_run {
            parts.push(if start == ns[w] { start.to_string() } else { format!("{start}..{}", ns[w]) });
            if w + 1 < ns.len() {
                start = ns[w + 1];
            }
        }
    }
    format!(" (N = {})", parts.join(", "))
}

/// Re-proves what a claim task adds to its source solve task: the rows are
/// exactly the task's N, each recomputed on the source's alpha, each verdict
/// re-proven from the stored proofs. It rests on the source's own
/// verification, of this `verify` run (inputs are verified first): the
/// strategies certified, the face's dimension re-derived, the parts intact.
/// Where that dimension is 0, alpha* is Alice's only optimal strategy and
/// decides the claim alone; elsewhere the face is rebuilt from the source's
/// V and Bob's mixture and the proofs are checked over it. The source's face
/// cache is not used.
pub fn verify_claim(task: &ClaimTask, stored: &StoredTask) -> anyhow::Result<Verdict> {
    match check_claim_task(task, stored) {
        Ok(summary) => Ok(Verdict::certified(summary)),
        Err(why) => Ok(Verdict::failed(why)),
    }
}

fn check_claim_task(task: &ClaimTask, stored: &StoredTask) -> Result<String, String> {
    let (rows, proof_rows, trees) = (
        stored.table("conjectures").map_err(error)?,
        stored.table("conjecture_proofs").map_err(error)?,
        stored.table("face_trees").map_err(error)?,
    );
    let name = task.claim.name.as_str();
    for (table, batch) in [("conjectures", rows), ("conjecture_proofs", proof_rows), ("face_trees", trees)] {
        let (methods, names) = (batch.strs("method").map_err(error)?, batch.strs("name").map_err(error)?);
        if let Some(r) =
            (0..batch.num_rows()).find(|&r| methods.value(r) != task.method.as_str() || names.value(r) != name)
        {
            return Err(format!(
                "{table}: row {r} is {:?} of {:?}, the task decides {name:?} of {:?}",
                names.value(r),
                methods.value(r),
                task.method.as_str()
            ));
        }
    }
    let n_of = batch_ns(rows).map_err(error)?;
    exact_keys("conjectures", n_of, task.ns.iter().map(|&n| n as u32), |n| format!("N = {n}"))?;
    let source = task.source_id();
    match stored.inputs.input_verdict(&source) {
        Some(Status::Certified | Status::Repaired) => {}
        Some(Status::Failed) => return Err(format!("the solved task {source} failed its verification")),
        None => return Err(format!("the solved task {source} has no verification to rest on")),
    }
    let input =
        |table: &str| stored.inputs.input(&source, table).map_err(|e| format!("the solved task {source}: {e:#}"));
    let values = input("values")?;
    // Bob's mixtures only where a face is rebuilt: an N where the claim
    // applies and alpha* is not Alice's only optimal strategy.
    let dimensions: BTreeMap<u32, u32> = {
        let (n, dimension) = (values.u32s("n").map_err(error)?, values.u32s("face_dimension").map_err(error)?);
        (0..values.num_rows()).map(|r| (n.value(r), dimension.value(r))).collect()
    };
    let faces = task
        .ns
        .iter()
        .any(|&n| dimensions.get(&(n as u32)).is_some_and(|&d| d > 0) && matches!(task.claim.at(n), AtN::Applies(_)));
    let mixtures = if faces { Some([input("bob")?, input("face_mixture")?]) } else { None };
    let mixtures = mixtures.as_ref().map(|[bob, face_mixture]| [bob, face_mixture]);
    let solutions = stored::solutions(&values, &input("alice")?, mixtures).map_err(error)?;
    let mut by_n = read_conjectures(rows).map_err(error)?;
    let mut proofs = proofs::read(proof_rows, trees).map_err(error)?;
    let claims = std::slice::from_ref(&task.claim);
    // By the verdict's text, the order of the summary.
    let mut verdicts: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for &n in &task.ns {
        let n = n as u32;
        let solution = solutions.get(&n).ok_or_else(|| format!("the solved task {source} has no N = {n}"))?;
        let at_n = by_n.remove(&n).unwrap_or_default();
        let checked = match task.claim.at(n as usize) {
            AtN::NotApplicable(_) => {
                let expected =
                    conjecture_row(n, task.method.as_str(), &task.claim, &solution.alpha, ClaimVerdict::NotApplicable);
                if at_n != [expected] {
                    Err("the stored row disagrees with the claim recomputed on the strategies".to_string())
                } else if proofs.remove(&(n, name.to_string())).is_some() {
                    Err("proofs where the claim does not apply".to_string())
                } else {
                    Ok(())
                }
            }
            AtN::Applies(inequalities) if solution.face_dimension == 0 => {
                check_on_the_only_alpha(&task.claim, &inequalities, &solution.alpha, &at_n, &mut proofs)
            }
            AtN::Applies(_) => AliceFace::new(&solution.value, &solution.alpha, solution.hull_mixture())
                .and_then(|face| check_claims(&face, claims, &at_n, &mut proofs)),
        };
        checked.map_err(|why| format!("N = {n}: {why}"))?;
        verdicts.entry(at_n[0].verdict.as_str()).or_default().push(n);
    }
    if let Some(((n, other), _)) = proofs.first_key_value() {
        return Err(format!("conjecture_proofs: proofs for N = {n}, {other}, which has no row"));
    }
    let counts: Vec<String> = verdicts.iter().map(|(v, ns)| format!("{v}{}", ranges(ns))).collect();
    Ok(format!("claim {name}: every verdict re-proven; {}", counts.join("; ")))
}

/// A claim's row at an N where alpha* is Alice's only optimal strategy (the
/// source's verification proved the face's dimension 0): the verdict is
/// whether alpha* satisfies every inequality, and there are no proofs.
fn check_on_the_only_alpha(
    claim: &Claim,
    inequalities: &[Inequality],
    alpha: &[Rational],
    rows: &[ConjectureRow],
    proofs: &mut proofs::StoredProofs,
) -> Result<(), String> {
    let verdict = if inequalities.iter().all(|i| i.holds(alpha)) {
        ClaimVerdict::HoldsForEvery
    } else {
        ClaimVerdict::FailsForEvery
    };
    let [row] = rows else { return Err(format!("{} conjecture rows for one claim", rows.len())) };
    if *row != conjecture_row(row.n, &row.method, claim, alpha, verdict) {
        return Err(format!("{}: the stored row disagrees with the claim decided on the only optimal alpha", row.name));
    }
    match proofs.remove(&(row.n, row.name.clone())) {
        Some(stored) if !stored.is_empty() => Err(format!("{}: proofs beside the only optimal alpha", row.name)),
        _ => Ok(()),
    }
}

/// The `n` column of a table as a list.
fn batch_ns(batch: &RecordBatch) -> anyhow::Result<Vec<u32>> {
    Ok(batch.u32s("n")?.values().to_vec())
}
