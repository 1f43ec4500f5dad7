//! The exact stage's walk in double-double arithmetic, checked exactly at its
//! end. A pivot of the exact walk (`walk`) is one p-adic solve of
//! thousands of digits (0.77 s at m = 994), though the walk's decisions need
//! far fewer: near N = 2048 the steps are about 1e-14 of V, below what f64
//! resolves on these bases but far above double-double's 1e-32. Here x_B and
//! each direction d = B^-1 a are solved to double-double by iterative
//! refinement (exact residuals in 128-bit fixed point, corrections by the
//! float inverse),
//! and the walk pivots until no tree improves by more than `IMPROVING`. The
//! caller solves the final basis exactly; a basis that is not exactly feasible
//! is thrown away and the exact walk runs instead.

use super::float_inverse::FloatInverse;
use super::walk_pricing::{Duals, WalkPricing};
use crate::games::higher_lower::solve::BasicVar;
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;
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

/// A basis column: a slack's unit vector, or S_T.
enum Column {
    Slack(usize),
    Tree(Vec<u16>),
}

/// The basis's columns, integers, for exact residuals b - B y.
struct Columns {
    columns: Vec<Column>,
    /// B's row sums, kept as columns are replaced.
    row_sums: Vec<u64>,
    /// The largest row sum of B: |B y| <= it times the largest |y_k|.
    largest_row_sum: u64,
}

impl Columns {
    fn new(game: &SymmetricGame, basis: &[BasicVar]) -> Self {
        let mut columns =
            Columns { columns: Vec::with_capacity(basis.len()), row_sums: vec![0; game.rows()], largest_row_sum: 1 };
        for var in basis {
            let column = match var {
                BasicVar::Slack(j) => Column::Slack(*j),
                BasicVar::Tree(t) => Column::Tree(game.column(t)),
            };
            add_to_row_sums(&mut columns.row_sums, &column, true);
            columns.columns.push(column);
        }
        columns.largest_row_sum = columns.row_sums.iter().copied().max().unwrap_or(0).max(1);
        columns
    }

    /// Column r becomes S_T.
    fn replace(&mut self, r: usize, column: Vec<u16>) {
        let column = Column::Tree(column);
        add_to_row_sums(&mut self.row_sums, &self.columns[r], false);
        add_to_row_sums(&mut self.row_sums, &column, true);
        self.columns[r] = column;
        self.largest_row_sum = self.row_sums.iter().copied().max().unwrap_or(0).max(1);
    }

    /// b - B y exactly, y in fixed point; no sum overflows while every
    /// |y_k| is within the point's `limit`.
    fn residual(&self, b: &[u16], y: &[i128], point: FixedPoint) -> Vec<i128> {
        let mut r: Vec<i128> = b.iter().map(|&v| i128::from(v) << point.bits).collect();
        for (column, &yk) in self.columns.iter().zip(y) {
            match column {
                Column::Slack(j) => r[*j] -= yk,
                Column::Tree(s) => r.iter_mut().zip(s).for_each(|(ri, &a)| *ri -= i128::from(a) * yk),
            }
        }
        r
    }

    /// B^-1 b by iterative refinement, or `None` if the refinement does not
    /// reach `RESIDUAL` or the fixed point cannot hold the solution.
    fn solve(&self, inverse: &FloatInverse, b: &[u16]) -> Option<Vec<TwoFloat>> {
        let b_float: Vec<f64> = b.iter().map(|&v| f64::from(v)).collect();
        let scale = b_float.iter().fold(0.0f64, |a, v| a.max(*v)).max(f64::MIN_POSITIVE);
        let first = inverse.times(&b_float);
        let largest = first.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        let point = FixedPoint::for_solution(largest, scale, self.largest_row_sum)?;
        let mut y: Vec<i128> = first.iter().map(|&v| point.fixed(v)).collect();
        for step in 0..=REFINEMENTS {
            if y.iter().any(|v| v.unsigned_abs() > point.limit) {
                return None;
            }
            let r: Vec<f64> = self.residual(b, &y, point).into_iter().map(|v| point.to_f64(v)).collect();
            if r.iter().fold(0.0f64, |a, v| a.max(v.abs())) <= RESIDUAL * scale {
                return Some(y.into_iter().map(|v| point.to_two_float(v)).collect());
            }
            if step == REFINEMENTS {
                break;
            }
            for (yi, c) in y.iter_mut().zip(inverse.times(&r)) {
                *yi = yi.saturating_add(point.fixed(c));
            }
        }
        None
    }
}

/// Adds a column's entries to B's row sums (`add`), or takes them away.
fn add_to_row_sums(sums: &mut [u64], column: &Column, add: bool) {
    let change = |sum: &mut u64, a: u64| if add { *sum += a } else { *sum -= a };
    match column {
        Column::Slack(j) => change(&mut sums[*j], 1),
        Column::Tree(s) => sums.iter_mut().zip(s).for_each(|(sum, &a)| change(sum, u64::from(a))),
    }
}

/// Fixed-point numbers y 2^bits in i128, for residuals without rounding:
/// B's entries are small integers, so b - B y is exact in 128 bits, where
/// residuals in double-double (each product and sum an error-free
/// transformation) were a third of the walk's time at m = 250.
#[derive(Clone, Copy)]
struct FixedPoint {
    bits: u32,
    /// The largest |y_k 2^bits| for which no sum of `residual` overflows.
    limit: u128,
}

impl FixedPoint {
    /// Headroom over the float solution's largest entry, for the refinement's corrections.
    const HEADROOM: f64 = 4.0;
    /// Fewest fraction bits that resolve the walk's thresholds (`ZERO` is above 2^-80).
    const FEWEST_BITS: f64 = 90.0;

    /// The most fraction bits that hold solutions up to `largest` (with
    /// headroom) and right-hand sides up to `scale`; `None` below `FEWEST_BITS`.
    fn for_solution(largest: f64, scale: f64, largest_row_sum: u64) -> Option<Self> {
        let reach = (Self::HEADROOM * largest).max(scale) * largest_row_sum as f64;
        let bits = (125.0 - reach.log2().ceil()).min(1000.0);
        // (NaN, from an infinite or NaN reach, fails too.)
        if bits.is_nan() || bits < Self::FEWEST_BITS {
            return None;
        }
        Some(FixedPoint { bits: bits as u32, limit: (1u128 << 125) / u128::from(largest_row_sum) })
    }

    fn fixed(self, v: f64) -> i128 {
        (v * 2f64.powi(self.bits as i32)).round() as i128
    }

    fn to_f64(self, v: i128) -> f64 {
        v as f64 * 2f64.powi(-(self.bits as i32))
    }

    /// The rounded high part, then the rest (exact where |v| < 2^106).
    fn to_two_float(self, v: i128) -> TwoFloat {
        let high = v as f64;
        let rest = v - high as i128;
        let unit = 2f64.powi(-(self.bits as i32));
        TwoFloat::new_add(high * unit, rest as f64 * unit)
    }
}

/// Walks from `basis` by primal pivots in double-double, entering the trees
/// `walk_pricing` finds (smoothed toward `centre`, else at the float duals)
/// while they improve by more than `IMPROVING`, at most `limit` pivots.
/// Returns the pivots made; `report` hears of each with the basis's value.
pub fn walk(
    game: &SymmetricGame,
    basis: &mut [BasicVar],
    centre: Option<&[f64]>,
    limit: u32,
    report: &dyn Fn(u32, f64),
) -> u32 {
    let m = game.rows();
    let mut pricing = WalkPricing::new(game, centre);
    let ones = vec![1u16; m];
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
        let Some(duals) = Duals::of(&inverse, basis) else { break };
        let improving = |tree: Tree| {
            let a = game.column(&tree);
            let d = columns.solve(&inverse, &a)?;
            (gain(&d, basis) > IMPROVING).then_some((tree, a, d))
        };
        let smoothed = pricing.smoothed(game, &duals).and_then(improving);
        let Some((tree, a, d)) = smoothed.or_else(|| improving(pricing.at_duals(game, &duals))) else { break };
        let Some(r) = leaving(&x, &d) else { break };
        let step = if x[r].hi() > 0.0 { x[r] / d[r] } else { TwoFloat::from(0.0) };
        for (xi, di) in x.iter_mut().zip(&d) {
            *xi -= step * *di;
        }
        x[r] = step;
        inverse.exchange(r, &d.iter().map(|v| v.hi() + v.lo()).collect::<Vec<f64>>());
        columns.replace(r, a);
        basis[r] = BasicVar::Tree(tree);
        pivots += 1;
        report(pivots, value(basis, &x));
    }
    pivots
}

/// How much the column with direction `d` improves the master, 1 - c_B . d
/// (trees cost 1, slacks 0).
fn gain(d: &[TwoFloat], basis: &[BasicVar]) -> TwoFloat {
    let cost = d.iter().zip(basis).filter(|(_, v)| matches!(v, BasicVar::Tree(_))).map(|(di, _)| *di);
    TwoFloat::from(1.0) - cost.fold(TwoFloat::from(0.0), |s, di| s + di)
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
