//! One solve's column-generation loop: each round re-optimises the restricted
//! master, prices the round's points (`points`) and collects the trees that
//! would improve the master; the stopping rules (`stopping`) then let them in
//! or end the solve.

use super::best_response::{gain, lower_bound, price_within};
use super::options::{Method, SolveOptions, SpeedUp};
use super::points::{Anchors, GUESS_WEIGHT, Start, decayed, round_points};
use super::restricted_master::{EnteringRule, Optimum, Var};
use super::solution::{BasicVar, FloatSolution, TracePoint};
use super::stabilisation::{CENTRE_NOISE, DualBox, StabilisedMaster, StabilityCentre};
use super::start::first_columns;
use crate::games::higher_lower::pricing::interval_dp;
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;
use rayon::prelude::*;
use std::time::Instant;

/// `auto` solves each master only until no reduced cost exceeds this fraction
/// of the round's relative gap between the bounds (at most `LOOSE_MASTER_MAX`),
/// and the last to full precision: far from the optimum the exact optimum of
/// the master is not worth its pivots.
const LOOSE_MASTER: f64 = 0.1;
const LOOSE_MASTER_MAX: f64 = 1e-3;

/// A loose master's tolerance for a round whose bounds are `upper` and `lower` (`LOOSE_MASTER`).
pub fn loose_tolerance(upper: f64, lower: f64) -> f64 {
    (LOOSE_MASTER * (upper - lower) / upper).clamp(0.0, LOOSE_MASTER_MAX)
}

/// The state of one solve between rounds.
pub struct ColumnGeneration<'o> {
    pub options: &'o SolveOptions,
    pub start: Start,
    pub core: StabilisedMaster,
    /// The seed's guess gamma (`guess`), and the weight it still has.
    gamma: Option<Vec<f64>>,
    guess_weight: f64,
    /// The running average of the master's normalised duals (`points::TOWARD_AVERAGE`).
    average: Option<Vec<f64>>,
    pub dual_box: DualBox,
    pub ending: Ending,
    /// Whether the centre was priced before the first master (boxed solves).
    priced_centre: bool,
    pub rounds: u32,
    pricing_calls: u32,
    /// Pivots of a cold start's own master (`analytic_centre`), counted with the solve's.
    pivots_before: u64,
    trace: Vec<TracePoint>,
}

/// What one round found.
pub struct Round {
    /// The master's optimum this round.
    pub optimum: Optimum,
    /// The master's value: an upper bound on V.
    pub upper: f64,
    /// The trees that improve the master by more than the tolerance.
    pub entering: Vec<Tree>,
    /// The round's other best trees with what they would improve (`auto`
    /// only): candidates for the end rounds (`stopping::FINAL_TOLERANCE`).
    pub near_misses: Vec<(Tree, f64)>,
}

/// The end of a solve: how precisely the master is solved, and what the end
/// has spent so far (`stopping`).
#[derive(Default)]
pub struct Ending {
    /// Reduced costs up to this count as optimal in the next master solve
    /// (0: full precision; see `LOOSE_MASTER`).
    pub master_tolerance: f64,
    pub polishes: u32,
    pub end_rounds: u32,
    /// Consecutive fully solved rounds whose improving trees were all in
    /// the master already (`stopping::STALLED_ROUNDS`).
    pub rounds_without_new: u32,
}

impl<'o> ColumnGeneration<'o> {
    /// The master with its first columns; `previous` is N - 1's solution, if
    /// the method warm-starts from it; `report` hears how a long cold start goes.
    pub fn start(n: usize, options: &'o SolveOptions, previous: Option<&FloatSolution>, report: &dyn Fn(&str)) -> Self {
        // A height-limited solve starts from N's own solution, every other from N - 1's.
        let from_n = usize::from(options.height_limit.is_none());
        let previous = previous.filter(|p| p.n + from_n == n && options.method.uses_previous());
        let game = SymmetricGame::new(n);
        let mut core = StabilisedMaster::new(game, StabilityCentre::new(None, CENTRE_NOISE));
        if !options.uses(SpeedUp::WorkingSet) {
            core.master.price_the_whole_pool();
        }
        if !options.uses(SpeedUp::SketchedEdges) {
            core.master.set_entering_rule(EnteringRule::ExactEdges);
        }
        let first = first_columns(&mut core, options, previous, report);
        let gamma = first.gamma;
        // Our stability centre: the point with the best lower bound so far, starting
        // from the guess (which away from powers of two is exactly optimal for Alice).
        let centre = gamma.clone().filter(|_| options.method == Method::Auto);
        // A height-limited solve's proof is its centre: every better point becomes it.
        let noise = if options.height_limit.is_some() { 0.0 } else { CENTRE_NOISE };
        core.centre = StabilityCentre::new(centre, noise);
        let guess_weight = if options.method == Method::Guess && gamma.is_some() { GUESS_WEIGHT } else { 0.0 };
        let start = if previous.is_some() { Start::Warm } else { Start::Cold };
        let boxed = options.uses(SpeedUp::BoxedDuals) && options.method == Method::Auto && start == Start::Warm;
        let dual_box = if boxed { DualBox::around_the_centre() } else { DualBox::none() };
        let mut solve = ColumnGeneration {
            options,
            start,
            core,
            gamma,
            guess_weight,
            average: None,
            dual_box,
            ending: Ending::default(),
            priced_centre: false,
            rounds: 0,
            pricing_calls: first.pricing_calls,
            pivots_before: first.pivots,
            trace: Vec::new(),
        };
        solve.price_centre_for_the_box();
        solve
    }

    /// A boxed solve prices its centre before the first master, whose box
    /// needs the centre's lower bound.
    fn price_centre_for_the_box(&mut self) {
        if !self.dual_box.active {
            return;
        }
        if let Some(c) = self.core.centre.point().map(<[f64]>::to_vec) {
            let best = price_within(&self.core.game, self.options.method, self.options.height_limit, &c);
            self.pricing_calls += 1;
            self.core.centre.lower = lower_bound(&self.core.game, &best, &c);
            self.core.add(best);
            self.priced_centre = true;
        }
    }

    /// Re-optimises the master and prices the round's points.
    pub fn round(&mut self) -> Round {
        if self.dual_box.active
            && let Some(c) = self.core.centre.point()
        {
            let costs = self.dual_box.slack_costs(c, self.core.centre.lower);
            self.core.master.set_slack_costs(costs);
        }
        let optimum = if self.rounds == 0 && self.first_master_loose() {
            self.loose_first_master()
        } else {
            self.core.master.solve_within(self.ending.master_tolerance)
        };
        self.rounds += 1;
        self.core.centre.rounds_unmoved += 1;
        let upper = 1.0 / (2.0 * optimum.objective);
        let total: f64 = optimum.duals.iter().sum();
        let pi: Vec<f64> = optimum.duals.iter().map(|x| x / total).collect();
        let anchors = Anchors {
            gamma: self.gamma.as_deref(),
            guess_weight: self.guess_weight,
            centre: self.core.centre.point(),
            centre_first: self.rounds == 1 && !self.priced_centre,
        };
        let points = round_points(self.options, self.start, &anchors, &pi, &mut self.average);
        let (mut entering, near_misses, round_lower) = self.price_points(&points, &optimum.duals);
        let round_lower = self.confirm_by_the_exact_dp(&mut entering, &pi, &optimum.duals, round_lower);
        self.trace.push(TracePoint {
            round: self.rounds,
            upper,
            lower: round_lower,
            pivots: self.pivots_before + self.core.master.iterations(),
        });
        Round { optimum, upper, entering, near_misses }
    }

    /// Whether the first master is solved loosely, as the later ones are
    /// (`LOOSE_MASTER`): in a warm `auto` solve. A cold start's
    /// first master is its start's own and already solved.
    fn first_master_loose(&self) -> bool {
        self.start == Start::Warm && self.options.method == Method::Auto && self.options.uses(SpeedUp::LooseMaster)
    }

    /// A warm solve's first master: N - 1's carried pool from the slack
    /// basis. No round has measured a gap yet, so it is solved first to the
    /// loosest tolerance (`LOOSE_MASTER_MAX`), whose value bounds
    /// V from above, then to a tenth of the gap between that bound and the
    /// centre's. Solved to full precision it made a fifth of the 1024 sweep's
    /// warm pivots (nearly a third at N = 769..960) and about 24m pivots at
    /// each warm N near 2048 (docs/history.md#9c0a208-a-warm-solves-first-master-solved-loosely).
    fn loose_first_master(&mut self) -> Optimum {
        let rough = self.core.master.solve_within(LOOSE_MASTER_MAX);
        let upper = 1.0 / (2.0 * rough.objective);
        self.core.master.solve_within(loose_tolerance(upper, self.core.centre.lower))
    }

    /// Bob's best tree at each point, in order: its bound offered to the
    /// centre, and the tree kept if it improves the master at `duals`.
    /// `auto` prices every point, in parallel (on the idle threads of the
    /// sweep); the seed's methods stop at the first improving point, so
    /// theirs are priced one by one. Returns the improving trees, `auto`'s
    /// other trees with their gains, and the round's best lower bound.
    fn price_points(&mut self, points: &[Vec<f64>], duals: &[f64]) -> (Vec<Tree>, Vec<(Tree, f64)>, f64) {
        let (game, method, auto) = (self.core.game, self.options.method, self.options.method == Method::Auto);
        let limit = self.options.height_limit;
        let price = |point: &Vec<f64>| price_within(&game, method, limit, point);
        let mut priced: Vec<Tree> = if auto { points.par_iter().map(price).collect() } else { Vec::new() };
        priced.reverse();
        let (mut entering, mut near_misses) = (Vec::new(), Vec::new());
        let mut round_lower = f64::NEG_INFINITY;
        for point in points {
            self.pricing_calls += 1;
            let best = priced.pop().unwrap_or_else(|| price(point));
            round_lower = round_lower.max(self.core.offer(point, &best));
            let gain = gain(&game, &best, duals);
            if gain > self.options.tolerance {
                entering.push(best);
                // `auto` takes the improving tree of every point; the seed's methods the first.
                if !auto {
                    break;
                }
            } else {
                if auto {
                    near_misses.push((best, gain));
                }
                // A guessed point that found nothing: trust the guess less.
                self.guess_weight = decayed(self.guess_weight);
            }
        }
        (entering, near_misses, round_lower)
    }

    /// The seed's fast pricing must be confirmed by the exact DP before it
    /// stops: with nothing entering, the interval DP prices pi once more.
    fn confirm_by_the_exact_dp(
        &mut self,
        entering: &mut Vec<Tree>,
        pi: &[f64],
        duals: &[f64],
        round_lower: f64,
    ) -> f64 {
        if !entering.is_empty() || !matches!(self.options.method, Method::FastPricing | Method::Guess) {
            return round_lower;
        }
        self.pricing_calls += 1;
        let game = self.core.game;
        let exact = interval_dp(&game.key_weights(pi)).tree;
        let round_lower = round_lower.max(lower_bound(&game, &exact, pi));
        self.core.centre.lower = self.core.centre.lower.max(round_lower);
        entering.extend((gain(&game, &exact, duals) > self.options.tolerance).then_some(exact));
        round_lower
    }

    /// The solution at the master's final optimum.
    pub fn finish(self, optimum: Optimum, started: Instant) -> FloatSolution {
        let total: f64 = optimum.duals.iter().sum();
        let trees = &self.core.columns.trees;
        let basis = self.core.master.basis().into_iter().map(|v| match v {
            Var::Slack(j) => BasicVar::Slack(j),
            Var::Column(c) => BasicVar::Tree(trees[c].clone()),
        });
        FloatSolution {
            n: self.core.game.n,
            method: self.options.method,
            value: 1.0 / (2.0 * optimum.objective),
            lower: self.core.centre.lower,
            basis: basis.collect(),
            beta: optimum.duals.iter().map(|x| x / total).collect(),
            iterations: self.pivots_before + self.core.master.iterations(),
            rounds: self.rounds,
            pricing_calls: self.pricing_calls,
            columns: trees.len() as u32,
            warm_started: self.start == Start::Warm,
            trace: self.trace,
            seconds: started.elapsed().as_secs_f64(),
            pool: self.core.master.ever_basic().into_iter().map(|c| trees[c].clone()).collect(),
            centre: self.core.centre.point().map(<[f64]>::to_vec),
        }
    }
}
