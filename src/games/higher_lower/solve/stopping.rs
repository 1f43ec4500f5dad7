//! When a solve ends. A round whose points find no improving tree does not
//! end it at once: the box around the centre is dropped, a loosely solved
//! master is solved fully, the final basis is polished for b = 1, and trees
//! that improve by more than rounding noise get a few end rounds; only then
//! is the master's optimum final. A stalled tail (the bounds agree, the
//! centre does not move) ends on its bounds. A height-limited solve ends at
//! its first point above its stop with a margin (`SolveOptions::stop_above`).

use super::column_generation::{ColumnGeneration, Round, loose_tolerance};
use super::options::{Method, SpeedUp};
use super::restricted_master::Optimum;
use crate::games::higher_lower::tree::Tree;

/// Rounds without a new stability centre after which `auto` stops once its
/// bounds agree to the tolerance (the relative gap between the master's
/// value and the best lower bound), even if priced trees still improve the
/// master at its duals. At m ~ 1000 the master's duals and value are noise
/// at the 1e-9 level, ten times the tolerance: the trees it prices improve
/// it by that noise, and the reduced-cost test is met only by luck of the
/// path. What improves by less than that noise is left to the exact stage's
/// pivots. A solve that converges moves its centre every few rounds once its
/// gap is that small, and cold starts stall for long only while their gap
/// is still wide.
///
/// The same count ends a solve whose fully solved master already holds every
/// tree its rounds price, round after round: at m ~ 1000 the master's own
/// optimality tolerance is above the trees' gains (rounding noise), so
/// nothing enters and nothing moves, and with the box in place the centre's
/// count of unmoved rounds never reaches the stalled-tail rule's.
const STALLED_ROUNDS: u32 = 30;

/// Polishes of the final basis (`RestrictedMaster::polish`) before the exact
/// stage takes what is left: each one that pivots moves the duals, so pricing
/// runs again and may add columns.
const MAX_POLISHES: u32 = 4;

/// Reduced cost above which a tree still enters once the column generation
/// has converged to the solve's tolerance (1e-10 in the configs), for at
/// most `MAX_END_ROUNDS` rounds. Such a tree improves the master by more than
/// rounding noise of the refined duals (`RestrictedMaster::refine_duals`),
/// and the exact stage would otherwise pivot it in exactly, one slow exact
/// pivot at a time.
const FINAL_TOLERANCE: f64 = 1e-12;
const MAX_END_ROUNDS: u32 = 4;

impl ColumnGeneration<'_> {
    /// Lets the round's improving trees in and returns `None`, or returns
    /// the final optimum when the solve ends.
    pub fn after(&mut self, round: Round) -> Option<Optimum> {
        let Round { optimum, upper, mut entering, near_misses } = round;
        if self.options.stop_above.is_some_and(|stop| self.proves_with_margin(stop, upper)) {
            return Some(optimum);
        }
        if self.stalled(upper) || self.ending.rounds_without_new >= STALLED_ROUNDS {
            // The bounds agree and the centre is stuck, or every tree priced is
            // in the fully solved master already: the tail is the master's noise.
            entering.clear();
        }
        let solved_fully = self.ending.master_tolerance == 0.0;
        if entering.is_empty() || self.capped() {
            return self.ends_here(&entering, near_misses).then_some(optimum);
        }
        if self.options.method == Method::Auto && self.options.uses(SpeedUp::LooseMaster) {
            self.ending.master_tolerance = loose_tolerance(upper, self.core.centre.lower);
        }
        if self.core.add_all(entering) == 0 {
            // Every improving tree is in the master already: a loose master
            // left it out (solve it fully), or the box keeps it out (widen it).
            if self.ending.master_tolerance == 0.0 && self.dual_box.active {
                self.dual_box.widen();
            }
            self.ending.master_tolerance = 0.0;
            self.ending.rounds_without_new += u32::from(solved_fully);
        } else {
            self.ending.rounds_without_new = 0;
        }
        self.dual_box.widen_if_stuck(&mut self.core.centre);
        None
    }

    /// Whether the centre's bound is above `stop` and at least halfway from
    /// it to the master's value: a height-limited alpha with that margin
    /// proved N + 1's bound once stretched at N = 1986 and 1987, where one
    /// just above V did not at 1986 (`height_limit::tallest_tree_at_least`).
    fn proves_with_margin(&self, stop: f64, upper: f64) -> bool {
        let lower = self.core.centre.lower;
        lower > stop && lower - stop >= upper - lower
    }

    /// The stalled-tail rule (`STALLED_ROUNDS`).
    fn stalled(&self, upper: f64) -> bool {
        self.options.method == Method::Auto
            && self.core.centre.rounds_unmoved >= STALLED_ROUNDS
            && upper - self.core.centre.lower <= self.options.tolerance * upper.abs()
    }

    /// Whether the round cap (`SolveOptions::max_rounds`) is reached.
    fn capped(&self) -> bool {
        self.rounds >= self.options.max_rounds
    }

    /// Whether the solve ends after a round in which nothing entered or the
    /// round cap was reached. It goes on without the box, then with the
    /// master solved fully, then after each polish that pivots, then for the
    /// end rounds' trees.
    fn ends_here(&mut self, entering: &[Tree], near_misses: Vec<(Tree, f64)>) -> bool {
        let (converged, capped) = (entering.is_empty(), self.capped());
        if self.dual_box.active && !capped {
            // Nothing improves inside the box: the master alone from here.
            self.dual_box.active = false;
            self.core.master.set_slack_costs(vec![0.0; self.core.game.rows()]);
            return false;
        }
        if self.ending.master_tolerance > 0.0 && !capped {
            // Nothing enters against a loosely solved master: solve it fully and price again.
            self.ending.master_tolerance = 0.0;
            return false;
        }
        // Optimal for the perturbed b: make the basis feasible for b = 1
        // too, and price again if that moved the duals.
        if converged && self.ending.polishes < MAX_POLISHES && self.core.master.polish() > 0 {
            self.ending.polishes += 1;
            return false;
        }
        // Converged to the tolerance: trees that still improve by more
        // than rounding noise enter for a few more rounds (`FINAL_TOLERANCE`).
        let end_entering = near_misses.into_iter().filter(|(_, gain)| *gain > FINAL_TOLERANCE).map(|(tree, _)| tree);
        if converged && self.ending.end_rounds < MAX_END_ROUNDS && !capped && self.core.add_all(end_entering) > 0 {
            self.ending.end_rounds += 1;
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::higher_lower::solve::options::SolveOptions;

    /// Rounds whose improving trees the fully solved master holds already
    /// (as at m ~ 1000, where their gains are its rounding noise) end the
    /// solve after `STALLED_ROUNDS` of them, though the bounds are far apart.
    #[test]
    fn a_master_that_holds_every_priced_tree_ends_the_solve() {
        let options = SolveOptions::new(Method::Auto, 1e-10, 1_000_000);
        let mut solve = ColumnGeneration::start(40, &options, None, &|_| {});
        let held: Vec<Tree> = solve.core.columns.trees.iter().take(3).cloned().collect();
        for k in 0..200 {
            let mut round = solve.round();
            if round.upper - solve.core.centre.lower <= 1e-10 * round.upper {
                panic!("the bounds met at round {k}: the test needs them apart");
            }
            round.entering = held.clone();
            if solve.after(round).is_some() {
                assert!(k >= STALLED_ROUNDS as usize, "ended after {k} rounds");
                return;
            }
        }
        panic!("the solve did not end");
    }
}
