//! The walks' entering trees. Bob's best tree against the basis's own duals
//! makes a repair near N = 2048 column generation one tree at a time, and
//! its tail: the duals of a nearly optimal, nearly degenerate basis swing
//! from pivot to pivot, and most trees they price leave again (warm 1988
//! entered 7,555 trees never basic before into a basis of 994). Priced at
//! a point between the best lower-bound point so far and the duals
//! (Wentges smoothing, as the float solve's rounds do), the trees are
//! nearer Alice's optimal strategy, and more of them stay. A tree that does
//! not improve the basis there is a mispricing: the duals' own tree enters
//! instead.

use super::float_inverse::FloatInverse;
use crate::games::higher_lower::solve::stabilisation::mix;
use crate::games::higher_lower::solve::{BasicVar, Method, gain, lower_bound, price};
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;

/// The centre's weight in the smoothed point centre * c + duals * (1 - c).
/// Walk pivots from the float solve's basis at warm N = 1988: 7,555 priced at
/// the duals alone, 2,429 smoothed; at N = 500 stopped at 1e-6, 3,490 and 803
/// (0.5, 0.8 and 0.95 measured too: docs/history.md).
const SMOOTHING: f64 = 0.9;

/// The best point priced so far and the lower bound on V its best tree proves.
struct Centre {
    point: Vec<f64>,
    bound: f64,
}

/// The walk's stability centre: the best lower-bound point it has priced.
pub struct WalkPricing {
    centre: Option<Centre>,
}

/// The basis's float duals w = c_B' B^-1, and the same normalised to a
/// distribution (negative noise clipped): the point Bob's tree is priced at.
pub struct Duals {
    w: Vec<f64>,
    point: Vec<f64>,
}

impl Duals {
    /// `None` if the duals are not positive.
    pub fn of(inverse: &FloatInverse, basis: &[BasicVar]) -> Option<Self> {
        let w = inverse.duals(basis);
        let total: f64 = w.iter().map(|v| v.max(0.0)).sum();
        if total.is_nan() || total <= 0.0 {
            return None;
        }
        let point = w.iter().map(|v| v.max(0.0) / total).collect();
        Some(Duals { w, point })
    }
}

impl WalkPricing {
    /// Pricing centred at `centre` (the float solve's stability centre); with
    /// none, the first duals priced become the centre.
    pub fn new(game: &SymmetricGame, centre: Option<&[f64]>) -> Self {
        let centre = centre.map(|c| Centre { point: c.to_vec(), bound: lower_bound(game, &best(game, c), c) });
        WalkPricing { centre }
    }

    /// Bob's best tree at the smoothed point, if it improves the basis at its
    /// float duals; `None` without a centre or when it does not (then
    /// [`WalkPricing::at_duals`]).
    pub fn smoothed(&mut self, game: &SymmetricGame, duals: &Duals) -> Option<Tree> {
        let point = mix(&self.centre.as_ref()?.point, &duals.point, SMOOTHING);
        let tree = self.priced(game, point);
        (gain(game, &tree, &duals.w) > 0.0).then_some(tree)
    }

    /// Bob's best tree at the duals.
    pub fn at_duals(&mut self, game: &SymmetricGame, duals: &Duals) -> Tree {
        self.priced(game, duals.point.clone())
    }

    /// Bob's best tree at `point`; the point becomes the centre if that
    /// tree proves a better lower bound than the centre's.
    fn priced(&mut self, game: &SymmetricGame, point: Vec<f64>) -> Tree {
        let tree = best(game, &point);
        let bound = lower_bound(game, &tree, &point);
        if self.centre.as_ref().is_none_or(|c| bound > c.bound) {
            self.centre = Some(Centre { point, bound });
        }
        tree
    }
}

fn best(game: &SymmetricGame, point: &[f64]) -> Tree {
    price(game, Method::Auto, point)
}
