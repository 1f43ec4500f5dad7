//! Bob's restricted master LP in the normalised form of a matrix game with a
//! positive payoff matrix S (rows: Alice's strategies, columns: Bob's trees):
//!
//!   max 1'x  subject to  S x <= 1,  x >= 0,
//!
//! whose optimum is 1/V_S (V_S the value of S), with x / sum(x) Bob's optimal
//! mixture and the duals w / sum(w) Alice's strategy. Slacks give a feasible
//! starting basis and S > 0 keeps the problem bounded, so no phase 1 is needed.
//! Slacks may cost l >= 0 (`set_slack_costs`): then the objective is
//! 1'x + l's and the duals are at least l, a box the column generation keeps
//! around its stability centre.
//!
//! A dense revised simplex with an explicit basis inverse, kept between
//! solves so that each added column is re-optimised from the previous basis.
//! Each pivot costs O(m^2) (one pass over the inverse updates it and computes
//! the next entering direction). When the residuals of x and w show drift,
//! x and w are recomputed from the inverse, and only if that leaves drift is
//! the inverse rebuilt from the basis. The entering variable is the
//! steepest edge among the best Dantzig candidates, their edges measured on
//! a random sketch of B^-1 (`edge_sketch`).
//!
//! The right-hand side is perturbed for good (b = 1 + a random 1e-9..2e-9 per
//! row): tree columns tie on whole rows, so with b = 1 hundreds of basic
//! variables sit at zero and the simplex stalls or cycles on the degenerate
//! vertex. Perturbed, every vertex is non-degenerate and every pivot gains.
//! The duals do not depend on b, so pricing is unaffected; the values and the
//! objective reported are those of b = 1 (`Optimum`), and a final basis that
//! is optimal for the perturbed b but slightly infeasible for b = 1 is made
//! feasible by dual pivots at b = 1 (`polish`). On this small, dense LP the master
//! runs several times faster per pivot than HiGHS's hot-started simplex
//! (docs/history.md#73e051f-column-generation-with-four-methods-a-dense-simplex-of-its-own-smoothing).

use super::column_store::ColumnStore;
use super::edge_sketch::EdgeSketch;
use super::kernels::{dots, invert_in_place, sub_scaled, sub_scaled_dot};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// How the master measures the edges of its entering candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnteringRule {
    /// The best `SKETCHED_CANDIDATES`, measured on the sketch (`edge_sketch`);
    /// only the chosen one's direction is computed.
    SketchedEdges,
    /// The best `CANDIDATES`, each direction computed and measured exactly.
    ExactEdges,
}

/// A basic or entering variable: the slack of row j, or column c (in order of addition).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Var {
    Slack(usize),
    Column(usize),
}

/// The master's optimal solution after a solve.
#[derive(Debug, Clone)]
pub struct Optimum {
    /// 1'x = 1 / V_S, with x = B^-1 1 (the unperturbed right-hand side; the
    /// slacks' costs left out).
    pub objective: f64,
    /// Duals w >= 0 (Alice's strategy, unnormalised; negative rounding noise clipped).
    pub duals: Vec<f64>,
}

/// Pivots between checks of the inverse's drift (a check costs about one pivot).
const DRIFT_CHECK_EVERY: usize = 32;
/// Largest residual |B x_B - b| or |w B - c_B| tolerated before the inverse is
/// rebuilt: rebuilding on a schedule regardless was a large share of the time
/// near N = 1000, and a tighter limit rebuilt far more often for the same exact
/// results (docs/history.md#7d21c5a-a-permanent-perturbation-harriss-ratio-test-steepest-edge-among-four,
/// docs/history.md#9394568-one-pass-over-the-inverse-per-pivot).
const DRIFT_TOLERANCE: f64 = 1e-10;
/// The limit is at least this multiple of the residual right after a
/// rebuild: late in a cold N = 2017 (m = 1009) a fresh inverse itself can miss
/// 1e-10, and an absolute limit then rebuilt B^-1 at every drift check, most
/// of the time going to Gauss-Jordan
/// (docs/history.md#10748d2-the-drift-limit-follows-a-fresh-inverses-residual).
const DRIFT_GROWTH: f64 = 10.0;
/// Pivots (per row) after which the inverse is rebuilt even without measured drift.
const REFACTOR_EVERY_ROWS: usize = 8;
/// Columns per segment of partial pricing (at least the number of rows).
const PRICING_SEGMENT: usize = 256;
/// The working set pricing scans holds at most this many columns per two
/// rows; past it, the non-basic columns least likely to enter are dropped.
/// Near the end of a master solve few columns improve and the scan runs
/// through the whole set at every pivot: 2.5 per row took fewer pivots and
/// less time than 3 on warm N = 1009..1016; 2 and 6 took more pivots, 1 60%
/// more (docs/history.md#the-restricted-master).
const WORKING_SET_PER_TWO_ROWS: usize = 5;
/// Columns of the pool that enter the working set at once, at most, when the
/// working set has no improving column (the most improving of the pool).
const WORKING_SET_ADMIT: usize = 32;
/// Rows from which the pass over B^-1 is split over threads (below, a pivot
/// is too short to pay for the split).
const PARALLEL_ROWS: usize = 128;
/// Candidates of each pricing whose directions are computed, the best of them
/// by steepest edge entering (`EnteringRule::ExactEdges`, see `candidates`).
const CANDIDATES: usize = 4;
/// Candidates of each pricing whose edges the sketch measures
/// (`EnteringRule::SketchedEdges`), and the sketch's rows: on a warm chain
/// near N = 1024 this pair beat exact edges of four candidates by far and was
/// the fastest of the sizes tried (docs/history.md#e5c89da-sketched-steepest-edge).
const SKETCHED_CANDIDATES: usize = 32;
const SKETCH_ROWS: usize = 16;
/// Basic values down to minus this count as feasible in the ratio test; a
/// rebuild of the inverse that finds a value below it shifts b to lift it.
const FEASIBILITY_TOLERANCE: f64 = 1e-11;
/// Entries of the entering direction at most this fraction of its largest
/// entry (or of 1) do not block the step.
const ZERO_TOLERANCE: f64 = 1e-12;
/// The objective has progressed when it exceeds the best of the solve by
/// this (relative). On a degenerate vertex rounding noise moves it up and down
/// by about 1e-13.
const STALL_PROGRESS: f64 = 1e-11;
/// Size of the random shift of each row's bound (the right-hand side is 1):
/// above rounding noise, and small enough that the perturbed optimum is
/// nearly always a basis that is optimal for b = 1 too: a smaller shift made
/// the float solve slower, larger ones left more N to exact repairs, and far
/// larger ones slowed the float solve many times over
/// (docs/history.md#7d21c5a-a-permanent-perturbation-harriss-ratio-test-steepest-edge-among-four).
const PERTURBATION: f64 = 1e-9;
/// `polish` stops when no basic value is below this fraction of the largest
/// (values that small are rounding noise; the exact stage decides their sign).
const POLISH_FEASIBILITY: f64 = 1e-12;
/// Reduced costs this far below zero count as zero in `polish`'s ratio test.
const POLISH_DUAL_TOLERANCE: f64 = 1e-12;
/// Dual pivots of a polish at most, per row. At the end of cold N = 2017
/// (m = 1009) the polish found 197 rows below zero at b = 1, still 150-300
/// after 1,700 pivots, and none after 1,928; capped at m it gave up and
/// restored its basis, and the exact stage repaired that basis a slack at a
/// time, about a second a pivot
/// (docs/history.md#487c077-the-polishs-cap-10m-dual-pivots-instead-of-m-cold-2017-checked-again).
/// A pivot costs one pass over the master's columns (about 6 ms there).
const POLISH_PIVOTS_PER_ROW: u64 = 10;
/// Pivots without progress (a relative gain of `STALL_PROGRESS`), per row,
/// after which gains of rounding noise no longer count: above the runs of up
/// to 9m degenerate pivots that ended by themselves before b was perturbed
/// (docs/history.md#9394568-one-pass-over-the-inverse-per-pivot). Near
/// N = 2048 (m ~ 1000) a warm solve's tail solves its master fully again and
/// again, and each such solve ran to this limit on gains of rounding noise:
/// at 40m those runs were more than half of warm 2005's pivots. At 10m its
/// float solve is 2.7 times shorter and its exact repair longer, 1.77 times
/// less CPU in all; at 4m and 20m the two balanced worse
/// (docs/history.md#992913e-the-masters-stall-limit-10m-instead-of-40m-warm-2005-x177).
const STALL_PIVOTS_PER_ROW: usize = 10;
/// The optimality tolerance after a stall.
const STALLED_OPTIMALITY_TOLERANCE: f64 = 1e-9;
/// Reduced costs (relative to the objective scale) below this count as optimal.
const OPTIMALITY_TOLERANCE: f64 = 1e-12;

pub struct RestrictedMaster {
    m: usize,
    /// The columns, in bytes while they are small integers (`column_store`).
    columns: ColumnStore,
    /// Each column's cost c_j (1 unless `add_column_costing` set it).
    costs: Vec<f64>,
    /// Each slack's cost (0 unless `set_slack_costs` set it).
    slack_costs: Vec<f64>,
    basis: Vec<Var>,
    is_basic: Vec<bool>,
    /// Whether each column has been basic at some point (the columns worth carrying to N + 1).
    ever_basic: Vec<bool>,
    /// B^-1, row-major m x m.
    inverse: Vec<f64>,
    /// The sketch of B^-1 that measures the candidates' edges (`EnteringRule::SketchedEdges`).
    sketch: Option<EdgeSketch>,
    /// The perturbed right-hand side b.
    rhs: Vec<f64>,
    /// Values of the basic variables, B^-1 b.
    values: Vec<f64>,
    /// Draws the perturbations.
    rng: ChaCha8Rng,
    /// Duals c_B' B^-1, updated with every pivot.
    duals: Vec<f64>,
    /// The columns pricing scans at every pivot (see `candidates`).
    working: Vec<usize>,
    /// Whether the working set is trimmed (else it holds every column).
    trim_working: bool,
    /// The optimality tolerance of the current solve, if looser than full precision.
    loose: f64,
    in_working: Vec<bool>,
    /// Where partial pricing starts its next scan of the working set.
    next_column: usize,
    /// The best objective of the current solve (or since the last change of b).
    best_objective: f64,
    /// Consecutive pivots that did not raise the best objective measurably.
    stalled_pivots: usize,
    /// Stalled pivots after which the optimality tolerance is relaxed.
    stall_limit: usize,
    pivots_since_refactor: usize,
    /// Pivots after which the inverse is rebuilt even without measured drift
    /// (a rebuild costs O(m^3), as much as m pivots).
    refactor_interval: usize,
    /// While `polish` works on b = 1, rebuilds must not shift b.
    unperturbed: bool,
    /// The residual above which x_B and w are refreshed, then B^-1 rebuilt (`DRIFT_GROWTH`).
    drift_limit: f64,
    iterations: u64,
}

impl RestrictedMaster {
    /// The all-slack basis for m rows, with the given initial columns.
    pub fn new(m: usize, initial: &[Vec<f64>]) -> Self {
        let mut inverse = vec![0.0; m * m];
        for i in 0..m {
            inverse[i * m + i] = 1.0;
        }
        // Seeded, so that solves are reproducible.
        let mut rng = ChaCha8Rng::seed_from_u64(m as u64);
        let rhs: Vec<f64> = (0..m).map(|_| 1.0 + perturbation(&mut rng)).collect();
        let mut master = RestrictedMaster {
            m,
            columns: ColumnStore::new(),
            costs: Vec::new(),
            slack_costs: vec![0.0; m],
            basis: (0..m).map(Var::Slack).collect(),
            is_basic: Vec::new(),
            ever_basic: Vec::new(),
            sketch: Some(EdgeSketch::new(&inverse, m, SKETCH_ROWS)),
            values: rhs.clone(),
            rhs,
            rng,
            duals: vec![0.0; m],
            working: Vec::new(),
            trim_working: true,
            loose: 0.0,
            in_working: Vec::new(),
            next_column: 0,
            best_objective: 0.0,
            stalled_pivots: 0,
            stall_limit: STALL_PIVOTS_PER_ROW * m.max(8),
            pivots_since_refactor: 0,
            refactor_interval: REFACTOR_EVERY_ROWS * m.max(8),
            unperturbed: false,
            drift_limit: DRIFT_TOLERANCE,
            iterations: 0,
            inverse,
        };
        for column in initial {
            master.add_column(column);
        }
        master
    }

    /// Replaces the basis by `basis` (m variables): a known optimum of a
    /// nearby problem to start from. A column that is numerically dependent on
    /// the others gives way to a slack (see `refactor`).
    pub fn start_from(&mut self, basis: &[Var]) {
        assert_eq!(basis.len(), self.m, "a basis has one variable per row");
        for var in &self.basis {
            if let Var::Column(c) = var {
                self.is_basic[*c] = false;
            }
        }
        for var in basis {
            if let Var::Column(c) = var {
                self.is_basic[*c] = true;
                self.ever_basic[*c] = true;
            }
        }
        self.basis = basis.to_vec();
        self.refactor();
    }

    /// Keeps every column in the working set: pricing scans the whole pool at
    /// every pivot (the master before working sets, for benchmarks).
    pub fn price_the_whole_pool(&mut self) {
        self.trim_working = false;
    }

    /// How the entering variable is chosen among the pricing candidates (the
    /// sketched rule unless set; the exact one for benchmarks).
    pub fn set_entering_rule(&mut self, rule: EnteringRule) {
        self.sketch = match rule {
            EnteringRule::SketchedEdges => Some(EdgeSketch::new(&self.inverse, self.m, SKETCH_ROWS)),
            EnteringRule::ExactEdges => None,
        };
    }

    /// Gives slack j the cost `costs[j]`: the duals are then at least these
    /// (a lower box around a stability centre).
    pub fn set_slack_costs(&mut self, costs: Vec<f64>) {
        self.slack_costs = costs;
        self.duals = self.compute_duals();
    }

    /// Simplex pivots over all solves.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Adds a column (length m, positive); returns its index.
    pub fn add_column(&mut self, column: &[f64]) -> usize {
        self.add_column_costing(column, 1.0)
    }

    /// Adds a column of cost `cost` instead of 1: the exact stage tilts the
    /// master's objective this way, keeping tree columns in bytes, exact.
    pub fn add_column_costing(&mut self, column: &[f64], cost: f64) -> usize {
        debug_assert_eq!(column.len(), self.m);
        self.columns.push(column);
        self.costs.push(cost);
        self.is_basic.push(false);
        self.ever_basic.push(false);
        self.working.push(self.columns.len() - 1);
        self.in_working.push(true);
        self.columns.len() - 1
    }

    /// The columns that have been basic at some point, in order of addition.
    pub fn ever_basic(&self) -> Vec<usize> {
        (0..self.columns.len()).filter(|&c| self.ever_basic[c]).collect()
    }

    /// The basic variables.
    pub fn basis(&self) -> Vec<Var> {
        self.basis.clone()
    }

    /// Re-optimises from the current basis: primal simplex with partial
    /// pricing and steepest-edge choice among the candidates (see
    /// `candidates`) on the perturbed right-hand side, with Harris's ratio
    /// test (see `pivot`). Without the perturbation the degenerate vertices
    /// held the simplex at a constant objective, and neither the lexicographic
    /// ratio test (it cycled in floating point), Bland's rule (it crawled) nor
    /// a perturbation removed after every solve by dual pivots (they cycled
    /// near N = 1024) got out of them fast
    /// (docs/history.md#7d21c5a-a-permanent-perturbation-harriss-ratio-test-steepest-edge-among-four).
    pub fn solve(&mut self) -> Optimum {
        self.solve_within(0.0)
    }

    /// As [`RestrictedMaster::solve`], but stops once no reduced cost exceeds
    /// `tolerance` (at least the full precision): column generation solves
    /// its early masters only as well as its current gap needs.
    pub fn solve_within(&mut self, tolerance: f64) -> Optimum {
        self.loose = tolerance;
        let start = self.iterations;
        self.reset_progress();
        let mut next = self.choose_entering();
        while let Some((entering, direction)) = next {
            // Far beyond any solve seen: fail the task with a message rather than spin for ever.
            assert!(
                self.iterations - start < 10_000 * self.m as u64 + 10_000,
                "the master made no optimum in {} pivots (m = {}): cycling",
                self.iterations - start,
                self.m
            );
            next = self.pivot(entering, &direction);
            self.track_progress();
        }
        self.refine_duals();
        Optimum { objective: self.unperturbed_objective(), duals: self.duals.iter().map(|x| x.max(0.0)).collect() }
    }

    /// One step of iterative refinement of w = c_B' B^-1: w += r B^-1 with
    /// the residual r = c_B - w B. The pivots update w in place and leave it
    /// off by up to the drift limit (at least `DRIFT_TOLERANCE`), as much as the column
    /// generation's tolerance: its last pricings then saw gains just below the
    /// tolerance that were noise, and its end rounds entered such trees at most
    /// N, at a cost in pivots (docs/history.md#84aa2b7-refined-duals).
    /// A step costs about one pivot.
    fn refine_duals(&mut self) {
        let m = self.m;
        let residual: Vec<f64> = self
            .basis
            .iter()
            .map(|var| match var {
                Var::Slack(j) => self.slack_costs[*j] - self.duals[*j],
                Var::Column(c) => self.costs[*c] - self.columns.dot(*c, &self.duals),
            })
            .collect();
        for (row, r) in self.inverse.chunks_exact(m).zip(residual) {
            if r != 0.0 {
                for (w, b) in self.duals.iter_mut().zip(row) {
                    *w += r * b;
                }
            }
        }
    }

    /// Makes the basis primal feasible for b = 1, not only for the perturbed b,
    /// by dual simplex pivots over every column of the master (the duals stay
    /// feasible, so the basis stays optimal for the master); returns the
    /// pivots. A basis optimal for the perturbed b can have basic values
    /// negative at b = 1 by far more than rounding (many of them on the
    /// ill-conditioned bases of a cold N = 2017), and the exact stage, whose
    /// pivots each refactor the basis in exact arithmetic, would repair them
    /// one slow pivot at a time (docs/history.md#1160ff2-polishing-the-final-basis-for-b--1).
    /// The perturbation is drawn afresh afterwards, so later solves start from here.
    pub fn polish(&mut self) -> u64 {
        self.polish_within(POLISH_PIVOTS_PER_ROW * self.m as u64)
    }

    /// `polish` with at most `max_pivots` dual pivots (`POLISH_PIVOTS_PER_ROW`).
    /// It never leaves the master worse than it found it: at the end of a
    /// cold N = 2017 (m = 1009, an ill-conditioned basis) the first polish
    /// left a basis whose objective at b = 1 was far above the master's
    /// optimum, and the solve did not recover
    /// (docs/history.md#29aba2f-a-polish-never-leaves-the-master-worse).
    /// A polish that does not reach b = 1 feasibility restores the basis and
    /// b it started from (and reports no pivots, so the solve ends there and
    /// the exact stage repairs); a fresh perturbation that makes a polished
    /// value negative, so that rebuilding would lift b far past the
    /// perturbation (`shift_infeasible`), is dropped and b stays 1.
    fn polish_within(&mut self, max_pivots: u64) -> u64 {
        let start = self.iterations;
        let (basis, rhs) = (self.basis.clone(), self.rhs.clone());
        self.unperturbed = true;
        self.rhs = vec![1.0; self.m];
        self.refactor();
        let mut feasible = false;
        loop {
            let scale = self.values.iter().fold(0.0f64, |a, x| a.max(x.abs()));
            let Some(r) = self.steepest_infeasible_row(POLISH_FEASIBILITY * scale) else {
                feasible = true;
                break;
            };
            if self.iterations - start >= max_pivots {
                break;
            }
            let Some((entering, reduced_cost)) = self.dual_ratio_test(r) else { break };
            let d = self.direction(entering);
            // The dual step uses the reduced cost the ratio test saw (noise
            // below zero clamped), not one recomputed from d: on an
            // ill-conditioned basis the two differ by rounding, and large
            // entries of B^-1 A turned that difference into growing dual
            // infeasibilities within a few pivots (cold N = 2017;
            // docs/history.md#65b53f1-the-polish-by-dual-steepest-edge-cold-2017-certified).
            self.exchange(r, entering, &d, self.values[r] / d[r], -reduced_cost);
        }
        if !feasible {
            self.restore_basis(basis, rhs);
            return 0;
        }
        let redrawn: Vec<f64> = (0..self.m).map(|_| 1.0 + perturbation(&mut self.rng)).collect();
        let values = self.inverse.chunks_exact(self.m).map(|row| row.iter().zip(&redrawn).map(|(a, b)| a * b).sum());
        let lifts = values.into_iter().any(|x: f64| x < -FEASIBILITY_TOLERANCE);
        self.unperturbed = false;
        if !lifts {
            self.rhs = redrawn;
        }
        self.refactor();
        self.iterations - start
    }

    /// Puts `basis` back with its right-hand side `rhs` (see `polish_within`).
    fn restore_basis(&mut self, basis: Vec<Var>, rhs: Vec<f64>) {
        for var in &self.basis {
            if let Var::Column(c) = var {
                self.is_basic[*c] = false;
            }
        }
        for var in &basis {
            if let Var::Column(c) = var {
                self.is_basic[*c] = true;
            }
        }
        self.basis = basis;
        self.rhs = rhs;
        self.unperturbed = false;
        self.refactor();
    }

    /// The basic row that leaves in a dual simplex pivot: among the values
    /// below -`tolerance`, the largest x_r^2 / |row r of B^-1|^2 (dual
    /// steepest edge, with exact weights from the explicit inverse). At the
    /// end of a cold N = 2017 (many values negative at b = 1, an
    /// ill-conditioned basis) the most negative value's row never reached
    /// feasibility; this rule reaches it in a few pivots
    /// (docs/history.md#65b53f1-the-polish-by-dual-steepest-edge-cold-2017-certified).
    fn steepest_infeasible_row(&self, tolerance: f64) -> Option<usize> {
        let weight = |i: usize| {
            let row = &self.inverse[i * self.m..(i + 1) * self.m];
            self.values[i] * self.values[i] / row.iter().map(|v| v * v).sum::<f64>()
        };
        (0..self.m)
            .filter(|&i| self.values[i] < -tolerance)
            .map(|i| (i, weight(i)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }

    /// The variable that enters when basic row r (negative) leaves in a dual
    /// simplex pivot, with its reduced cost: with alpha_j the entry of row r
    /// of B^-1 A for nonbasic j and d_j >= 0 its reduced cost, the smallest
    /// d_j / -alpha_j over alpha_j < 0, Harris's way (the largest |alpha_j|
    /// within the bound relaxed by `POLISH_DUAL_TOLERANCE`).
    fn dual_ratio_test(&self, r: usize) -> Option<(Var, f64)> {
        let rho = &self.inverse[r * self.m..(r + 1) * self.m];
        let mut slack_basic = vec![false; self.m];
        for var in &self.basis {
            if let Var::Slack(j) = var {
                slack_basic[*j] = true;
            }
        }
        let mut entries: Vec<(Var, f64, f64)> = (0..self.m)
            .filter(|&j| !slack_basic[j])
            .map(|j| (Var::Slack(j), rho[j], (self.duals[j] - self.slack_costs[j]).max(0.0)))
            .collect();
        entries.extend((0..self.columns.len()).filter(|&c| !self.is_basic[c]).map(|c| {
            (Var::Column(c), self.columns.dot(c, rho), (self.columns.dot(c, &self.duals) - self.costs[c]).max(0.0))
        }));
        let largest = entries.iter().fold(0.0f64, |a, e| a.max(e.1.abs()));
        let zero = ZERO_TOLERANCE * largest;
        entries.retain(|e| e.1 < -zero);
        let bound = entries.iter().map(|e| (e.2 + POLISH_DUAL_TOLERANCE) / -e.1).fold(f64::INFINITY, f64::min);
        entries.into_iter().filter(|e| e.2 / -e.1 <= bound).max_by(|a, b| (-a.1).total_cmp(&-b.1)).map(|e| (e.0, e.2))
    }

    fn reset_progress(&mut self) {
        self.best_objective = self.objective();
        self.stalled_pivots = 0;
    }

    fn track_progress(&mut self) {
        let objective = self.objective();
        if objective > self.best_objective * (1.0 + STALL_PROGRESS) {
            self.best_objective = objective;
            self.stalled_pivots = 0;
        } else {
            self.stalled_pivots += 1;
        }
    }

    /// The entering variable with its direction B^-1 a, or `None` at an
    /// optimum: the steepest edge among the pricing candidates (see
    /// `candidates`), computed from the current inverse.
    fn choose_entering(&mut self) -> Option<(Var, Vec<f64>)> {
        let candidates = self.candidates();
        if self.sketch.is_some() {
            return self.sketched_steepest(&candidates).map(|var| (var, self.direction(var)));
        }
        let directions: Vec<Vec<f64>> = candidates.iter().map(|(var, _)| self.direction(*var)).collect();
        steepest_edge(&candidates, directions)
    }

    /// The improving variables at the current duals with their reduced costs,
    /// at most `CANDIDATES` (`SKETCHED_CANDIDATES` with the sketch), most
    /// improving first: the slacks and the columns
    /// of the first segment (from a rotating start) of the working set that
    /// has improving ones. Dantzig's rule alone (the first candidate)
    /// zig-zags on this nearly dual degenerate master: columns enter and
    /// leave again a few pivots later. Choosing among the candidates by
    /// steepest edge (reduced cost per unit length of the edge, |B^-1 a|) cuts
    /// pivots, and more candidates cut more; but each exact direction costs a
    /// pass over B^-1, and past four they cost more than they saved
    /// (docs/history.md#7d21c5a-a-permanent-perturbation-harriss-ratio-test-steepest-edge-among-four).
    /// The sketch measures many more for less than the exact four cost (see
    /// `SKETCHED_CANDIDATES`).
    ///
    /// The working set holds the columns added lately and those that entered
    /// from the pool; only when it has no improving column is the whole pool
    /// priced, and its most improving columns join the working set. Near
    /// N = 1024 the pool holds many times m columns, far too many to price at
    /// every pivot
    /// (docs/history.md#21137a3-the-hard-n-cheaper-the-dps-tables-a-working-set-idle-threads-loose-masters).
    fn candidates(&mut self) -> Vec<(Var, f64)> {
        let tolerance = self.optimality_tolerance();
        let scale = self.duals.iter().map(|x| x.abs()).sum::<f64>().max(1e-300);
        let mut best = Best::new(if self.sketch.is_some() { SKETCHED_CANDIDATES } else { CANDIDATES });
        // A slack's reduced cost is its cost (0 unless boxed) - w_j; its threshold is relative to the duals' scale.
        for j in 0..self.m {
            let gain = self.slack_costs[j] - self.duals[j];
            best.offer(Var::Slack(j), gain, gain / scale > tolerance);
        }
        let n = self.working.len();
        let segment = PRICING_SEGMENT.max(self.m);
        let mut scanned = 0;
        let (mut priced, mut products) = (Vec::with_capacity(segment), Vec::with_capacity(segment));
        while scanned < n {
            let mut found = false;
            // A basic column's reduced cost is zero: skipping the m basic ones saves up to a third of the scan.
            // The segment runs on from `next_column`, wrapping once at the end of the working set (two
            // slices rather than a division per column).
            let (start, count) = ((self.next_column + scanned) % n, (scanned + segment).min(n) - scanned);
            let (first, rest) = (count.min(n - start), count - count.min(n - start));
            priced.clear();
            priced.extend(
                self.working[start..start + first]
                    .iter()
                    .chain(&self.working[..rest])
                    .copied()
                    .filter(|&c| !self.is_basic[c]),
            );
            self.columns.dots_into(&priced, &self.duals, &mut products);
            for (&c, product) in priced.iter().zip(&products) {
                let gain = self.costs[c] - product;
                found |= best.offer(Var::Column(c), gain, gain > tolerance);
            }
            scanned += segment;
            if found {
                self.next_column = (self.next_column + scanned) % n;
                return best.into_sorted();
            }
        }
        // Nothing improves in the working set: price the pool.
        let mut admitted = Best::new(WORKING_SET_ADMIT);
        priced.clear();
        priced.extend((0..self.columns.len()).filter(|&c| !self.in_working[c] && !self.is_basic[c]));
        self.columns.dots_into(&priced, &self.duals, &mut products);
        for (&c, product) in priced.iter().zip(&products) {
            let gain = self.costs[c] - product;
            admitted.offer(Var::Column(c), gain, gain > tolerance);
        }
        for (var, gain) in admitted.into_sorted() {
            if let Var::Column(c) = var {
                self.in_working[c] = true;
                self.working.push(c);
            }
            best.offer(var, gain, true);
        }
        self.trim_working_set();
        best.into_sorted()
    }

    /// Drops the non-basic columns with the lowest reduced costs from the
    /// working set once it exceeds `WORKING_SET_PER_TWO_ROWS` columns per two rows.
    fn trim_working_set(&mut self) {
        let limit = WORKING_SET_PER_TWO_ROWS * self.m.max(8) / 2;
        if !self.trim_working || self.working.len() <= limit {
            return;
        }
        let mut ranked: Vec<(f64, usize)> = self
            .working
            .iter()
            .filter(|&&c| !self.is_basic[c])
            .map(|&c| (self.costs[c] - self.columns.dot(c, &self.duals), c))
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        let excess = self.working.len() - limit * 2 / 3;
        for &(_, c) in ranked.iter().take(excess) {
            self.in_working[c] = false;
        }
        let in_working = &self.in_working;
        self.working.retain(|&c| in_working[c]);
        self.next_column = 0;
    }

    /// The reduced cost above which a variable may enter. Reduced costs of
    /// rounding noise (about 1e-12) can still make the simplex circle: twin
    /// columns could swap places for ever
    /// (docs/history.md#9394568-one-pass-over-the-inverse-per-pivot). After a
    /// long run of pivots without progress, such gains no longer count.
    fn optimality_tolerance(&self) -> f64 {
        let tolerance =
            if self.stalled_pivots >= self.stall_limit { STALLED_OPTIMALITY_TOLERANCE } else { OPTIMALITY_TOLERANCE };
        tolerance.max(self.loose)
    }

    /// The candidate with the steepest edge, rc^2 / (1 + |B^-1 a|^2), its
    /// length estimated from the sketch.
    fn sketched_steepest(&mut self, candidates: &[(Var, f64)]) -> Option<Var> {
        let (sketch, columns) = (self.sketch.as_mut()?, &self.columns);
        let mut single = Vec::with_capacity(self.m);
        let mut length2 = |var: Var| match var {
            Var::Slack(j) => sketch.slack_length2(j),
            Var::Column(c) => sketch.column_length2(c, columns, &mut single),
        };
        candidates
            .iter()
            .map(|&(var, gain)| (gain * gain / (1.0 + length2(var)), var))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, var)| var)
    }

    /// B^-1 a for the variable's column a (FTRAN).
    fn direction(&self, var: Var) -> Vec<f64> {
        let m = self.m;
        match var {
            Var::Slack(j) => (0..m).map(|i| self.inverse[i * m + j]).collect(),
            Var::Column(c) => self.inverse.chunks_exact(m).map(|row| self.columns.dot(c, row)).collect(),
        }
    }

    fn cost(&self, var: Var) -> f64 {
        match var {
            Var::Slack(j) => self.slack_costs[j],
            Var::Column(c) => self.costs[c],
        }
    }

    fn objective(&self) -> f64 {
        self.basis.iter().zip(&self.values).map(|(v, x)| self.cost(*v) * x).sum()
    }

    /// The basic values for b = 1, B^-1 1 (row sums of the inverse).
    pub fn unperturbed_values(&self) -> Vec<f64> {
        self.inverse.chunks_exact(self.m).map(|row| row.iter().sum()).collect()
    }

    /// The columns' part of the objective, c_B' B^-1 1 over the basic columns
    /// for b = 1: the slacks' costs (a box, `set_slack_costs`) are not part of
    /// Bob's mixture x, whose sum bounds V.
    fn unperturbed_objective(&self) -> f64 {
        self.basis
            .iter()
            .zip(self.unperturbed_values())
            .map(|(v, x)| if let Var::Column(c) = v { self.costs[*c] * x } else { 0.0 })
            .sum()
    }

    /// Duals w = c_B' B^-1, from scratch.
    fn compute_duals(&self) -> Vec<f64> {
        let mut w = vec![0.0; self.m];
        for (i, var) in self.basis.iter().enumerate() {
            let cost = self.cost(*var);
            if cost != 0.0 {
                for (wj, bij) in w.iter_mut().zip(&self.inverse[i * self.m..(i + 1) * self.m]) {
                    *wj += cost * bij;
                }
            }
        }
        w
    }

    /// Brings `entering` (with direction d = B^-1 a) into the basis by
    /// Harris's two-pass ratio test: the longest step that keeps every basic
    /// value above -`FEASIBILITY_TOLERANCE`, then, among the rows that block
    /// within it, the one with the largest d_i (the stablest pivot). A plain
    /// ratio test that skipped small d_i let values drift below zero and the
    /// objective fall, and a cold N = 993 ran on without reaching its optimum. Returns
    /// the next entering variable with its direction (see `exchange`).
    fn pivot(&mut self, entering: Var, d: &[f64]) -> Option<(Var, Vec<f64>)> {
        let zero = ZERO_TOLERANCE * d.iter().fold(1.0f64, |a, x| a.max(x.abs()));
        let blocking: Vec<usize> = (0..self.m).filter(|&i| d[i] > zero).collect();
        let bound =
            blocking.iter().map(|&i| (self.values[i] + FEASIBILITY_TOLERANCE) / d[i]).fold(f64::INFINITY, f64::min);
        let r = blocking
            .into_iter()
            .filter(|&i| self.values[i] / d[i] <= bound)
            .max_by(|&a, &b| d[a].total_cmp(&d[b]))
            .expect("S > 0 keeps the master bounded");
        let step = (self.values[r] / d[r]).max(0.0);
        let reduced_cost =
            self.cost(entering) - d.iter().zip(&self.basis).map(|(di, v)| self.cost(*v) * di).sum::<f64>();
        self.exchange_and_choose(r, entering, d, step, reduced_cost)
    }

    /// Replaces basic row r by `entering` (direction d = B^-1 a), which takes
    /// the value `step`; the duals move by its `reduced_cost` c_j - w a_j.
    /// Returns the next entering variable with its direction: it is chosen
    /// from the updated duals before B^-1 is updated, so the update and the
    /// next FTRAN share one pass over B^-1 (the master is memory bound once
    /// B^-1 outgrows the cache).
    fn exchange_and_choose(
        &mut self,
        r: usize,
        entering: Var,
        d: &[f64],
        step: f64,
        reduced_cost: f64,
    ) -> Option<(Var, Vec<f64>)> {
        let pivot_row = self.swap_into_basis(r, entering, d, step, reduced_cost);
        let mut candidates = self.candidates();
        if self.sketch.is_some() {
            // Only the chosen candidate's direction is computed in the pass below.
            candidates = self.sketched_steepest(&candidates).map(|var| (var, 0.0)).into_iter().collect();
        }
        let directions = self.update_inverse(r, d, &pivot_row, &candidates);
        if self.recomputed_after_drift() {
            // The duals have moved (the rebuild may even change the basis): choose afresh.
            return self.choose_entering();
        }
        steepest_edge(&candidates, directions)
    }

    /// `exchange_and_choose` without choosing: for the dual simplex, which
    /// chooses its next pivot by its own ratio test.
    fn exchange(&mut self, r: usize, entering: Var, d: &[f64], step: f64, reduced_cost: f64) {
        let pivot_row = self.swap_into_basis(r, entering, d, step, reduced_cost);
        self.update_inverse(r, d, &pivot_row, &[]);
        self.recomputed_after_drift();
    }

    /// The pivot's bookkeeping: the basic values, the duals, the basis and
    /// its flags, the counters and the sketch; returns row r of B^-1
    /// divided by the pivot d[r], the row the update of B^-1 subtracts.
    fn swap_into_basis(&mut self, r: usize, entering: Var, d: &[f64], step: f64, reduced_cost: f64) -> Vec<f64> {
        let m = self.m;
        for (value, di) in self.values.iter_mut().zip(d) {
            *value -= step * di;
        }
        self.values[r] = step;
        let pivot_row: Vec<f64> = self.inverse[r * m..(r + 1) * m].iter().map(|v| v / d[r]).collect();
        for (w, p) in self.duals.iter_mut().zip(&pivot_row) {
            *w += reduced_cost * p;
        }
        if let Var::Column(c) = self.basis[r] {
            self.is_basic[c] = false;
        }
        if let Var::Column(c) = entering {
            self.is_basic[c] = true;
            self.ever_basic[c] = true;
        }
        self.basis[r] = entering;
        self.iterations += 1;
        self.pivots_since_refactor += 1;
        if let Some(sketch) = &mut self.sketch {
            sketch.update(r, d, &pivot_row);
        }
        pivot_row
    }

    /// Updates B^-1 for the pivot on row r and, in the same pass, computes
    /// the candidates' directions B^-1 a (their columns in f64; a slack's is
    /// a unit vector), so one kernel call per row of B^-1 serves every
    /// candidate (four with the exact rule, the chosen one with the sketch).
    fn update_inverse(&mut self, r: usize, d: &[f64], pivot_row: &[f64], candidates: &[(Var, f64)]) -> Vec<Vec<f64>> {
        let m = self.m;
        let dense: Vec<Vec<f64>> = candidates
            .iter()
            .map(|(var, _)| match var {
                Var::Slack(j) => (0..m).map(|i| f64::from(u8::from(i == *j))).collect(),
                Var::Column(c) => self.columns.widened(*c),
            })
            .collect();
        // Row i of B^-1 updated, then its entries of the candidates' directions
        // (row-major, `width` per row); split over the idle threads of the
        // sweep when the pass is long.
        let k = candidates.len();
        let width = k.max(1);
        let mut entries = vec![0.0; m * width];
        let pass = |(i, (row, entries)): (usize, (&mut [f64], &mut [f64]))| {
            if i == r {
                row.copy_from_slice(pivot_row);
            } else if let [column] = dense.as_slice() {
                // One direction (the sketched rule): update and multiply in one sweep of the row.
                entries[0] = sub_scaled_dot(row, d[i], pivot_row, column);
                return;
            } else if d[i] != 0.0 {
                sub_scaled(row, d[i], pivot_row);
            }
            dots(row, &dense, entries);
        };
        if m >= PARALLEL_ROWS {
            let rows = self.inverse.par_chunks_exact_mut(m).zip(entries.par_chunks_exact_mut(width));
            rows.enumerate().with_min_len(PARALLEL_ROWS / 4).for_each(pass);
        } else {
            self.inverse.chunks_exact_mut(m).zip(entries.chunks_exact_mut(width)).enumerate().for_each(pass);
        }
        (0..k).map(|c| (0..m).map(|i| entries[i * width + c]).collect()).collect()
    }

    /// Every `DRIFT_CHECK_EVERY` pivots: if the residuals show drift (or a
    /// rebuild is due), x_B and w are recomputed from B^-1, and B^-1 itself
    /// rebuilt only if drift remains. Most drift is in x_B and w, updated
    /// pivot by pivot, not in B^-1, so this spares most rebuilds. Whether it
    /// recomputed (the duals have moved).
    fn recomputed_after_drift(&mut self) -> bool {
        if !self.pivots_since_refactor.is_multiple_of(DRIFT_CHECK_EVERY) {
            return false;
        }
        let due = self.pivots_since_refactor >= self.refactor_interval;
        if !(due || self.drifted()) {
            return false;
        }
        self.values_and_duals_from_inverse();
        if due || self.drifted() {
            self.refactor();
        }
        true
    }

    /// Rebuilds B^-1 and the basic values from the basis columns (Gauss-Jordan
    /// with partial pivoting). A basic column that rounding has made dependent
    /// on the others is replaced by the slack of a row no pivot covers, the
    /// usual basis repair; the next solve re-optimises from there.
    fn refactor(&mut self) {
        while let Err(position) = self.try_invert() {
            let covered: Vec<usize> =
                self.basis.iter().filter_map(|v| if let Var::Slack(j) = v { Some(*j) } else { None }).collect();
            let row = (0..self.m).find(|j| !covered.contains(j)).expect("a singular basis leaves a row uncovered");
            if let Var::Column(c) = self.basis[position] {
                self.is_basic[c] = false;
            }
            self.basis[position] = Var::Slack(row);
        }
        self.pivots_since_refactor = 0;
        let (primal, dual) = self.residuals();
        self.drift_limit = DRIFT_TOLERANCE.max(DRIFT_GROWTH * primal.max(dual));
    }

    /// B x_B from the basis columns.
    fn basis_times_values(&self) -> Vec<f64> {
        let mut bx = vec![0.0; self.m];
        for (var, value) in self.basis.iter().zip(&self.values) {
            match var {
                Var::Slack(j) => bx[*j] += value,
                Var::Column(c) => {
                    for (b, a) in bx.iter_mut().zip(self.columns.widened(*c)) {
                        *b += a * value;
                    }
                }
            }
        }
        bx
    }

    /// x_B = B^-1 b (lifted where rounding left it infeasible) and w = c_B' B^-1, from scratch.
    fn values_and_duals_from_inverse(&mut self) {
        let m = self.m;
        self.values =
            self.inverse.chunks_exact(m).map(|row| row.iter().zip(&self.rhs).map(|(a, b)| a * b).sum()).collect();
        self.shift_infeasible();
        self.duals = self.compute_duals();
    }

    /// Whether x_B or w fails its equations by more than the drift limit.
    fn drifted(&self) -> bool {
        let (primal, dual) = self.residuals();
        primal.max(dual) > self.drift_limit
    }

    /// Max residuals |B x_B - b| and |w B - c_B| of the current inverse.
    fn residuals(&self) -> (f64, f64) {
        let dual = self
            .basis
            .iter()
            .map(|var| match var {
                Var::Slack(j) => (self.duals[*j] - self.slack_costs[*j]).abs(),
                Var::Column(c) => (self.columns.dot(*c, &self.duals) - self.costs[*c]).abs(),
            })
            .fold(0.0, f64::max);
        let primal = self.basis_times_values().iter().zip(&self.rhs).map(|(x, b)| (x - b).abs()).fold(0.0, f64::max);
        (primal, dual)
    }

    /// Inverts the basis; on failure returns a basis position whose column is
    /// (numerically) dependent on the others.
    fn try_invert(&mut self) -> Result<(), usize> {
        let m = self.m;
        let a = &mut self.inverse;
        a.fill(0.0);
        for (k, var) in self.basis.iter().enumerate() {
            match var {
                Var::Slack(j) => a[j * m + k] = 1.0,
                Var::Column(c) => {
                    for (i, v) in self.columns.widened(*c).into_iter().enumerate() {
                        a[i * m + k] = v;
                    }
                }
            }
        }
        invert_in_place(a, m)?;
        self.values_and_duals_from_inverse();
        if let Some(sketch) = &mut self.sketch {
            sketch.rebuild(&self.inverse);
        }
        Ok(())
    }

    /// Lifts every basic value that rounding has pushed below
    /// -`FEASIBILITY_TOLERANCE` to a fresh perturbation by shifting b along its
    /// column (bound shifting): the basis stays primal feasible, and b stays
    /// within a few perturbations of 1.
    fn shift_infeasible(&mut self) {
        if self.unperturbed {
            return;
        }
        for i in 0..self.m {
            if self.values[i] < -FEASIBILITY_TOLERANCE {
                let lift = perturbation(&mut self.rng) - self.values[i];
                self.values[i] += lift;
                match self.basis[i] {
                    Var::Slack(j) => self.rhs[j] += lift,
                    Var::Column(c) => {
                        for (b, a) in self.rhs.iter_mut().zip(self.columns.widened(c)) {
                            *b += lift * a;
                        }
                    }
                }
            }
        }
    }
}

/// A random shift of one bound, between one and two `PERTURBATION`s.
fn perturbation(rng: &mut ChaCha8Rng) -> f64 {
    PERTURBATION * (1.0 + rng.random::<f64>())
}

/// The candidate whose edge is steepest: the largest reduced cost per unit
/// length of the edge, rc^2 / (1 + |B^-1 a|^2) (Goldfarb and Reid's measure,
/// computed exactly for the few candidates).
fn steepest_edge(candidates: &[(Var, f64)], directions: Vec<Vec<f64>>) -> Option<(Var, Vec<f64>)> {
    candidates
        .iter()
        .zip(directions)
        .map(|(&(var, gain), d)| (gain * gain / (1.0 + d.iter().map(|x| x * x).sum::<f64>()), var, d))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, var, d)| (var, d))
}

/// The k largest gains among the improving variables offered.
struct Best {
    k: usize,
    items: Vec<(Var, f64)>,
    /// The position and gain of the smallest kept gain once k are kept,
    /// found again only after a change: most offers of a scan lose to it.
    worst: Option<(usize, f64)>,
}

impl Best {
    fn new(k: usize) -> Self {
        Best { k, items: Vec::with_capacity(k + 1), worst: None }
    }

    /// Keeps an improving `var` if its gain is among the k largest; returns `improving`.
    fn offer(&mut self, var: Var, gain: f64, improving: bool) -> bool {
        if !improving {
            return false;
        }
        if self.items.len() == self.k {
            let items = &self.items;
            let (worst, worst_gain) = *self.worst.get_or_insert_with(|| {
                items.iter().enumerate().map(|(i, x)| (i, x.1)).min_by(|a, b| a.1.total_cmp(&b.1)).expect("k > 0")
            });
            if gain <= worst_gain {
                return true;
            }
            self.items.swap_remove(worst);
        }
        self.items.push((var, gain));
        self.worst = None;
        true
    }

    /// The kept variables, largest gain first.
    fn into_sorted(mut self) -> Vec<(Var, f64)> {
        self.items.sort_by(|a, b| b.1.total_cmp(&a.1));
        self.items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_the_seeds_n4_symmetric_game_incrementally() {
        // Section 1.13: the symmetric payoff matrix A_s for N = 4 (doubled) has value 4.
        let columns: Vec<Vec<f64>> =
            [[5.0, 5.0], [4.0, 6.0], [4.0, 5.0], [3.0, 7.0], [3.0, 7.0], [5.0, 3.0], [4.0, 4.0]]
                .map(|c| c.to_vec())
                .into();
        let mut master = RestrictedMaster::new(2, &columns[..1]);
        assert!((1.0 / master.solve().objective - 5.0).abs() < 1e-12);
        for column in &columns[1..] {
            master.add_column(column);
        }
        let optimum = master.solve();
        assert!((1.0 / optimum.objective - 4.0).abs() < 1e-12);
        let total: f64 = optimum.duals.iter().sum();
        assert!((total - optimum.objective).abs() < 1e-12, "strong duality");
        assert!(
            (0.5 - 1e-12..=0.75 + 1e-12).contains(&(optimum.duals[0] / total)),
            "Alice's optimal x1 lies in [0.5, 0.75]"
        );
        assert_eq!(master.basis().len(), 2);
    }

    #[test]
    fn slack_costs_bound_the_duals_below() {
        // The N = 4 game above (duals (w0, w1), sum 1/4 at the optimum, w0 / sum <= 0.75)
        // with w0 >= 0.2: then min w0 + w1 over 3 w0 + 7 w1 >= 1 (the binding
        // column) gives w1 = (1 - 0.6) / 7.
        let columns = [[5.0, 5.0], [4.0, 6.0], [4.0, 5.0], [3.0, 7.0], [5.0, 3.0], [4.0, 4.0]].map(|c| c.to_vec());
        let mut master = RestrictedMaster::new(2, &columns);
        master.set_slack_costs(vec![0.2, 0.0]);
        let boxed = master.solve();
        assert!(
            (boxed.duals[0] - 0.2).abs() < 1e-12 && (boxed.duals[1] - 0.4 / 7.0).abs() < 1e-12,
            "{:?}",
            boxed.duals
        );
        // Bob's mixture x alone: feasible for S x <= 1, so no more than the unboxed optimum 1/4.
        assert!(boxed.objective <= 0.25 + 1e-12);
        master.set_slack_costs(vec![0.0, 0.0]);
        assert!((1.0 / master.solve().objective - 4.0).abs() < 1e-12);
    }

    /// The value of max 1'x, S x <= 1, x >= 0 by microlp, a maintained LP solver.
    fn reference_objective(s: &[Vec<f64>], m: usize) -> f64 {
        use microlp::{ComparisonOp, OptimizationDirection, Problem};
        let mut problem = Problem::new(OptimizationDirection::Maximize);
        let vars: Vec<_> = s.iter().map(|_| problem.add_var(1.0, (0.0, f64::INFINITY))).collect();
        for i in 0..m {
            let row: Vec<_> = vars.iter().zip(s).map(|(v, col)| (*v, col[i])).collect();
            problem.add_constraint(&row, ComparisonOp::Le, 1.0);
        }
        problem.solve().expect("bounded and feasible").into_solution().expect("optimal").objective()
    }

    /// A random degenerate game (small entries, many ties) solved under a
    /// perturbation far larger than the solver's, so that its optimum is often
    /// infeasible at b = 1: its duals are feasible all the same, and polish is
    /// then a whole dual simplex. Returns the master, its columns and m.
    fn perturbed_random_game(rng: &mut rand_chacha::ChaCha8Rng) -> (RestrictedMaster, Vec<Vec<f64>>, usize) {
        use rand::RngExt;
        let m = rng.random_range(2..=12);
        let k = rng.random_range(m..=40);
        let columns: Vec<Vec<f64>> =
            (0..k).map(|_| (0..m).map(|_| f64::from(rng.random_range(1..=3u8))).collect()).collect();
        let mut master = RestrictedMaster::new(m, &columns);
        master.rhs = (0..m).map(|_| 1.0 + 0.5 * rng.random::<f64>()).collect();
        master.refactor();
        master.solve();
        (master, columns, m)
    }

    #[test]
    fn refining_the_duals_removes_their_drift() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..20 {
            let (mut master, _, _) = perturbed_random_game(&mut rng);
            let exact = master.compute_duals();
            // The drift the pivots' in-place updates leave, far above rounding.
            for w in &mut master.duals {
                *w *= 1.0 + 1e-9 * rng.random_range(-1.0..1.0);
            }
            let off = |master: &RestrictedMaster| {
                master.duals.iter().zip(&exact).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max)
            };
            assert!(off(&master) > 1e-12);
            master.refine_duals();
            assert!(off(&master) < 1e-13, "{}", off(&master));
            assert!(master.residuals().1 < 1e-13);
        }
    }

    #[test]
    fn the_polish_leaves_by_infeasibility_per_row_norm_not_by_the_most_negative_value() {
        // B = diag(1, 0.01), so row 1 of B^-1 is 100 times longer: x = (-1, -5)
        // has the most negative value in row 1, but row 0 is 400 times farther
        // from feasible per unit of dual step (1 / 1 against 25 / 1e4).
        let mut master = RestrictedMaster::new(2, &[vec![1.0, 0.0], vec![0.0, 0.01]]);
        master.start_from(&[Var::Column(0), Var::Column(1)]);
        master.values = vec![-1.0, -5.0];
        assert_eq!(master.steepest_infeasible_row(1e-12), Some(0));
        master.values = vec![-1e-13, 2.0];
        assert_eq!(master.steepest_infeasible_row(1e-12), None, "noise below the tolerance is feasible");
    }

    /// Basic values below zero at b = 1 (beyond `POLISH_FEASIBILITY`).
    fn infeasible_at_b_1(master: &RestrictedMaster) -> usize {
        let values = master.unperturbed_values();
        let largest = values.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        values.iter().filter(|x| **x < -POLISH_FEASIBILITY * largest).count()
    }

    #[test]
    fn polish_makes_the_optimum_feasible_for_b_1_and_keeps_it_optimal() {
        // Random degenerate games (small entries, many ties): where the
        // perturbed optimum has a basic value below zero at b = 1, the dual
        // pivots of `polish` remove it, and the basis is optimal for b = 1.
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut polished = 0;
        for _ in 0..300 {
            let (mut master, columns, m) = perturbed_random_game(&mut rng);
            let k = columns.len();
            let before = infeasible_at_b_1(&master);
            let pivots = master.polish();
            assert_eq!(infeasible_at_b_1(&master), 0, "m = {m}, k = {k}");
            assert_eq!(pivots > 0, before > 0, "m = {m}, k = {k}: {pivots} pivots for {before} negative values");
            polished += usize::from(pivots > 0);
            let reference = reference_objective(&columns, m);
            let objective = master.unperturbed_objective();
            assert!((objective - reference).abs() < 1e-9 * reference, "m = {m}, k = {k}: {objective} vs {reference}");
            let duals = master.compute_duals();
            for c in 0..k {
                assert!(master.columns.dot(c, &duals) >= 1.0 - 1e-9, "m = {m}, k = {k}: column {c} prices out");
            }
            assert!(duals.iter().all(|w| *w >= -1e-12), "m = {m}, k = {k}");
        }
        assert!(polished > 0, "no game needed polishing: the test proves nothing");
        eprintln!("{polished} of 300 games polished");
    }

    #[test]
    fn a_polish_that_cannot_finish_restores_the_basis_it_started_from() {
        // With no dual pivot allowed, a basis infeasible at b = 1 cannot be
        // polished: the master must be left exactly as it was, perturbed b
        // and all, not half-way (see `polish_within`).
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut restored = 0;
        for _ in 0..300 {
            let (mut master, columns, m) = perturbed_random_game(&mut rng);
            let k = columns.len();
            if infeasible_at_b_1(&master) == 0 {
                continue;
            }
            let (basis, rhs, objective) = (master.basis.clone(), master.rhs.clone(), master.objective());
            assert_eq!(master.polish_within(0), 0);
            assert_eq!(master.basis, basis, "m = {m}, k = {k}");
            assert_eq!(master.rhs, rhs, "m = {m}, k = {k}");
            assert!((master.objective() - objective).abs() <= 1e-12 * objective, "m = {m}, k = {k}");
            let basic = master.basis.iter().filter(|v| matches!(v, Var::Column(_))).count();
            assert_eq!(master.is_basic.iter().filter(|b| **b).count(), basic, "m = {m}, k = {k}");
            restored += 1;
            // And the full polish still succeeds from there.
            assert!(master.polish() > 0, "m = {m}, k = {k}");
        }
        assert!(restored > 0, "no game needed polishing: the test proves nothing");
    }

    #[test]
    fn agrees_with_microlp_on_random_games_added_column_by_column() {
        random_games_agree_with_microlp(|_| {}, 1e-9);
    }

    #[test]
    fn the_exact_edges_still_solve() {
        random_games_agree_with_microlp(|master| master.set_entering_rule(EnteringRule::ExactEdges), 1e-9);
    }

    #[test]
    fn the_stalled_tolerance_still_solves() {
        random_games_agree_with_microlp(|master| master.stall_limit = 0, 1e-7);
    }

    /// Random small games with many ties, columns added one by one; `setup`
    /// changes the master's stall handling before the first solve.
    fn random_games_agree_with_microlp(setup: impl Fn(&mut RestrictedMaster), tolerance: f64) {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..200 {
            let m = rng.random_range(1..=12);
            let k = rng.random_range(1..=30);
            // Small entries make ties and degenerate vertices common.
            let columns: Vec<Vec<f64>> =
                (0..k).map(|_| (0..m).map(|_| f64::from(rng.random_range(1..=6u8))).collect()).collect();
            let mut master = RestrictedMaster::new(m, &columns[..1]);
            setup(&mut master);
            master.solve();
            for c in &columns[1..] {
                master.add_column(c);
                master.solve();
            }
            let ours = master.solve().objective;
            let reference = reference_objective(&columns, m);
            assert!((ours - reference).abs() < tolerance * reference, "m = {m}, k = {k}: {ours} vs {reference}");
            assert!(master.values.iter().all(|&x| x >= -1e-9), "a feasible basis");
        }
    }
}
