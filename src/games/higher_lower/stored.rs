//! A solve task's stored solutions read back by N, for its exact check and
//! for claims decided later: V, Alice's alpha, Bob's mixture, and what the
//! face stage kept for later claims (the trees it found as cuts, the face's
//! box among the stored proofs).

use super::face::polytope::LowerBound;
use super::face::proofs::StoredProofs;
use super::face::verdicts::Proof;
use super::mixture::Mixture;
use super::tree::Tree;
use crate::artifacts::columns::Columns;
use crate::exact::{Rational, parse_pq};
use anyhow::anyhow;
use arrow::array::{Array, ListArray, UInt8Array};
use arrow::record_batch::RecordBatch;
use std::collections::BTreeMap;

/// Alice's alpha of every N as (key, probability).
pub type Alphas = BTreeMap<u32, Vec<(u32, Rational)>>;
/// Bob's mixture of every N.
pub type Mixtures = BTreeMap<u32, Mixture>;

/// One stored N: V, alpha over keys 1..=N, Bob's mixture, the wider one the
/// face was built from (if any), and the stored dimension of Alice's optimal
/// face (0: alpha is her only optimal strategy).
pub struct Solution {
    pub value: Rational,
    pub alpha: Vec<Rational>,
    pub bob: Mixture,
    pub face_mixture: Option<Mixture>,
    pub face_dimension: u32,
}

impl Solution {
    /// The optimal mixture of Bob's whose support gives the face's hull.
    pub fn hull_mixture(&self) -> &Mixture {
        self.face_mixture.as_ref().unwrap_or(&self.bob)
    }
}

/// The stored solutions by N, from the `values`, `alice`, `bob` and
/// `face_mixture` tables; without the last two (`None`), V and alpha alone,
/// Bob's mixtures left empty (the most costly rows to read, which a reader
/// that decides from alpha* alone does not need).
pub fn solutions(
    values: &RecordBatch,
    alice: &RecordBatch,
    mixtures: Option<[&RecordBatch; 2]>,
) -> anyhow::Result<BTreeMap<u32, Solution>> {
    let mut alphas = read_alphas(alice)?;
    let (mut mixtures, mut face_mixtures) = match mixtures {
        Some([bob, face_mixture]) => (
            read_mixtures(bob)?.map_err(|why| anyhow!(why))?,
            read_mixtures(face_mixture)?.map_err(|why| anyhow!(why))?,
        ),
        None => (Mixtures::new(), Mixtures::new()),
    };
    let with_mixtures = !mixtures.is_empty();
    let (n, value, dimension) = (values.u32s("n")?, values.strs("value")?, values.u32s("face_dimension")?);
    let mut solutions = BTreeMap::new();
    for r in 0..values.num_rows() {
        let n = n.value(r);
        let mut alpha = alphas.remove(&n).ok_or_else(|| anyhow!("alice: no rows for N = {n}"))?;
        alpha.sort_by_key(|(i, _)| *i);
        anyhow::ensure!(
            alpha.iter().enumerate().all(|(k, (i, _))| *i as usize == k + 1) && alpha.len() == n as usize,
            "alice: N = {n} has not exactly the keys 1..=N"
        );
        let bob = match mixtures.remove(&n) {
            Some(bob) => bob,
            None if with_mixtures => anyhow::bail!("bob: no trees for N = {n}"),
            None => Mixture::default(),
        };
        let alpha = alpha.into_iter().map(|(_, p)| p).collect();
        let face_dimension = dimension.value(r);
        let face_mixture = face_mixtures.remove(&n);
        solutions.insert(n, Solution { value: parse(value.value(r))?, alpha, bob, face_mixture, face_dimension });
    }
    Ok(solutions)
}

/// The face stage's tree cuts by N (`face_cuts`).
pub fn cuts(face_cuts: &RecordBatch) -> anyhow::Result<BTreeMap<u32, Vec<Tree>>> {
    let (n, depths) = (face_cuts.u32s("n")?, face_cuts.column_as::<ListArray>("depths")?);
    let mut cuts: BTreeMap<u32, Vec<Tree>> = BTreeMap::new();
    for r in 0..face_cuts.num_rows() {
        let list = depths.value(r);
        let d = list.as_any().downcast_ref::<UInt8Array>().ok_or_else(|| anyhow!("depths are not u8 lists"))?;
        let tree =
            Tree::from_depths(d.values().to_vec()).map_err(|e| anyhow!("face cut of N = {}: {e}", n.value(r)))?;
        cuts.entry(n.value(r)).or_default().push(tree);
    }
    Ok(cuts)
}

/// The face's box by N, as the stored proofs hold it (every claim that used
/// the box stored all its sides): (key, sign) -> the side's bound.
pub fn boxes(proofs: &StoredProofs) -> BTreeMap<u32, BTreeMap<(usize, i8), LowerBound>> {
    let mut boxes: BTreeMap<u32, BTreeMap<(usize, i8), LowerBound>> = BTreeMap::new();
    for ((n, _), list) in proofs {
        for proof in list {
            if let Proof::Box { key, sign, lower } = proof {
                boxes.entry(*n).or_default().entry((*key, *sign)).or_insert_with(|| lower.clone());
            }
        }
    }
    boxes
}

pub fn read_alphas(alice: &RecordBatch) -> anyhow::Result<Alphas> {
    let mut alphas = Alphas::new();
    let (an, ai, ap) = (alice.u32s("n")?, alice.u32s("i")?, alice.strs("prob")?);
    for r in 0..alice.num_rows() {
        alphas.entry(an.value(r)).or_default().push((ai.value(r), parse(ap.value(r))?));
    }
    Ok(alphas)
}

/// Bob's mixtures; the inner `Err` names a tree stored with the wrong height.
pub fn read_mixtures(bob: &RecordBatch) -> anyhow::Result<Result<Mixtures, String>> {
    let (bn, bw, bh) = (bob.u32s("n")?, bob.strs("weight")?, bob.u8s("height")?);
    let depths = bob.column_as::<ListArray>("depths")?;
    let mut mixtures = Mixtures::new();
    for r in 0..bob.num_rows() {
        let list = depths.value(r);
        let d = list.as_any().downcast_ref::<UInt8Array>().ok_or_else(|| anyhow!("depths are not u8 lists"))?;
        let tree =
            Tree::from_depths(d.values().to_vec()).map_err(|e| anyhow!("stored tree of N = {}: {e}", bn.value(r)))?;
        if tree.len() != bn.value(r) as usize || tree.height() != bh.value(r) {
            return Ok(Err(format!(
                "bob: N = {}: a tree of {} keys and height {} is stored with height {}",
                bn.value(r),
                tree.len(),
                tree.height(),
                bh.value(r)
            )));
        }
        mixtures.entry(bn.value(r)).or_default().push(tree, parse(bw.value(r))?);
    }
    Ok(Ok(mixtures))
}

/// The height-limited game's alpha of every N that has one (key -> probability), with the height it refutes.
pub type HeightProofs = BTreeMap<u32, (u8, BTreeMap<u32, Rational>)>;

/// The rows of `height_proofs` by N.
pub fn read_height_proofs(rows: &RecordBatch) -> anyhow::Result<HeightProofs> {
    let mut height_proofs = HeightProofs::new();
    let (hn, hi, hh, hp) = (rows.u32s("n")?, rows.u32s("i")?, rows.u8s("refuted_height")?, rows.strs("prob")?);
    for r in 0..rows.num_rows() {
        let entry = height_proofs.entry(hn.value(r)).or_insert_with(|| (hh.value(r), BTreeMap::new()));
        entry.1.insert(hi.value(r), parse(hp.value(r))?);
    }
    Ok(height_proofs)
}

fn parse(text: &str) -> anyhow::Result<Rational> {
    parse_pq(text).map_err(|e| anyhow!(e))
}
