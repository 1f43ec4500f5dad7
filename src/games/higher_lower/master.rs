//! Bob's restricted master LP in the normalised form of a matrix game with a
//! positive payoff matrix S (rows: Alice's strategies, columns: Bob's trees):
//!
//!   max 1'x  subject to  S x <= 1,  x >= 0,
//!
//! whose optimum is 1/V_S (V_S the value of S), with x / sum(x) Bob's optimal
//! mixture and the duals w / sum(w) Alice's strategy. Slacks give a feasible
//! starting basis and S > 0 keeps the problem bounded, so no phase 1 is needed.
//!
//! A dense revised simplex with an explicit basis inverse, kept between
//! solves so that each added column is re-optimised from the previous basis.
//! Each pivot costs O(m^2) (one pass over the inverse updates it and computes
//! the next entering direction); the inverse is rebuilt from the basis when
//! the residuals of x and w show drift. Degenerate vertices (hundreds of
//! basic variables at zero) are left by perturbing the bounds when the
//! objective stalls, and the perturbation is removed by dual simplex pivots
//! before the solve returns. On this small, dense LP it
//! runs several times faster per pivot than HiGHS's hot-started simplex
//! (measured: 39 vs 130 microseconds at m = 150, with similar pivot counts).

use super::kernels::{dot_f32, sub_scaled};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A basic or entering variable: the slack of row j, or column c (in order of addition).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Var {
    Slack(usize),
    Column(usize),
}

/// The master's optimal solution after a solve.
#[derive(Debug, Clone)]
pub struct Optimum {
    /// 1'x = 1 / V_S.
    pub objective: f64,
    /// Duals w >= 0 (Alice's strategy, unnormalised; negative rounding noise clipped).
    pub duals: Vec<f64>,
}

/// Pivots between checks of the inverse's drift (a check costs about one pivot).
const DRIFT_CHECK_EVERY: usize = 32;
/// Largest residual |B x_B - 1| or |w B - c_B| tolerated before the inverse is
/// rebuilt. Measured at N = 500: after m = 250 pivots the residuals are mostly
/// 1e-13 .. 1e-12, now and then 1e-9; rebuilding every m pivots regardless
/// cost 31% of the time at N = 993.
const DRIFT_TOLERANCE: f64 = 1e-11;
/// Pivots (per row) after which the inverse is rebuilt even without measured drift.
const REFACTOR_EVERY_ROWS: usize = 8;
/// Columns per segment of partial pricing (at least the number of rows).
const PRICING_SEGMENT: usize = 256;
/// Relative difference below which ratios and lexicographic entries tie.
const TIE_TOLERANCE: f64 = 1e-11;
/// Entries of the entering direction below this fraction of its largest entry
/// are treated as zero in the ratio test (avoids ill-conditioned bases).
const PIVOT_TOLERANCE: f64 = 1e-7;
/// The objective has progressed when it exceeds the best of the solve by
/// this (relative). On a degenerate vertex rounding noise moves it up and down
/// by about 1e-13 (N = 1005: 5 million pivots with no real gain).
const STALL_PROGRESS: f64 = 1e-11;
/// Pivots without progress, per row, after which the bounds are perturbed.
const PERTURB_AFTER_ROWS: usize = 1;
/// Size of the random shift of each basic value (the right-hand side is 1):
/// far above rounding noise, small enough that few dual pivots remove it.
const PERTURBATION: f64 = 1e-7;
/// Perturbations per solve; a stall after the last falls back on the relaxed tolerance.
const MAX_PERTURBATIONS: usize = 4;
/// Basic values above minus this count as feasible when the perturbation is removed.
const FEASIBILITY_TOLERANCE: f64 = 1e-11;
/// Pivots without progress, per row, after which gains of rounding noise no
/// longer count (runs of up to 9m degenerate pivots end by themselves: N = 487..490).
const STALL_PIVOTS_PER_ROW: usize = 40;
/// The optimality tolerance after a stall.
const STALLED_OPTIMALITY_TOLERANCE: f64 = 1e-9;
/// Reduced costs (relative to the objective scale) below this count as optimal.
const OPTIMALITY_TOLERANCE: f64 = 1e-12;

pub struct Master {
    m: usize,
    /// The columns in single precision: tree columns are small integers
    /// (exact), and pricing scans them all, so half the bytes is most of the
    /// speed of a scan.
    columns: Vec<Vec<f32>>,
    basis: Vec<Var>,
    is_basic: Vec<bool>,
    /// Whether each column has been basic at some point (the columns worth carrying to N + 1).
    ever_basic: Vec<bool>,
    /// B^-1, row-major m x m.
    inverse: Vec<f64>,
    /// Values of the basic variables, B^-1 b.
    values: Vec<f64>,
    /// The right-hand side b: all ones, or ones shifted by a perturbation.
    rhs: Vec<f64>,
    /// Whether `rhs` is perturbed (only ever within a solve).
    perturbed: bool,
    /// Perturbations in the current solve.
    perturbations: usize,
    /// Draws the perturbation; seeded, so solves are reproducible.
    rng: ChaCha8Rng,
    /// Duals c_B' B^-1, updated with every pivot.
    duals: Vec<f64>,
    /// Where partial pricing starts its next scan.
    next_column: usize,
    /// The best objective of the current solve (or since the last change of b).
    best_objective: f64,
    /// Consecutive pivots that did not raise the best objective measurably.
    stalled_pivots: usize,
    /// Stalled pivots after which the bounds are perturbed.
    perturb_after: usize,
    /// Stalled pivots after which the optimality tolerance is relaxed.
    stall_limit: usize,
    pivots_since_refactor: usize,
    /// Pivots after which the inverse is rebuilt even without measured drift
    /// (a rebuild costs O(m^3), as much as m pivots).
    refactor_interval: usize,
    iterations: u64,
}

impl Master {
    /// The all-slack basis for m rows, with the given initial columns.
    pub fn new(m: usize, initial: &[Vec<f64>]) -> Self {
        let mut inverse = vec![0.0; m * m];
        for i in 0..m {
            inverse[i * m + i] = 1.0;
        }
        let mut master = Master {
            m,
            columns: Vec::new(),
            basis: (0..m).map(Var::Slack).collect(),
            is_basic: Vec::new(),
            ever_basic: Vec::new(),
            inverse,
            values: vec![1.0; m],
            rhs: vec![1.0; m],
            perturbed: false,
            perturbations: 0,
            rng: ChaCha8Rng::seed_from_u64(m as u64),
            duals: vec![0.0; m],
            next_column: 0,
            best_objective: 0.0,
            stalled_pivots: 0,
            perturb_after: PERTURB_AFTER_ROWS * m.max(8),
            stall_limit: STALL_PIVOTS_PER_ROW * m.max(8),
            pivots_since_refactor: 0,
            refactor_interval: REFACTOR_EVERY_ROWS * m.max(8),
            iterations: 0,
        };
        for column in initial {
            master.add_column(column);
        }
        master
    }

    /// Simplex pivots over all solves.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Adds a column (length m, positive); returns its index.
    pub fn add_column(&mut self, column: &[f64]) -> usize {
        debug_assert_eq!(column.len(), self.m);
        self.columns.push(column.iter().map(|&v| v as f32).collect());
        self.is_basic.push(false);
        self.ever_basic.push(false);
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
    /// Dantzig pricing (the slacks, then columns in segments from a rotating
    /// start, taking the best of the first segment that has an improving
    /// column) and the lexicographic ratio test (the ordering of Dresher's own
    /// method), which rules out cycling on this highly degenerate LP in exact
    /// arithmetic. In floating point a degenerate vertex can still hold it for
    /// millions of pivots, so a stall perturbs the bounds (see `perturb`).
    pub fn solve(&mut self) -> Optimum {
        let start = self.iterations;
        self.perturbations = 0;
        self.reset_progress();
        loop {
            let mut next = self.choose_entering().map(|var| (var, self.direction(var)));
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
                if !self.perturbed
                    && self.stalled_pivots >= self.perturb_after
                    && self.perturbations < MAX_PERTURBATIONS
                {
                    // The basis and duals stay, so `next` is still the entering variable.
                    self.perturb();
                }
            }
            if !self.perturbed {
                break;
            }
            self.remove_perturbation();
        }
        Optimum { objective: self.objective(), duals: self.duals.iter().map(|x| x.max(0.0)).collect() }
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

    /// Raises every basic value by a random amount near `PERTURBATION` and sets
    /// b = B x_B to match: the basis stays feasible and optimal-or-not as it
    /// was, but no basic variable sits at zero, so each pivot gains and the
    /// simplex leaves the degenerate vertex.
    fn perturb(&mut self) {
        for value in &mut self.values {
            *value = value.max(0.0) + PERTURBATION * (1.0 + self.rng.random::<f64>());
        }
        self.rhs = self.basis_times_values();
        self.perturbed = true;
        self.perturbations += 1;
        self.reset_progress();
    }

    /// Restores b = 1 and makes the basis feasible again by dual simplex pivots
    /// (the duals stay feasible, so the basis stays optimal up to the few
    /// columns the primal pivots after it may still bring in).
    fn remove_perturbation(&mut self) {
        self.rhs = vec![1.0; self.m];
        self.perturbed = false;
        self.refactor();
        let start = self.iterations;
        while let Some(r) = (0..self.m)
            .filter(|&i| self.values[i] < -FEASIBILITY_TOLERANCE)
            .min_by(|&a, &b| self.values[a].total_cmp(&self.values[b]))
        {
            assert!(
                self.iterations - start < 10 * self.m as u64 + 100,
                "the dual simplex made no feasible basis in {} pivots (m = {})",
                self.iterations - start,
                self.m
            );
            let entering = self.dual_entering(r);
            let d = self.direction(entering);
            self.exchange(r, entering, &d, self.values[r] / d[r], false);
        }
        self.reset_progress();
    }

    /// The dual ratio test for leaving row r (x_r < 0): among the nonbasic
    /// variables with alpha = (B^-1)_r a < 0, the one whose reduced cost
    /// reaches zero first, min |c - w a| / |alpha|, preferring large |alpha|.
    fn dual_entering(&self, r: usize) -> Var {
        let m = self.m;
        let row = &self.inverse[r * m..(r + 1) * m];
        let mut basic_slack = vec![false; m];
        for var in &self.basis {
            if let Var::Slack(j) = var {
                basic_slack[*j] = true;
            }
        }
        let slacks = (0..m).filter(|&j| !basic_slack[j]).map(|j| (Var::Slack(j), row[j], -self.duals[j]));
        let columns = (0..self.columns.len())
            .filter(|&c| !self.is_basic[c])
            .map(|c| (Var::Column(c), dot_f32(row, &self.columns[c]), 1.0 - dot_f32(&self.duals, &self.columns[c])));
        let candidates: Vec<(Var, f64, f64)> = slacks.chain(columns).filter(|(_, alpha, _)| *alpha < 0.0).collect();
        let threshold = PIVOT_TOLERANCE * candidates.iter().fold(0.0f64, |a, (_, alpha, _)| a.max(-alpha));
        candidates
            .into_iter()
            .filter(|(_, alpha, _)| -alpha > threshold)
            .map(|(var, alpha, reduced)| (var, -alpha, (-reduced).max(0.0) / -alpha))
            .min_by(|a, b| a.2.total_cmp(&b.2).then(b.1.total_cmp(&a.1)))
            .map(|(var, _, _)| var)
            .expect("x = 0 is feasible, so the dual ratio test finds an entering variable")
    }

    /// The entering variable at the current duals, or `None` at an optimum:
    /// the most improving slack, or the best column of the first segment (from
    /// the rotating start) that has an improving one, whichever gains more.
    fn choose_entering(&mut self) -> Option<Var> {
        let tolerance = self.optimality_tolerance();
        let scale = self.duals.iter().map(|x| x.abs()).sum::<f64>().max(1e-300);
        let mut entering = (0..self.m)
            .map(|j| (Var::Slack(j), -self.duals[j] / scale))
            .filter(|(_, gain)| *gain > tolerance)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let n = self.columns.len();
        let segment = PRICING_SEGMENT.max(self.m);
        let mut scanned = 0;
        while scanned < n {
            let best = (scanned..(scanned + segment).min(n))
                .map(|k| (self.next_column + k) % n)
                .filter(|&c| !self.is_basic[c])
                .map(|c| (Var::Column(c), 1.0 - dot_f32(&self.duals, &self.columns[c])))
                .filter(|(_, gain)| *gain > tolerance)
                .max_by(|a, b| a.1.total_cmp(&b.1));
            scanned += segment;
            if let Some(best) = best {
                if entering.is_none_or(|e| best.1 > e.1) {
                    entering = Some(best);
                }
                self.next_column = (self.next_column + scanned) % n;
                break;
            }
        }
        entering.map(|(var, _)| var)
    }

    /// The reduced cost above which a variable may enter. The lexicographic
    /// rule rules out cycling in exact arithmetic, but not on reduced costs of
    /// rounding noise (about 1e-12): twin columns once swapped places for
    /// millions of pivots (N = 500, warm in a chunk from 481). After a long
    /// run of pivots without progress, such gains no longer count.
    fn optimality_tolerance(&self) -> f64 {
        if self.stalled_pivots >= self.stall_limit { STALLED_OPTIMALITY_TOLERANCE } else { OPTIMALITY_TOLERANCE }
    }

    /// B^-1 a for the variable's column a (FTRAN).
    fn direction(&self, var: Var) -> Vec<f64> {
        let m = self.m;
        match var {
            Var::Slack(j) => (0..m).map(|i| self.inverse[i * m + j]).collect(),
            Var::Column(c) => self.inverse.chunks_exact(m).map(|row| dot_f32(row, &self.columns[c])).collect(),
        }
    }

    fn cost(var: Var) -> f64 {
        match var {
            Var::Slack(_) => 0.0,
            Var::Column(_) => 1.0,
        }
    }

    fn objective(&self) -> f64 {
        self.basis.iter().zip(&self.values).map(|(v, x)| Self::cost(*v) * x).sum()
    }

    /// Duals w = c_B' B^-1, from scratch.
    fn compute_duals(&self) -> Vec<f64> {
        let mut w = vec![0.0; self.m];
        for (i, var) in self.basis.iter().enumerate() {
            let cost = Self::cost(*var);
            if cost != 0.0 {
                for (wj, bij) in w.iter_mut().zip(&self.inverse[i * self.m..(i + 1) * self.m]) {
                    *wj += cost * bij;
                }
            }
        }
        w
    }

    /// Brings `entering` (with direction d = B^-1 a) into the basis by the
    /// lexicographic ratio test: the leaving row minimises (x_i, B^-1_i) / d_i
    /// lexicographically over d_i > 0. Returns the next entering variable with
    /// its direction (see `exchange`).
    fn pivot(&mut self, entering: Var, d: &[f64]) -> Option<(Var, Vec<f64>)> {
        let m = self.m;
        let threshold = PIVOT_TOLERANCE * d.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        let candidates: Vec<usize> = (0..m).filter(|&i| d[i] > threshold).collect();
        let ratio = |i: usize| self.values[i].max(0.0) / d[i];
        let best = candidates.iter().map(|&i| ratio(i)).fold(f64::INFINITY, f64::min);
        let tied: Vec<usize> =
            candidates.into_iter().filter(|&i| ratio(i) <= best + TIE_TOLERANCE * best.max(1.0)).collect();
        let lexicographically_smaller = |i: usize, k: usize| {
            let (ri, rk) = (&self.inverse[i * m..(i + 1) * m], &self.inverse[k * m..(k + 1) * m]);
            for (a, b) in ri.iter().zip(rk) {
                let (a, b) = (a / d[i], b / d[k]);
                if (a - b).abs() > TIE_TOLERANCE * a.abs().max(b.abs()).max(1e-300) {
                    return a < b;
                }
            }
            d[i] > d[k]
        };
        let r = tied
            .iter()
            .copied()
            .reduce(|k, i| if lexicographically_smaller(i, k) { i } else { k })
            .expect("S > 0 keeps the master bounded");
        self.exchange(r, entering, d, ratio(r), true)
    }

    /// Replaces basic row r by `entering` (direction d = B^-1 a), which takes
    /// the value `step`. With `choose_next`, returns the next entering
    /// variable with its direction: it is chosen from the updated duals before
    /// B^-1 is updated, so the update and the next FTRAN share one pass over
    /// B^-1 (the master is memory bound once B^-1 outgrows the cache).
    fn exchange(
        &mut self,
        r: usize,
        entering: Var,
        d: &[f64],
        step: f64,
        choose_next: bool,
    ) -> Option<(Var, Vec<f64>)> {
        let m = self.m;
        let reduced_cost =
            Self::cost(entering) - d.iter().zip(&self.basis).map(|(di, v)| Self::cost(*v) * di).sum::<f64>();
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

        let next = if choose_next { self.choose_entering() } else { None };
        let mut next_direction = vec![0.0; if next.is_some() { m } else { 0 }];
        let next_column = match next {
            Some(Var::Column(c)) => Some(std::mem::take(&mut self.columns[c])),
            _ => None,
        };
        for (i, row) in self.inverse.chunks_exact_mut(m).enumerate() {
            if i == r {
                row.copy_from_slice(&pivot_row);
            } else if d[i] != 0.0 {
                sub_scaled(row, d[i], &pivot_row);
            }
            match (next, &next_column) {
                (Some(Var::Slack(j)), _) => next_direction[i] = row[j],
                (Some(Var::Column(_)), Some(a)) => next_direction[i] = dot_f32(row, a),
                _ => {}
            }
        }
        if let (Some(Var::Column(c)), Some(a)) = (next, next_column) {
            self.columns[c] = a;
        }
        if self.pivots_since_refactor.is_multiple_of(DRIFT_CHECK_EVERY) {
            let (primal, dual) = self.residuals();
            if primal.max(dual) > DRIFT_TOLERANCE || self.pivots_since_refactor >= self.refactor_interval {
                self.refactor();
                // The rebuild may change the duals and even the basis: choose afresh.
                return if choose_next { self.choose_entering().map(|var| (var, self.direction(var))) } else { None };
            }
        }
        next.map(|var| (var, next_direction))
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
    }

    /// B x_B from the basis columns.
    fn basis_times_values(&self) -> Vec<f64> {
        let mut bx = vec![0.0; self.m];
        for (var, value) in self.basis.iter().zip(&self.values) {
            match var {
                Var::Slack(j) => bx[*j] += value,
                Var::Column(c) => {
                    for (b, a) in bx.iter_mut().zip(&self.columns[*c]) {
                        *b += f64::from(*a) * value;
                    }
                }
            }
        }
        bx
    }

    /// Max residuals |B x_B - b| and |w B - c_B| of the current inverse.
    fn residuals(&self) -> (f64, f64) {
        let dual = self
            .basis
            .iter()
            .map(|var| match var {
                Var::Slack(j) => self.duals[*j].abs(),
                Var::Column(c) => (dot_f32(&self.duals, &self.columns[*c]) - 1.0).abs(),
            })
            .fold(0.0, f64::max);
        let primal = self.basis_times_values().iter().zip(&self.rhs).map(|(x, b)| (x - b).abs()).fold(0.0, f64::max);
        (primal, dual)
    }

    /// Inverts the basis; on failure returns a basis position whose column is
    /// (numerically) dependent on the others.
    fn try_invert(&mut self) -> Result<(), usize> {
        let m = self.m;
        let width = 2 * m;
        let mut a = vec![0.0; m * width];
        for (k, var) in self.basis.iter().enumerate() {
            match var {
                Var::Slack(j) => a[j * width + k] = 1.0,
                Var::Column(c) => {
                    for (i, v) in self.columns[*c].iter().enumerate() {
                        a[i * width + k] = f64::from(*v);
                    }
                }
            }
        }
        for i in 0..m {
            a[i * width + m + i] = 1.0;
        }
        for col in 0..m {
            let p = (col..m)
                .max_by(|&x, &y| a[x * width + col].abs().total_cmp(&a[y * width + col].abs()))
                .expect("rows remain");
            if a[p * width + col].abs() <= 1e-9 {
                return Err(col);
            }
            if p != col {
                for k in 0..width {
                    a.swap(p * width + k, col * width + k);
                }
            }
            let pivot = a[col * width + col];
            for k in 0..width {
                a[col * width + k] /= pivot;
            }
            // Columns left of `col` are already eliminated in the pivot row.
            let pivot_row: Vec<f64> = a[col * width + col..(col + 1) * width].to_vec();
            for i in 0..m {
                let factor = a[i * width + col];
                if i != col && factor != 0.0 {
                    sub_scaled(&mut a[i * width + col..(i + 1) * width], factor, &pivot_row);
                }
            }
        }
        for i in 0..m {
            self.inverse[i * m..(i + 1) * m].copy_from_slice(&a[i * width + m..(i + 1) * width]);
        }
        self.values =
            self.inverse.chunks_exact(m).map(|row| row.iter().zip(&self.rhs).map(|(a, b)| a * b).sum()).collect();
        self.duals = self.compute_duals();
        Ok(())
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
        let mut master = Master::new(2, &columns[..1]);
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

    #[test]
    fn agrees_with_microlp_on_random_games_added_column_by_column() {
        random_games_agree_with_microlp(|_| {}, 1e-9);
    }

    #[test]
    fn the_stalled_tolerance_still_solves() {
        random_games_agree_with_microlp(|master| master.stall_limit = 0, 1e-7);
    }

    #[test]
    fn perturbing_at_every_pivot_still_solves_exactly() {
        // Every solve perturbs after its first pivots and removes the perturbation by dual pivots.
        random_games_agree_with_microlp(|master| master.perturb_after = 0, 1e-9);
    }

    /// Random small games with many ties, columns added one by one; `setup`
    /// changes the master's stall handling before the first solve.
    fn random_games_agree_with_microlp(setup: impl Fn(&mut Master), tolerance: f64) {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..200 {
            let m = rng.random_range(1..=12);
            let k = rng.random_range(1..=30);
            // Small entries make ties and degenerate vertices common.
            let columns: Vec<Vec<f64>> =
                (0..k).map(|_| (0..m).map(|_| f64::from(rng.random_range(1..=6u8))).collect()).collect();
            let mut master = Master::new(m, &columns[..1]);
            setup(&mut master);
            master.solve();
            for c in &columns[1..] {
                master.add_column(c);
                master.solve();
            }
            let ours = master.solve().objective;
            let reference = reference_objective(&columns, m);
            assert!((ours - reference).abs() < tolerance * reference, "m = {m}, k = {k}: {ours} vs {reference}");
            assert!(!master.perturbed && master.values.iter().all(|&x| x >= -1e-9), "a feasible basis for b = 1");
        }
    }
}
