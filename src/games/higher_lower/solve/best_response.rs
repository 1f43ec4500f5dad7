//! Bob's best tree against a point (a distribution over the symmetric rows),
//! and what it says: the lower bound on V it proves and how much it would
//! improve the master.

use super::options::Method;
use crate::games::higher_lower::pricing::{depth_limited_dp, floored, interval_dp, monotone_root_dp_f64};
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;

/// Bob's best tree against the symmetric distribution `point`: by the
/// method's pricer, or among the trees of at most `height_limit` levels.
pub fn price_within(game: &SymmetricGame, method: Method, height_limit: Option<u8>, point: &[f64]) -> Tree {
    match height_limit {
        None => price(game, method, point),
        Some(h) => {
            // Positive weights (1e-9 of the mean, so that a proof sees every key
            // played): the depth-limited DP's cheapest embedding is then a tree.
            let weights = floored(game.key_weights(point), 1e-9);
            depth_limited_dp(&weights, u32::from(h)).expect("trees of the limited height hold the N keys").tree
        }
    }
}

/// Bob's best tree against the symmetric distribution `point`, by the method's pricer.
pub fn price(game: &SymmetricGame, method: Method, point: &[f64]) -> Tree {
    let weights = without_zeros(game.key_weights(point));
    match method {
        Method::Dresher => interval_dp(&weights).tree,
        Method::FastPricing | Method::Guess => {
            let h = usize::BITS - game.n.leading_zeros() + 1; // ceil(lg(N+1)) + 1
            depth_limited_dp(&weights, h).map_or_else(|| interval_dp(&weights).tree, |p| p.tree)
        }
        Method::Auto => monotone_root_dp_f64(&weights).tree,
    }
}

/// The weights with every zero (or negative rounding noise) raised to 1e-12
/// of the mean weight. Keys of weight zero can sit anywhere in an optimal
/// tree, and the DPs' leftmost tie-breaking strings a run of them into a
/// path (hundreds of levels deep from a cold start's guess); the tiny weight
/// makes that run a balanced subtree.
pub fn without_zeros(weights: Vec<f64>) -> Vec<f64> {
    floored(weights, 1e-12)
}

/// pi . S_T: twice the expected guesses of the tree against `point`.
pub fn column_cost(game: &SymmetricGame, tree: &Tree, point: &[f64]) -> f64 {
    game.column(tree).iter().zip(point).map(|(s, p)| f64::from(*s) * p).sum()
}

/// The lower bound on V that the best tree against `point` proves: its expected guesses.
pub fn lower_bound(game: &SymmetricGame, best: &Tree, point: &[f64]) -> f64 {
    column_cost(game, best, point) / 2.0
}

/// The tree's reduced cost 1 - w . S_T at the master's duals `w`: how much
/// it would improve the master (positive: it enters).
pub fn gain(game: &SymmetricGame, tree: &Tree, duals: &[f64]) -> f64 {
    1.0 - game.column(tree).iter().zip(duals).map(|(s, w)| f64::from(*s) * w).sum::<f64>()
}
