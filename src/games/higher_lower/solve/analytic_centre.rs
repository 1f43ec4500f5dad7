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
use super::options::Method;
use super::restricted_master::RestrictedMaster;
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;
use faer::Mat;
use faer::linalg::matmul::triangular::{BlockStructure, matmul};
use faer::linalg::solvers::Solve;
use std::collections::HashSet;

/// Newton steps per new tree: the centre need not be exact, only central
/// enough that the next tree cuts deep (more steps cost more than they saved).
const NEWTON_STEPS: usize = 2;

/// Fraction of the way to the boundary a Newton step may go.
const STEP_TO_BOUNDARY: f64 = 0.95;

/// Newton decrement below which a full, feasible step ends the re-centring.
const CENTRED: f64 = 1e-2;

/// The smallest power of two below which cold starts are by analytic
/// centres: below 512 the coarse start is faster (127: 0.06 s against
/// 0.13 s), at 511 they are even (docs/history.md, the prototype's figures).
const SMALLEST_POWER: usize = 1024;

/// Whether a cold start of `n` keys is by analytic centres: where N lies
/// within 1/32 below a power of two of at least `SMALLEST_POWER` (993..1023,
/// 1985..2047, ...). Elsewhere the coarse game holds Alice's optimal
/// strategies and its start is cheaper.
pub fn starts_by_analytic_centres(n: usize) -> bool {
    let above = n.next_power_of_two();
    above >= SMALLEST_POWER && n < above && above - n < above / 32
}

/// The trees found so far, one per distinct symmetric column, with the
/// columns as floats for the Newton steps.
struct Cuts {
    trees: Vec<Tree>,
    columns: Vec<Vec<f64>>,
    seen: HashSet<Vec<u16>>,
}

impl Cuts {
    /// Adds `tree`; whether its column was new.
    fn add(&mut self, game: &SymmetricGame, tree: Tree) -> bool {
        let column = game.column(&tree);
        if !self.seen.insert(column.clone()) {
            return false;
        }
        self.columns.push(column.into_iter().map(f64::from).collect());
        self.trees.push(tree);
        true
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
}

impl<'g> AnalyticCentre<'g> {
    fn new(game: &'g SymmetricGame, method: Method) -> Self {
        let m = game.rows();
        let uniform = vec![1.0 / m as f64; m];
        AnalyticCentre {
            game,
            method,
            cuts: Cuts { trees: Vec::new(), columns: Vec::new(), seen: HashSet::new() },
            point: uniform.clone(),
            theta: f64::NEG_INFINITY,
            best: uniform,
            master: RestrictedMaster::new(m, &[]),
            in_master: 0,
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
        for column in &self.cuts.columns[self.in_master..] {
            self.master.add_column(column);
        }
        self.in_master = self.cuts.columns.len();
        let optimum = self.master.solve();
        let total: f64 = optimum.duals.iter().sum();
        let duals: Vec<f64> = optimum.duals.iter().map(|w| w / total).collect();
        self.price_at(&duals);
        1.0 / optimum.objective
    }

    /// Moves `point` toward the analytic centre of {beta >= 0, 1'beta = 1,
    /// S'beta - theta = r >= 0} by infeasible-start Newton steps on
    /// -sum log beta - sum log r, the slacks r restarted at least at half the
    /// smallest positive one (a new cut passes through the old point).
    fn recentre(&mut self) {
        let (m, columns, theta) = (self.point.len(), &self.cuts.columns, self.theta);
        let beta = &mut self.point;
        let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
        let mut r: Vec<f64> = columns.iter().map(|c| dot(c, beta) - theta).collect();
        let smallest = r.iter().copied().filter(|x| *x > 0.0).fold(f64::INFINITY, f64::min);
        let floor = if smallest.is_finite() { (0.5 * smallest).max(1e-9 * theta.abs()) } else { 1e-2 * theta.abs() };
        r.iter_mut().for_each(|x| *x = x.max(floor));
        for _ in 0..NEWTON_STEPS {
            // Residuals of the equations S'beta - r = theta and 1'beta = 1.
            let rp: Vec<f64> = columns.iter().zip(&r).map(|(c, ri)| ri - dot(c, beta) + theta).collect();
            let rq = 1.0 - beta.iter().sum::<f64>();
            // The normal equations: (W W' + diag(1/beta^2)) d = rhs, W = S diag(1/r).
            let w = Mat::<f64>::from_fn(m, columns.len(), |i, t| columns[t][i] / r[t]);
            let mut normal = Mat::<f64>::zeros(m, m);
            matmul(
                normal.as_mut(),
                BlockStructure::TriangularLower,
                faer::Accum::Replace,
                w.as_ref(),
                BlockStructure::Rectangular,
                w.transpose(),
                BlockStructure::Rectangular,
                1.0,
                faer::get_global_parallelism(),
            );
            let mut rhs = Mat::<f64>::zeros(m, 2);
            for i in 0..m {
                normal[(i, i)] += 1.0 / (beta[i] * beta[i]);
                rhs[(i, 0)] = 1.0 / beta[i];
                rhs[(i, 1)] = 1.0;
            }
            for (c, (ri, pi)) in columns.iter().zip(r.iter().zip(&rp)) {
                let coefficient = 1.0 / ri + pi / (ri * ri);
                for (i, s) in c.iter().enumerate() {
                    rhs[(i, 0)] += s * coefficient;
                }
            }
            let Ok(factor) = normal.llt(faer::Side::Lower) else { break };
            let solved = factor.solve(&rhs);
            // The multiplier of 1'beta = 1, then the steps in beta and r.
            let (su, sv): (f64, f64) = (0..m).fold((0.0, 0.0), |(u, v), i| (u + solved[(i, 0)], v + solved[(i, 1)]));
            let nu = (su - rq) / sv;
            let db: Vec<f64> = (0..m).map(|i| solved[(i, 0)] - nu * solved[(i, 1)]).collect();
            let dr: Vec<f64> = columns.iter().zip(&rp).map(|(c, pi)| dot(c, &db) - pi).collect();
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
            // Nor do the duals' tree: no cut moves the centre any more.
            let stalled = !new && accpm.in_master == accpm.cuts.columns.len();
            // Near m = 1024 the master's value is noise at 1e-10..1e-9 of V (its
            // perturbation) and may never come within the tolerance: once the
            // lower bound stops rising, column generation's end rules take over.
            let periodic = iterations % lp_check_every == 0;
            let settled = periodic && accpm.theta - theta_at_check <= tolerance * accpm.theta;
            if periodic {
                theta_at_check = accpm.theta;
            }
            if gap <= tolerance || stalled || settled {
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
    fn the_top_thirty_second_below_a_power_of_two_starts_by_analytic_centres() {
        let chosen: Vec<usize> = (1..=2048).filter(|&n| starts_by_analytic_centres(n)).collect();
        let expected: Vec<usize> = [(992, 1024), (1984, 2048)].iter().flat_map(|&(from, to)| from + 1..to).collect();
        assert_eq!(chosen, expected);
    }
}
