//! A cold start just below a power of two by the analytic-centre
//! cutting-plane method (ACCPM; Goffin and Vial 2002).
//!
//! There the coarse game's optimum (`start::cold_start`) is far from Alice's
//! optimal strategies, and column generation from it spends thousands of
//! rounds on a nearly flat master. ACCPM works on Alice's side alone: it
//! prices Bob's best tree at the analytic centre of the strategies the trees
//! so far leave possible, {beta in the simplex : beta S_T >= theta for every
//! tree T}, theta the best lower bound, and re-centres by at most two Newton
//! steps, with no simplex. Every `lp_check_every` trees the restricted master
//! over them gives an upper bound; once it is within the tolerance of theta,
//! or theta stops rising, the trees hold an optimal basis (or nearly), and
//! column generation ends the solve from them and the best point
//! (docs/higher-lower.md, "Column generation").

use super::best_response::{column_cost, price};
use super::column_store::ColumnStore;
use super::options::Method;
use super::restricted_master::RestrictedMaster;
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;
use faer::linalg::matmul::triangular::{BlockStructure, matmul};
use faer::linalg::solvers::{Llt, Solve};
use faer::{Mat, MatRef};
use std::collections::HashSet;

/// Newton steps per new tree: the centre need not be exact, only central
/// enough that the next tree cuts deep (more steps cost more than they saved).
const NEWTON_STEPS: usize = 2;

/// Fraction of the way to the boundary a Newton step may go.
const STEP_TO_BOUNDARY: f64 = 0.95;

/// Newton decrement below which a full, feasible step ends the re-centring.
const CENTRED: f64 = 1e-2;

/// Slack, relative to theta, within which a cut counts as passing through
/// the point (rounding of S_T . beta - theta), not as its nearest cut.
const THROUGH_THE_POINT: f64 = 1e-12;

/// The smallest power of two below which cold starts are by analytic
/// centres: below 512 the coarse start is faster (127: 0.06 s against
/// 0.13 s), at 511 they are even (docs/history.md, the prototype's figures).
const SMALLEST_POWER: usize = 1024;

/// Keys below a power of two 2^k, in units of sqrt(2^k), within which cold
/// starts are by analytic centres. The method wins where the coarse start
/// lies more than about 1e-4 of V below V, and that distance crosses 1e-4
/// about 52 keys below 1024 and 70 below 2048 (docs/history.md, "Where a cold
/// start by analytic centres wins"); 1.6 sqrt(2^k) is 51 and 72: every
/// measured win (973, 977, 993, 1985, 2017) inside, every loss (961, 969,
/// 1953) outside.
const KEYS_BELOW_PER_ROOT: f64 = 1.6;

/// Whether a cold start of `n` keys is by analytic centres: where N lies
/// within 1.6 sqrt(2^k) keys below a power of two 2^k of at least
/// `SMALLEST_POWER` (973..1023, 1976..2047, ...). Elsewhere the coarse game
/// holds Alice's optimal strategies closely enough that its start is cheaper.
pub fn starts_by_analytic_centres(n: usize) -> bool {
    let above = n.next_power_of_two();
    let reach = (KEYS_BELOW_PER_ROOT * (above as f64).sqrt()) as usize;
    above >= SMALLEST_POWER && n < above && above - n <= reach
}

/// The trees found so far, one per distinct symmetric column, with the
/// columns in bytes (`ColumnStore`): the Newton steps read every column
/// several times, and at 6,000 cuts of m = 1009 floats would be 48 MB a pass.
struct Cuts {
    trees: Vec<Tree>,
    columns: ColumnStore,
    seen: HashSet<Vec<u16>>,
}

impl Cuts {
    /// Adds `tree`; whether its column was new.
    fn add(&mut self, game: &SymmetricGame, tree: Tree) -> bool {
        let column = game.column(&tree);
        if !self.seen.insert(column.clone()) {
            return false;
        }
        self.columns.push(&column.into_iter().map(f64::from).collect::<Vec<_>>());
        self.trees.push(tree);
        true
    }

    fn len(&self) -> usize {
        self.trees.len()
    }

    /// S_T . x for every cut T.
    fn dots(&self, x: &[f64]) -> Vec<f64> {
        let all: Vec<usize> = (0..self.len()).collect();
        let mut out = Vec::with_capacity(all.len());
        self.columns.dots_into(&all, x, &mut out);
        out
    }
}

/// How far a cut's weight 1/r^2 in the normal matrix may drift from its
/// current value before it is renewed: every weight within this fraction
/// keeps the matrix within (1 +- it) of the exact one, an inexact Newton step
/// that centres nearly as well, while most cuts, far from the centre, move
/// less than that from one step to the next. At cold 1009 a quarter renewed
/// 91,349 weights over 4,534 steps and a half 39,349, for the same 2,268
/// trees.
const STALE_WEIGHT: f64 = 0.5;

/// The Newton steps' sum over the cuts of S_T S_T' / r_T^2 (its lower
/// triangle), kept across steps and trees: a step renews only the weights
/// that drifted past `STALE_WEIGHT`, at O(m^2) each, instead of forming the
/// O(n m^2) product over all n cuts anew.
struct NormalMatrix {
    sum: Mat<f64>,
    /// The weight each cut holds in `sum` (0 before it is added).
    weights: Vec<f64>,
    /// Cuts renewed since `sum` was last formed whole: once they outnumber
    /// the cuts, the whole product is as cheap and clears the rounding that
    /// subtracted weights leave.
    renewed: usize,
}

impl NormalMatrix {
    fn new(m: usize) -> Self {
        NormalMatrix { sum: Mat::zeros(m, m), weights: Vec::new(), renewed: 0 }
    }

    /// The Cholesky factor of the sum plus diag(1 / beta^2), every weight
    /// within `STALE_WEIGHT` of 1/r^2; `None` if even the whole product is
    /// not positive definite in floating point.
    fn factor(&mut self, columns: &ColumnStore, r: &[f64], beta: &[f64]) -> Option<Llt<f64>> {
        self.renew(columns, r);
        // Renewals that subtract may leave the sum indefinite by rounding:
        // the whole product decides then.
        self.factor_with(beta).or_else(|| {
            self.recompute(columns, r);
            self.factor_with(beta)
        })
    }

    /// Renews the weights that drifted past `STALE_WEIGHT`, or forms the sum
    /// whole once the renewals since the last whole one outnumber the cuts.
    fn renew(&mut self, columns: &ColumnStore, r: &[f64]) {
        self.weights.resize(r.len(), 0.0);
        let (mut raised, mut lowered) = (Vec::new(), Vec::new());
        for (t, (held, ri)) in self.weights.iter_mut().zip(r).enumerate() {
            let weight = 1.0 / (ri * ri);
            let change = weight - *held;
            if change.abs() > STALE_WEIGHT * *held {
                if change > 0.0 {
                    raised.push((t, change))
                } else {
                    lowered.push((t, -change))
                }
                *held = weight;
            }
        }
        self.renewed += raised.len() + lowered.len();
        if self.renewed > r.len() {
            return self.recompute(columns, r);
        }
        self.add(columns, &raised, 1.0);
        self.add(columns, &lowered, -1.0);
    }

    /// The sum formed whole at the exact weights.
    fn recompute(&mut self, columns: &ColumnStore, r: &[f64]) {
        self.weights = r.iter().map(|ri| 1.0 / (ri * ri)).collect();
        let all: Vec<(usize, f64)> = self.weights.iter().copied().enumerate().collect();
        self.sum.fill(0.0);
        self.add(columns, &all, 1.0);
        self.renewed = 0;
    }

    /// The factor of the sum plus diag(1 / beta^2), the sum's diagonal put
    /// back exactly afterwards (no copy of the m x m matrix).
    fn factor_with(&mut self, beta: &[f64]) -> Option<Llt<f64>> {
        let diagonal: Vec<f64> = (0..beta.len()).map(|i| self.sum[(i, i)]).collect();
        for (i, b) in beta.iter().enumerate() {
            self.sum[(i, i)] += 1.0 / (b * b);
        }
        let factor = self.sum.llt(faer::Side::Lower).ok();
        for (i, d) in diagonal.into_iter().enumerate() {
            self.sum[(i, i)] = d;
        }
        factor
    }

    /// Adds `sign` times the sum of `weight S_T S_T'` over `cuts`.
    fn add(&mut self, columns: &ColumnStore, cuts: &[(usize, f64)], sign: f64) {
        if cuts.is_empty() {
            return;
        }
        let m = self.sum.nrows();
        let mut scaled = vec![0.0; m * cuts.len()];
        for (out, &(t, weight)) in scaled.chunks_exact_mut(m).zip(cuts) {
            columns.scaled_into(t, weight.sqrt(), out);
        }
        let w = MatRef::from_column_major_slice(&scaled, m, cuts.len());
        matmul(
            self.sum.as_mut(),
            BlockStructure::TriangularLower,
            faer::Accum::Add,
            w,
            BlockStructure::Rectangular,
            w.transpose(),
            BlockStructure::Rectangular,
            sign,
            faer::get_global_parallelism(),
        );
    }
}

/// One cold start's state: the cuts, the point priced next, and the best
/// lower bound (in units of 2V: beta S_T with beta in the simplex).
struct AnalyticCentre<'g> {
    game: &'g SymmetricGame,
    method: Method,
    cuts: Cuts,
    point: Vec<f64>,
    theta: f64,
    best: Vec<f64>,
    /// The restricted master over the cuts, for the upper bound, and how
    /// many cuts it holds.
    master: RestrictedMaster,
    in_master: usize,
    normal: NormalMatrix,
}

impl<'g> AnalyticCentre<'g> {
    fn new(game: &'g SymmetricGame, method: Method) -> Self {
        let m = game.rows();
        let uniform = vec![1.0 / m as f64; m];
        AnalyticCentre {
            game,
            method,
            cuts: Cuts { trees: Vec::new(), columns: ColumnStore::new(), seen: HashSet::new() },
            point: uniform.clone(),
            theta: f64::NEG_INFINITY,
            best: uniform,
            master: RestrictedMaster::new(m, &[]),
            in_master: 0,
            normal: NormalMatrix::new(m),
        }
    }

    /// Prices `point`: Bob's best tree becomes a cut, and the point the best
    /// one if it proves more. Whether the tree was new.
    fn price_at(&mut self, point: &[f64]) -> bool {
        let tree = price(self.game, self.method, point);
        let bound = column_cost(self.game, &tree, point);
        if bound > self.theta {
            self.theta = bound;
            self.best = point.to_vec();
        }
        self.cuts.add(self.game, tree)
    }

    /// The restricted master over every cut so far, priced at its duals:
    /// its value, an upper bound on 2V.
    fn upper_bound(&mut self) -> f64 {
        for t in self.in_master..self.cuts.len() {
            self.master.add_column(&self.cuts.columns.widened(t));
        }
        self.in_master = self.cuts.len();
        let optimum = self.master.solve();
        let total: f64 = optimum.duals.iter().sum();
        let duals: Vec<f64> = optimum.duals.iter().map(|w| w / total).collect();
        self.price_at(&duals);
        1.0 / optimum.objective
    }

    /// Moves `point` toward the analytic centre of {beta >= 0, 1'beta = 1,
    /// S'beta - theta = r >= 0} by infeasible-start Newton steps on
    /// -sum log beta - sum log r, the slacks r restarted at least at half the
    /// smallest one that is not rounding (a new cut passes through the old point).
    fn recentre(&mut self) {
        let (m, cuts, theta) = (self.point.len(), &self.cuts, self.theta);
        let beta = &mut self.point;
        // S_T . beta, for the slacks and the first step's residuals alike.
        let mut products = cuts.dots(beta);
        let mut r: Vec<f64> = products.iter().map(|s| s - theta).collect();
        // The new cut passes through the point: its slack is rounding, not
        // the smallest one (taken as one, it pinned the floor at 1e-9 theta
        // and the Newton steps stayed at the boundary: 3,276 trees at 1009
        // against 2,268).
        let through = THROUGH_THE_POINT * theta.abs();
        let smallest = r.iter().copied().filter(|x| *x > through).fold(f64::INFINITY, f64::min);
        let floor = if smallest.is_finite() { (0.5 * smallest).max(1e-9 * theta.abs()) } else { 1e-2 * theta.abs() };
        r.iter_mut().for_each(|x| *x = x.max(floor));
        for newton_step in 0..NEWTON_STEPS {
            if newton_step > 0 {
                products = cuts.dots(beta);
            }
            // Residuals of the equations S'beta - r = theta and 1'beta = 1.
            let rp: Vec<f64> = products.iter().zip(&r).map(|(s, ri)| ri - s + theta).collect();
            let rq = 1.0 - beta.iter().sum::<f64>();
            // The normal equations: (S diag(1/r^2) S' + diag(1/beta^2)) d = rhs.
            let Some(factor) = self.normal.factor(&cuts.columns, &r, beta) else { break };
            let mut pulled: Vec<f64> = beta.iter().map(|b| 1.0 / b).collect();
            for (t, (ri, pi)) in r.iter().zip(&rp).enumerate() {
                cuts.columns.add_scaled_to(t, 1.0 / ri + pi / (ri * ri), &mut pulled);
            }
            let rhs = Mat::<f64>::from_fn(m, 2, |i, j| if j == 0 { pulled[i] } else { 1.0 });
            let solved = factor.solve(&rhs);
            // The multiplier of 1'beta = 1, then the steps in beta and r.
            let (su, sv): (f64, f64) = (0..m).fold((0.0, 0.0), |(u, v), i| (u + solved[(i, 0)], v + solved[(i, 1)]));
            let nu = (su - rq) / sv;
            let db: Vec<f64> = (0..m).map(|i| solved[(i, 0)] - nu * solved[(i, 1)]).collect();
            let dr: Vec<f64> = cuts.dots(&db).into_iter().zip(&rp).map(|(s, pi)| s - pi).collect();
            let mut step: f64 = 1.0;
            for (x, dx) in beta.iter().zip(&db).chain(r.iter().zip(&dr)) {
                if *dx < 0.0 {
                    step = step.min(-STEP_TO_BOUNDARY * x / dx);
                }
            }
            let decrement: f64 = beta.iter().zip(&db).chain(r.iter().zip(&dr)).map(|(x, dx)| (dx / x).powi(2)).sum();
            beta.iter_mut().zip(&db).for_each(|(x, dx)| *x += step * dx);
            r.iter_mut().zip(&dr).for_each(|(x, dx)| *x += step * dx);
            if step == 1.0 && decrement < CENTRED {
                break;
            }
        }
        let total: f64 = beta.iter().sum();
        beta.iter_mut().for_each(|x| *x /= total);
    }
}

/// What an analytic-centre start hands to column generation.
pub struct CentreStart {
    /// The point with the best lower bound (the stability centre).
    pub best: Vec<f64>,
    /// Every tree priced.
    pub trees: Vec<Tree>,
    /// Its DPs and its master's pivots, counted with the solve's.
    pub pricing_calls: u32,
    pub pivots: u64,
}

/// Runs ACCPM from the uniform strategy until the master over its trees is
/// within `tolerance` of the best lower bound, or that bound has risen by
/// less than `tolerance` over `lp_check_every` trees, or for at most 8m
/// trees; `report` hears where the bounds on V stand at every check.
pub fn analytic_centre_start(
    game: &SymmetricGame,
    method: Method,
    tolerance: f64,
    report: &dyn Fn(&str),
) -> CentreStart {
    let m = game.rows();
    let lp_check_every = (m / 2).max(8);
    let mut accpm = AnalyticCentre::new(game, method);
    let (mut iterations, mut pricing_calls) = (0, 0);
    let mut theta_at_check = f64::NEG_INFINITY;
    while iterations < 8 * m + 64 {
        iterations += 1;
        pricing_calls += 1;
        let point = accpm.point.clone();
        let new = accpm.price_at(&point);
        // A tree the cuts hold already leaves the centre where it is: the
        // master's duals decide instead.
        if !new || iterations % lp_check_every == 0 {
            let upper = accpm.upper_bound();
            pricing_calls += 1;
            let gap = (upper - accpm.theta) / upper;
            report(&format!(
                "cold start by analytic centres, tree {iterations}, V between {:.12} and {:.12} (gap {gap:.1e} of V)",
                accpm.theta / 2.0,
                upper / 2.0
            ));
            // Near m = 1024 the master's value is noise at 1e-10..1e-9 of V (its
            // perturbation) and may never come within the tolerance: once the
            // lower bound stops rising, column generation's end rules take over.
            let periodic = iterations % lp_check_every == 0;
            let settled = periodic && accpm.theta - theta_at_check <= tolerance * accpm.theta;
            if periodic {
                theta_at_check = accpm.theta;
            }
            // A repeated tree is no reason to stop: the Newton steps centre
            // only roughly, and the next point may cut again (ending there
            // left cold 1009 at a gap of 4e-6 for column generation).
            if gap <= tolerance || settled {
                break;
            }
        }
        accpm.recentre();
    }
    let pivots = accpm.master.iterations();
    CentreStart { best: accpm.best, trees: accpm.cuts.trees, pricing_calls, pivots }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_just_below_a_power_of_two_start_by_analytic_centres() {
        let chosen: Vec<usize> = (1..=2048).filter(|&n| starts_by_analytic_centres(n)).collect();
        let expected: Vec<usize> = [(972, 1024), (1975, 2048)].iter().flat_map(|&(from, to)| from + 1..to).collect();
        assert_eq!(chosen, expected);
    }

    /// The kept sum is the product at the weights it holds, and every held
    /// weight is within `STALE_WEIGHT` of 1/r^2, through steps that raise,
    /// lower and keep weights and add cuts.
    #[test]
    fn the_normal_matrix_holds_every_weight_within_its_drift_and_sums_them_right() {
        let m = 7;
        let mut columns = ColumnStore::new();
        let mut normal = NormalMatrix::new(m);
        let mut r: Vec<f64> = Vec::new();
        for step in 0..40usize {
            if step % 3 == 0 {
                columns.push(&(0..m).map(|i| ((i * 5 + step * 3) % 11) as f64).collect::<Vec<_>>());
                r.push(1.0 + (step % 4) as f64);
            }
            // Slacks that shrink, grow and stay, cut by cut.
            for (t, x) in r.iter_mut().enumerate() {
                *x *= [0.6, 1.1, 1.0, 1.7][(t + step) % 4];
            }
            let beta = vec![1.0 / m as f64; m];
            assert!(normal.factor(&columns, &r, &beta).is_some());
            for (held, x) in normal.weights.iter().zip(&r) {
                let weight = 1.0 / (x * x);
                assert!((held - weight).abs() <= STALE_WEIGHT * held * (1.0 + 1e-12), "{held} against {weight}");
            }
            for i in 0..m {
                for j in 0..=i {
                    let expected: f64 =
                        (0..r.len()).map(|t| normal.weights[t] * columns.widened(t)[i] * columns.widened(t)[j]).sum();
                    let kept = normal.sum[(i, j)];
                    assert!(
                        (kept - expected).abs() <= 1e-9 * expected.abs().max(1.0),
                        "({i}, {j}): {kept} against {expected}"
                    );
                }
            }
        }
    }
}
