//! The stored form of the claims' proofs (`verdicts::Proof`), written and
//! read back, so that `verify` re-checks them from the rows alone.
//!
//! `conjecture_proofs` has one row per term of a proof (n, method, name,
//! proof: its number within the claim at N, kind "bound", "box" or
//! "witness"): a bound's terms are its weights on the claim's inequalities
//! ("weight", index i), its multipliers on alpha_k >= 0 ("key", index k) and
//! on alpha . d_T >= V ("tree", index of T in `face_trees`), with `sign` and
//! `bound`; a box side (kind "box": sign * alpha_k >= bound) has its key as a
//! "box_key" term, then its multipliers; a witness's terms are its
//! probabilities ("alpha", key k), or one "computed" term for the computed
//! alpha (the `alice` table), with `holds`. `face_trees` holds the trees of
//! one claim's proofs at N once each (n, method, name, tree, depths), so
//! that (n, method, name, tree) joins the two tables whichever task wrote
//! them.

use super::polytope::{Cut, LowerBound};
use super::verdicts::{Decided, Proof};
use crate::artifacts::columns::{Columns, TableBuilder};
use crate::exact::{Rational, format_pq, parse_pq};
use crate::game::Table;
use crate::games::higher_lower::tree::Tree;
use anyhow::{Context, anyhow};
use arrow::array::{Array, BooleanArray, Int64Array, ListArray, StringArray, UInt8Array, UInt32Array};
use arrow::record_batch::RecordBatch;
use std::collections::BTreeMap;

/// One term row of `conjecture_proofs`.
struct Term<'d> {
    name: &'d str,
    proof: u32,
    kind: &'static str,
    sign: i64,
    holds: bool,
    bound: String,
    term: &'static str,
    index: u32,
    coefficient: String,
}

/// The two proof tables of the given N (n, method, verdicts).
pub fn tables(solved: &[(u32, &str, &[Decided])]) -> anyhow::Result<[Table; 2]> {
    let mut terms: Vec<(u32, &str, Term)> = Vec::new();
    let mut trees: Vec<(u32, &str, &str, u32, Vec<u8>)> = Vec::new();
    for &(n, method, decided) in solved {
        for claim in decided {
            let mut numbered: Vec<Tree> = Vec::new();
            for (number, proof) in claim.proofs.iter().enumerate() {
                for term in proof_terms(&claim.name, number as u32, proof, &mut numbered) {
                    terms.push((n, method, term));
                }
            }
            trees.extend(
                numbered
                    .into_iter()
                    .enumerate()
                    .map(|(k, t)| (n, method, claim.name.as_str(), k as u32, t.depths().to_vec())),
            );
        }
    }
    let proofs = TableBuilder::new()
        .u32("n", terms.iter().map(|r| r.0))
        .str("method", terms.iter().map(|r| r.1))
        .str("name", terms.iter().map(|r| r.2.name))
        .u32("proof", terms.iter().map(|r| r.2.proof))
        .str("kind", terms.iter().map(|r| r.2.kind))
        .i64("sign", terms.iter().map(|r| r.2.sign))
        .bool("holds", terms.iter().map(|r| r.2.holds))
        .str("bound", terms.iter().map(|r| r.2.bound.as_str()))
        .str("term", terms.iter().map(|r| r.2.term))
        .u32("index", terms.iter().map(|r| r.2.index))
        .str("coefficient", terms.iter().map(|r| r.2.coefficient.as_str()))
        .build("conjecture_proofs")?;
    let trees = TableBuilder::new()
        .u32("n", trees.iter().map(|r| r.0))
        .str("method", trees.iter().map(|r| r.1))
        .str("name", trees.iter().map(|r| r.2))
        .u32("tree", trees.iter().map(|r| r.3))
        .u8_lists("depths", trees.into_iter().map(|r| r.4))
        .build("face_trees")?;
    Ok([proofs, trees])
}

/// The rows of one proof; its trees get numbers in `numbered` (the claim's list at N).
fn proof_terms<'d>(name: &'d str, proof: u32, p: &Proof, numbered: &mut Vec<Tree>) -> Vec<Term<'d>> {
    let row = |kind, sign, holds, bound: &str, term, index, coefficient: String| Term {
        name,
        proof,
        kind,
        sign,
        holds,
        bound: bound.to_string(),
        term,
        index,
        coefficient,
    };
    match p {
        Proof::Bound { sign, weights, lower } => {
            let bound = format_pq(&lower.bound);
            let sign = i64::from(*sign);
            let mut rows: Vec<Term> = weights
                .iter()
                .map(|(i, w)| row("bound", sign, false, &bound, "weight", *i as u32, format_pq(w)))
                .collect();
            rows.extend(
                multiplier_terms(&lower.multipliers, numbered)
                    .into_iter()
                    .map(|(term, index, c)| row("bound", sign, false, &bound, term, index, c)),
            );
            rows
        }
        Proof::Box { key, sign, lower } => {
            let bound = format_pq(&lower.bound);
            let sign = i64::from(*sign);
            let mut rows = vec![row("box", sign, false, &bound, "box_key", *key as u32 + 1, String::new())];
            rows.extend(
                multiplier_terms(&lower.multipliers, numbered)
                    .into_iter()
                    .map(|(term, index, c)| row("box", sign, false, &bound, term, index, c)),
            );
            rows
        }
        Proof::Witness { holds, alpha: None } => vec![row("witness", 0, *holds, "", "computed", 0, String::new())],
        Proof::Witness { holds, alpha: Some(alpha) } => alpha
            .iter()
            .enumerate()
            .map(|(k, a)| row("witness", 0, *holds, "", "alpha", k as u32 + 1, format_pq(a)))
            .collect(),
    }
}

/// A bound's multipliers as (term, index, coefficient): "key" k (1-based) or
/// "tree" (its number in the claim's `numbered` list, added there if new).
fn multiplier_terms(multipliers: &[(Cut, Rational)], numbered: &mut Vec<Tree>) -> Vec<(&'static str, u32, String)> {
    multipliers
        .iter()
        .map(|(cut, lambda)| {
            let (term, index) = match cut {
                Cut::Tree(tree) => {
                    let index = numbered.iter().position(|t| t == tree).unwrap_or_else(|| {
                        numbered.push(tree.clone());
                        numbered.len() - 1
                    });
                    ("tree", index as u32)
                }
                Cut::Nonnegative(k) => ("key", *k as u32 + 1),
                Cut::AtMostOne(_) => unreachable!("a LowerBound carries alpha_k <= 1 as alpha_j >= 0"),
            };
            (term, index, format_pq(lambda))
        })
        .collect()
}

/// The proofs stored for one task, by N and claim name, in proof order.
pub type StoredProofs = BTreeMap<(u32, String), Vec<Proof>>;

/// Reads the proofs back from the two tables.
pub fn read(proofs: &RecordBatch, trees: &RecordBatch) -> anyhow::Result<StoredProofs> {
    let tree_of = read_face_trees(trees)?;
    let rows = ProofRows::of(proofs)?;
    let mut grouped: BTreeMap<(u32, String, u32), Vec<usize>> = BTreeMap::new();
    for r in 0..proofs.num_rows() {
        grouped.entry((rows.n.value(r), rows.name.value(r).to_string(), rows.proof.value(r))).or_default().push(r);
    }
    let mut stored = StoredProofs::new();
    for ((n, name, number), group) in grouped {
        let context = || format!("conjecture_proofs: N = {n}, {name}, proof {number}");
        let list = stored.entry((n, name.clone())).or_default();
        if list.len() != number as usize {
            anyhow::bail!("{}: proofs not numbered 0, 1, ...", context());
        }
        let first = group[0];
        let (kind, holds) = (rows.kind.value(first), rows.holds.value(first));
        if group.iter().any(|&r| rows.kind.value(r) != kind || rows.holds.value(r) != holds) {
            anyhow::bail!("{}: rows of one proof disagree on kind or holds", context());
        }
        let trees_of_claim = |i: u32| tree_of.get(&(n, name.as_str(), i));
        let parsed = match kind {
            "bound" | "box" => rows.bound(&group, n, trees_of_claim).with_context(context)?,
            "witness" if group.len() == 1 && rows.term.value(first) == "computed" => {
                Proof::Witness { holds, alpha: None }
            }
            "witness" => Proof::Witness { holds, alpha: Some(rows.witness(&group, n).with_context(context)?) },
            other => anyhow::bail!("{}: kind {other:?}", context()),
        };
        list.push(parsed);
    }
    Ok(stored)
}

/// The trees of `face_trees` by (N, claim name, number).
fn read_face_trees(trees: &RecordBatch) -> anyhow::Result<BTreeMap<(u32, &str, u32), Tree>> {
    let mut tree_of = BTreeMap::new();
    let (tn, tname, tk) = (trees.u32s("n")?, trees.strs("name")?, trees.u32s("tree")?);
    let depths = trees.column_as::<ListArray>("depths")?;
    for r in 0..trees.num_rows() {
        let list = depths.value(r);
        let d = list.as_any().downcast_ref::<UInt8Array>().ok_or_else(|| anyhow!("depths are not u8 lists"))?;
        let tree =
            Tree::from_depths(d.values().to_vec()).map_err(|e| anyhow!("face tree of N = {}: {e}", tn.value(r)))?;
        if tree_of.insert((tn.value(r), tname.value(r), tk.value(r)), tree).is_some() {
            anyhow::bail!("face_trees: N = {}, {}, tree {} stored twice", tn.value(r), tname.value(r), tk.value(r));
        }
    }
    Ok(tree_of)
}

/// The columns of `conjecture_proofs`.
struct ProofRows<'b> {
    n: &'b UInt32Array,
    name: &'b StringArray,
    proof: &'b UInt32Array,
    kind: &'b StringArray,
    sign: &'b Int64Array,
    holds: &'b BooleanArray,
    bound: &'b StringArray,
    term: &'b StringArray,
    index: &'b UInt32Array,
    coefficient: &'b StringArray,
}

impl<'b> ProofRows<'b> {
    fn of(proofs: &'b RecordBatch) -> anyhow::Result<Self> {
        Ok(ProofRows {
            n: proofs.u32s("n")?,
            name: proofs.strs("name")?,
            proof: proofs.u32s("proof")?,
            kind: proofs.strs("kind")?,
            sign: proofs.i64s("sign")?,
            holds: proofs.bools("holds")?,
            bound: proofs.strs("bound")?,
            term: proofs.strs("term")?,
            index: proofs.u32s("index")?,
            coefficient: proofs.strs("coefficient")?,
        })
    }

    /// A bound or a box bound from its rows: the multipliers on trees (by
    /// number, `tree`) and on keys, the weights of a bound, a box's key.
    fn bound<'t>(&self, rows: &[usize], n: u32, tree: impl Fn(u32) -> Option<&'t Tree>) -> anyhow::Result<Proof> {
        let first = rows[0];
        let kind = self.kind.value(first);
        let (mut weights, mut multipliers, mut box_key) = (Vec::new(), Vec::new(), None);
        for &r in rows {
            if self.sign.value(r) != self.sign.value(first) || self.bound.value(r) != self.bound.value(first) {
                anyhow::bail!("rows of one bound disagree");
            }
            let i = self.index.value(r);
            if self.term.value(r) == "box_key" {
                box_key = Some(i as usize);
                continue;
            }
            let c = parse(self.coefficient.value(r))?;
            match self.term.value(r) {
                "weight" if kind == "bound" => weights.push((i as usize, c)),
                "key" if i >= 1 && i <= n => multipliers.push((Cut::Nonnegative(i as usize - 1), c)),
                "tree" => multipliers.push((Cut::Tree(tree(i).ok_or_else(|| anyhow!("no face tree {i}"))?.clone()), c)),
                other => anyhow::bail!("term {other:?} with index {i} in a bound"),
            }
        }
        let sign = i8::try_from(self.sign.value(first)).map_err(|_| anyhow!("sign out of range"))?;
        let lower = LowerBound { bound: parse(self.bound.value(first))?, multipliers };
        match (kind, box_key) {
            ("box", Some(key)) if key >= 1 && key <= n as usize => Ok(Proof::Box { key: key - 1, sign, lower }),
            ("bound", None) => Ok(Proof::Bound { sign, weights, lower }),
            _ => anyhow::bail!("a box without its key, or a bound with one"),
        }
    }

    /// A witness's alpha: one row per key 1..=N.
    fn witness(&self, rows: &[usize], n: u32) -> anyhow::Result<Vec<Rational>> {
        let mut alpha = vec![Rational::from(0); n as usize];
        let mut seen = vec![false; n as usize];
        for &r in rows {
            let k = self.index.value(r) as usize;
            if self.term.value(r) != "alpha" || k == 0 || k > n as usize || std::mem::replace(&mut seen[k - 1], true) {
                anyhow::bail!("a witness term {:?} for key {k}", self.term.value(r));
            }
            alpha[k - 1] = parse(self.coefficient.value(r))?;
        }
        if seen.iter().any(|s| !s) {
            anyhow::bail!("a witness without every key");
        }
        Ok(alpha)
    }
}

fn parse(text: &str) -> anyhow::Result<Rational> {
    parse_pq(text).map_err(|e| anyhow!(e))
}
