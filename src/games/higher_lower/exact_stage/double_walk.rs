//! The exact stage's walk in double-double arithmetic, checked exactly at its
//! end. A pivot of the exact walk (`walk`) is one p-adic solve of
//! thousands of digits (0.77 s at m = 994), though the walk's decisions need
//! far fewer: near N = 2048 the steps are about 1e-14 of V, below what f64
//! resolves on these bases but far above double-double's 1e-32. Here x_B and
//! each direction d = B^-1 a are solved in double-double by iterative
//! refinement (residuals in double-double, corrections by the float inverse),
//! and the walk pivots until no tree improves by more than `IMPROVING`. The
//! caller solves the final basis exactly; a basis that is not exactly feasible
//! is thrown away and the exact walk runs instead.

use super::float_inverse::FloatInverse;
use crate::games::higher_lower::solve::BasicVar;
use crate::games::higher_lower::symmetric::SymmetricGame;
use twofloat::TwoFloat;

/// Refinement steps of a solve at most; each gains the digits f64 resolves
/// on the basis, so two reach double-double on any basis f64 can invert.
const REFINEMENTS: usize = 4;
/// A solve is accepted when its residual is at most this, relative to the
/// right-hand side's largest entry.
const RESIDUAL: f64 = 1e-26;
/// A tree enters when 1 - c_B . d exceeds this: reduced costs of rounding
/// in double-double are far below it, the trees of the walks near 2048
/// improve by 1e-9 and more.
const IMPROVING: f64 = 1e-20;
/// Entries of d at most this fraction of its largest do not block the step.
const ZERO: f64 = 1e-24;
/// Pivots after which the float inverse is rebuilt and x_B solved afresh.
const REBUILD_EVERY: u32 = 64;

/// The basis as float columns, for the residuals B y.
struct Columns {
    columns: Vec<Vec<f64>>,
}

impl Columns {
    fn new(game: &SymmetricGame, basis: &[BasicVar]) -> Self {
        Columns { columns: basis.iter().map(|v| column(game, v)).collect() }
    }

    /// b - B y, in double-double.
    fn residual(&self, b: &[f64], y: &[TwoFloat]) -> Vec<TwoFloat> {
        let mut r: Vec<TwoFloat> = b.iter().map(|&v| TwoFloat::from(v)).collect();
        for (column, yk) in self.columns.iter().zip(y) {
            for (ri, &a) in r.iter_mut().zip(column) {
                if a != 0.0 {
                    *ri -= *yk * a;
                }
            }
        }
        r
    }

    /// B^-1 b in double-double, or `None` if the refinement does not reach `RESIDUAL`.
    fn solve(&self, inverse: &FloatInverse, b: &[f64]) -> Option<Vec<TwoFloat>> {
        let scale = b.iter().fold(0.0f64, |a, v| a.max(v.abs())).max(f64::MIN_POSITIVE);
        let mut y: Vec<TwoFloat> = inverse.times(b).into_iter().map(TwoFloat::from).collect();
        for step in 0..=REFINEMENTS {
            let r = self.residual(b, &y);
            let largest = r.iter().fold(0.0f64, |a, v| a.max(v.hi().abs()));
            if largest <= RESIDUAL * scale {
                return Some(y);
            }
            if step == REFINEMENTS {
                break;
            }
            let high: Vec<f64> = r.iter().map(|v| v.hi() + v.lo()).collect();
            for (yi, c) in y.iter_mut().zip(inverse.times(&high)) {
                *yi += c;
            }
        }
        None
    }
}

/// A basis variable's column: S_T, or a unit vector for a slack.
fn column(game: &SymmetricGame, var: &BasicVar) -> Vec<f64> {
    match var {
        BasicVar::Tree(t) => game.float_column(t),
        BasicVar::Slack(j) => (0..game.rows()).map(|i| f64::from(u8::from(i == *j))).collect(),
    }
}

/// Walks from `basis` by primal pivots in double-double, entering Bob's best
/// tree against the float duals while it improves by more than `IMPROVING`,
/// at most `limit` pivots. Returns the pivots made; `report` hears of each
/// with the basis's value.
pub fn walk(game: &SymmetricGame, basis: &mut [BasicVar], limit: u32, report: &dyn Fn(u32, f64)) -> u32 {
    let m = game.rows();
    let ones = vec![1.0; m];
    let mut columns = Columns::new(game, basis);
    let Some(mut inverse) = FloatInverse::new(game, basis) else { return 0 };
    let Some(mut x) = columns.solve(&inverse, &ones) else { return 0 };
    let mut pivots = 0;
    while pivots < limit {
        if pivots > 0 && pivots % REBUILD_EVERY == 0 {
            let Some(fresh) = FloatInverse::new(game, basis) else { break };
            inverse = fresh;
            let Some(fresh) = columns.solve(&inverse, &ones) else { break };
            x = fresh;
        }
        let Some(tree) = inverse.best_tree(game, basis) else { break };
        let a = game.float_column(&tree);
        let Some(d) = columns.solve(&inverse, &a) else { break };
        let cost = d.iter().zip(basis.iter()).filter(|(_, v)| matches!(v, BasicVar::Tree(_))).map(|(di, _)| *di);
        let gain = TwoFloat::from(1.0) - cost.fold(TwoFloat::from(0.0), |s, di| s + di);
        if gain.hi() <= IMPROVING {
            break;
        }
        let Some(r) = leaving(&x, &d) else { break };
        let step = if x[r].hi() > 0.0 { x[r] / d[r] } else { TwoFloat::from(0.0) };
        for (xi, di) in x.iter_mut().zip(&d) {
            *xi -= step * *di;
        }
        x[r] = step;
        inverse.exchange(r, &d.iter().map(|v| v.hi() + v.lo()).collect::<Vec<f64>>());
        columns.columns[r] = a;
        basis[r] = BasicVar::Tree(tree);
        pivots += 1;
        report(pivots, value(basis, &x));
    }
    pivots
}

/// The ratio test: the smallest x_i / d_i over d_i above `ZERO` (ties: the first position).
fn leaving(x: &[TwoFloat], d: &[TwoFloat]) -> Option<usize> {
    let largest = d.iter().fold(0.0f64, |a, v| a.max(v.hi().abs()));
    let zero = ZERO * largest;
    let ratio = |i: usize| if x[i].hi() > 0.0 { x[i] / d[i] } else { TwoFloat::from(0.0) };
    (0..x.len()).filter(|&i| d[i].hi() > zero).min_by(|&i, &j| ratio(i).partial_cmp(&ratio(j)).unwrap().then(i.cmp(&j)))
}

/// V of the basis, 1 / (2 sum of the trees' x).
fn value(basis: &[BasicVar], x: &[TwoFloat]) -> f64 {
    let total: f64 = x.iter().zip(basis).filter(|(_, v)| matches!(v, BasicVar::Tree(_))).map(|(xi, _)| xi.hi()).sum();
    1.0 / (2.0 * total)
}
