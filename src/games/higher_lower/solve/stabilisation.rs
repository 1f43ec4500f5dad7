//! Stabilisation: what keeps a column generation from following the master's
//! duals from vertex to vertex (Kelley's cutting planes oscillate). The
//! stability centre is the point with the best lower bound so far; the points
//! priced each round lie between it and the master's duals (Wentges
//! smoothing), and warm solves keep the duals in a box around it. The solve
//! (and with it Table 3.1's height-limited game, `height_limit`) runs on a
//! `StabilisedMaster`.

use super::best_response::lower_bound;
use super::distinct_columns::DistinctColumns;
use super::restricted_master::RestrictedMaster;
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;

/// Warm `auto` solves keep the master's duals w (Alice's strategy, scaled by
/// 1 / (2 lower)) at least 1 - `BOX_WIDTH` times the stability centre's, row
/// by row, until no point priced improves the master: slack j costs that
/// bound (`RestrictedMaster::set_slack_costs`), so a dual below it lets the
/// slack enter. Since sum(w) is about 1 / (2V), the duals can move at most
/// about `BOX_WIDTH` of their mass away from the centre: a trust region in
/// L1 that cuts Kelley's vertex jumps short. A cold start's centre is far
/// from the optimum and a box would hold it there, so cold solves go
/// unboxed. The widths tried: docs/history.md.
pub const BOX_WIDTH: f64 = 0.02;

/// Rounds without a new centre after which the box doubles in width: the
/// optimum can lie outside the box while nothing inside it beats the centre,
/// and the solve would creep toward it round by round.
const BOX_PATIENCE: u32 = 10;

/// The relative improvement of the lower bound below which the solve's
/// centre stays where it is: rounding noise, not progress.
pub const CENTRE_NOISE: f64 = 1e-12;

/// c * a + (1 - c) * b.
pub fn mix(a: &[f64], b: &[f64], c: f64) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| c * x + (1.0 - c) * y).collect()
}

/// The best lower bound so far and, where the method stabilises, the point
/// that proved it.
pub struct StabilityCentre {
    point: Option<Vec<f64>>,
    /// The best lower bound seen (V >= lower).
    pub lower: f64,
    /// Rounds since the point last moved.
    pub rounds_unmoved: u32,
    /// The relative gain in the bound that moves the point (`CENTRE_NOISE`, or 0).
    noise: f64,
}

impl StabilityCentre {
    /// A centre at `point` (`None`: track the lower bound only), with no bound yet.
    pub fn new(point: Option<Vec<f64>>, noise: f64) -> Self {
        StabilityCentre { point, lower: f64::NEG_INFINITY, rounds_unmoved: 0, noise }
    }

    pub fn point(&self) -> Option<&[f64]> {
        self.point.as_deref()
    }

    /// A point priced with the lower bound `bound`: it raises the bound, and
    /// becomes the centre if it beats the old bound by more than the noise.
    pub fn offer(&mut self, point: &[f64], bound: f64) {
        if bound > self.lower {
            if let Some(centre) = &mut self.point
                && bound > self.lower + self.noise * bound.abs()
            {
                *centre = point.to_vec();
                self.rounds_unmoved = 0;
            }
            self.lower = bound;
        }
    }
}

/// The box around the centre that warm `auto` solves keep the duals in (`BOX_WIDTH`).
pub struct DualBox {
    pub active: bool,
    width: f64,
}

impl DualBox {
    /// A box of width `BOX_WIDTH` around the centre.
    pub fn around_the_centre() -> Self {
        DualBox { active: true, width: BOX_WIDTH }
    }

    /// No box: the master's duals are free.
    pub fn none() -> Self {
        DualBox { active: false, width: BOX_WIDTH }
    }

    /// The slacks' costs that keep the duals w at least 1 - width times the
    /// `centre` scaled to the master's duals (sum(w) = 1 / (2V), V about `lower`).
    pub fn slack_costs(&self, centre: &[f64], lower: f64) -> Vec<f64> {
        let scale = if lower > 0.0 { (1.0 - self.width) / (2.0 * lower) } else { 0.0 };
        centre.iter().map(|x| x * scale).collect()
    }

    pub fn widen(&mut self) {
        self.width = (2.0 * self.width).min(1.0);
    }

    /// Widens the box once the centre has not moved for `BOX_PATIENCE`
    /// rounds (the optimum lies outside it), and restarts the count.
    pub fn widen_if_stuck(&mut self, centre: &mut StabilityCentre) {
        if self.active && centre.rounds_unmoved >= BOX_PATIENCE {
            self.widen();
            centre.rounds_unmoved = 0;
        }
    }
}

/// The machinery of the stabilised column generation: the restricted
/// master, its distinct columns with their trees, and the stability centre.
pub struct StabilisedMaster {
    pub game: SymmetricGame,
    pub master: RestrictedMaster,
    pub columns: DistinctColumns,
    pub centre: StabilityCentre,
}

impl StabilisedMaster {
    /// An empty master over the game's rows.
    pub fn new(game: SymmetricGame, centre: StabilityCentre) -> Self {
        let master = RestrictedMaster::new(game.rows(), &[]);
        StabilisedMaster { game, master, columns: DistinctColumns::default(), centre }
    }

    /// Adds the tree's column unless an equal one is in; whether it was added.
    pub fn add(&mut self, tree: Tree) -> bool {
        self.columns.add(&self.game, &mut self.master, tree)
    }

    /// Adds the trees' columns; how many were new.
    pub fn add_all(&mut self, trees: impl IntoIterator<Item = Tree>) -> usize {
        trees.into_iter().map(|tree| usize::from(self.add(tree))).sum()
    }

    /// Offers `point`, against which `best` is Bob's best tree, to the
    /// centre; the lower bound it proves.
    pub fn offer(&mut self, point: &[f64], best: &Tree) -> f64 {
        let bound = lower_bound(&self.game, best, point);
        self.centre.offer(point, bound);
        bound
    }
}
