//! The exact primal simplex's long walks. Near N = 2048 a float basis can be
//! worth 1e-10 of V more than the optimum on a nearly degenerate vertex, and
//! the exact simplex then takes hundreds of pivots that each lower V by about
//! 1e-14 (docs/higher-lower.md#what-limits-it-and-the-road-to-2048). A pivot
//! of the walk needs only what its ratio test needs exactly: the entering
//! direction d = B^-1 a (one p-adic solve, its factorisation updated by an
//! eta factor modulo p instead of made afresh) and x_B, updated from d without
//! a solve. The entering tree is priced (`walk_pricing`) from floating-point
//! duals of an explicit inverse updated at each pivot, and enters only if d
//! shows it improving exactly (c_B . d < 1). The exact duals and the exact DP
//! are left to the end of the walk, where they certify the basis or find what
//! the float DP missed.

use super::basis::{factor, value_f64};
use super::float_inverse::FloatInverse;
use super::walk_pricing::{Duals, WalkPricing};
use crate::exact::{ExactSolution, Integer};
use crate::games::higher_lower::solve::BasicVar;
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;

/// Pivots after which the float inverse is rebuilt from the basis: its
/// product-form updates drift, and the duals it gives only choose the
/// entering tree, so a little drift costs nothing but a rebuild is cheap.
const REBUILD_EVERY: u32 = 64;

/// Walks from `basis` (exactly feasible, with exact values `x`) by exact
/// primal pivots whose entering trees the float DP finds, until it finds none
/// that improves exactly or `limit` pivots are reached. Returns the pivots
/// made; `report` hears of each with the basis's value.
pub fn walk(
    game: &SymmetricGame,
    basis: &mut [BasicVar],
    centre: Option<&[f64]>,
    mut x: ExactSolution,
    limit: u32,
    report: &dyn Fn(u32, f64),
) -> Result<u32, String> {
    let mut inverse = FloatInverse::new(game, basis);
    let mut solver = factor(game, basis)?;
    let mut pricing = WalkPricing::new(game, centre);
    let mut pivots = 0;
    while pivots < limit {
        if pivots > 0 && pivots % REBUILD_EVERY == 0 {
            inverse = FloatInverse::new(game, basis);
        }
        let Some(duals) = inverse.as_ref().and_then(|inv| Duals::of(inv, basis)) else { break };
        let improving = |tree: Tree| {
            let column: Vec<i64> = game.column(&tree).into_iter().map(i64::from).collect();
            let d = solver.solve(&column);
            // Improving exactly when c_B . d < 1: trees cost 1, slacks 0.
            let cost: Integer = d
                .numerators
                .iter()
                .zip(basis.iter())
                .filter(|(_, v)| matches!(v, BasicVar::Tree(_)))
                .map(|(n, _)| n)
                .sum();
            (cost < d.denominator).then_some((tree, column, d))
        };
        let smoothed = pricing.smoothed(game, &duals).and_then(improving);
        let Some((tree, column, d)) = smoothed.or_else(|| improving(pricing.at_duals(game, &duals))) else { break };
        let r = leaving(&x, &d);
        x = exchanged(&x, &d, r);
        if let Some(inv) = &mut inverse {
            inv.exchange(r, &d.to_f64s());
        }
        solver.replace_column(r, &column).map_err(|e| format!("a walk's exact pivot: {e}"))?;
        basis[r] = BasicVar::Tree(tree);
        pivots += 1;
        report(pivots, value_f64(basis, &x).unwrap_or(f64::NAN));
    }
    Ok(pivots)
}

/// The ratio test: the smallest x_i / d_i over d_i > 0 (ties: the first position).
fn leaving(x: &ExactSolution, d: &ExactSolution) -> usize {
    (0..x.numerators.len())
        .filter(|&i| d.numerators[i] > 0)
        .min_by(|&i, &j| {
            (&x.numerators[i] * &d.numerators[j]).cmp(&(&x.numerators[j] * &d.numerators[i])).then(i.cmp(&j))
        })
        .expect("the master is bounded: some d_i > 0")
}

/// x after the entering variable (direction d) takes basis position r, with
/// step theta = x_r / d_r: x_i - theta d_i, and theta at r. Over the common
/// denominator Dx D_r the numerators are X_i D_r - X_r D_i and X_r Dd; one
/// gcd pass reduces them.
fn exchanged(x: &ExactSolution, d: &ExactSolution, r: usize) -> ExactSolution {
    let (xr, dr) = (&x.numerators[r], &d.numerators[r]);
    let mut numerators: Vec<Integer> =
        x.numerators.iter().zip(&d.numerators).map(|(xi, di)| xi * dr - xr * di).collect();
    numerators[r] = xr * Integer::from(d.denominator.clone());
    let denominator = &x.denominator * dr.unsigned_abs_ref();
    ExactSolution { numerators, denominator }.reduced()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_updated_values_are_the_solved_ones() {
        // B = [[2, 1], [1, 3]], x = B^-1 1 = (2/5, 1/5); column a = (1, 2) enters.
        let solver = crate::exact::PadicSolver::new(&[vec![2, 1], vec![1, 3]]).unwrap();
        let x = solver.solve(&[1, 1]);
        let d = solver.solve(&[1, 2]);
        let r = leaving(&x, &d);
        let updated = exchanged(&x, &d, r);
        let mut columns = [[2i64, 1], [1, 3]];
        columns[r] = [1, 2];
        let fresh =
            crate::exact::PadicSolver::new(&[vec![columns[0][0], columns[1][0]], vec![columns[0][1], columns[1][1]]])
                .unwrap()
                .solve(&[1, 1]);
        assert_eq!(updated, fresh);
        assert!(updated.numerators.iter().all(|n| *n >= 0));
    }
}
