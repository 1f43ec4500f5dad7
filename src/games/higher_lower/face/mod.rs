//! The face stage: what one N's exact solution says about all of Alice's
//! optimal strategies, not just the computed one.
//!
//! - `hull`: the affine hull of her optimal face, from Bob's optimal mixture
//!   (complementary slackness): its dimension and exact directions.
//! - `polytope`: linear programs over the face (a polytope in the hull's
//!   coordinates, the trees entering as cuts), exact at the end: proven
//!   bounds and exact optimal points.
//! - `verdicts`: each claim decided over every optimal alpha, with proofs,
//!   and the check of stored proofs.
//! - `proofs`: the proofs as table rows, and read back.
//! - `pinning`: Bob's mixture widened by the box LPs' proofs where they
//!   prove the face a point that his mixture's hull does not.
//!
//! `face_stage` runs it for one N, with Table 3.1's bound (`height_limit`).

mod pinning;
pub mod polytope;
pub mod proofs;
#[cfg(test)]
mod tests;
pub mod verdicts;

use super::claims::Claim;
use super::height_limit::HeightHints;
use super::hull::OptimalFace;
use super::mixture::Mixture;
use super::tree::Tree;
use crate::exact::Rational;
use polytope::AliceFace;
use verdicts::{Decided, decide_all};

/// What the face stage adds to one N's exact solution.
#[derive(Debug, Clone)]
pub struct FaceOutcome {
    /// Dimension of the affine hull of Alice's optimal strategies (0: alpha unique).
    pub dimension: usize,
    /// A wider optimal mixture of Bob's whose hull is the point alpha*
    /// (`pinning`), where the given one's was larger: the face's mixture from now on.
    pub pinned_mixture: Option<Mixture>,
    /// Every claim asked, in order.
    pub decided: Vec<Decided>,
    /// The trees the face LPs found as cuts, for claims asked later (`face_cuts`).
    pub cuts: Vec<Tree>,
    /// Proven: every optimal mixture of Bob's uses a tree of at least this height.
    pub bob_tallest_at_least: u8,
    /// The height-limited game's alpha that proves it, where alpha* does not.
    pub height_proof: Option<Vec<Rational>>,
    pub seconds: f64,
}

/// Decides every claim over Alice's optimal face and bounds the height of
/// Bob's optimal mixtures, from one N's exact solution: V, Alice's optimal
/// alpha, an optimal mixture of Bob's as wide as there is (`exact_stage::widen`;
/// its support gives the face's hull and the height-limited game's first
/// columns) and its hull if the caller built it already, the tallest tree of the computed mixture, and what the
/// solve knows that shortens the search for Table 3.1's bound (`height_limit::HeightHints`).
pub fn face_stage(
    value: &Rational,
    alpha: &[Rational],
    hull_mixture: &Mixture,
    hull: Option<OptimalFace>,
    tallest: u8,
    claims: &[Claim],
    height_hints: HeightHints,
) -> Result<FaceOutcome, String> {
    let start = std::time::Instant::now();
    let hull = hull.unwrap_or_else(|| OptimalFace::new(value, hull_mixture));
    let mut face = AliceFace::from_hull(value, alpha, hull)?;
    let mut pinned_mixture = None;
    if face.dimension() > 0
        && let Some((pinned, point)) = pinning::pinned_mixture(&face, value, hull_mixture)
    {
        (face, pinned_mixture) = (point, Some(pinned));
    }
    let hull_mixture = pinned_mixture.as_ref().unwrap_or(hull_mixture);
    let decided = decide_all(&face, claims);
    let (bob_tallest_at_least, height_proof) =
        super::height_limit::tallest_tree_at_least(value, alpha, hull_mixture, tallest, height_hints);
    Ok(FaceOutcome {
        dimension: face.dimension(),
        pinned_mixture,
        decided,
        cuts: face.tree_cuts(),
        bob_tallest_at_least,
        height_proof,
        seconds: start.elapsed().as_secs_f64(),
    })
}
