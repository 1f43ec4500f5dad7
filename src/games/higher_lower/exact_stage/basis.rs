//! A basis of Bob's master in exact arithmetic: the matrix factored, and
//! Bob's mixture from its primal values (shared by the exact stage and `widen`).

use crate::exact::{ExactSolution, Integer, PadicSolver, Rational, to_f64};
use crate::games::higher_lower::mixture::Mixture;
use crate::games::higher_lower::solve::BasicVar;
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;
use std::collections::BTreeMap;

/// The basis matrix B (tree columns S_T, slack unit vectors), factored exactly.
pub fn factor(game: &SymmetricGame, basis: &[BasicVar]) -> Result<PadicSolver, String> {
    let m = game.rows();
    let mut matrix = vec![vec![0i64; m]; m];
    for (k, var) in basis.iter().enumerate() {
        match var {
            BasicVar::Slack(j) => matrix[*j][k] = 1,
            BasicVar::Tree(t) => {
                for (i, s) in game.column(t).into_iter().enumerate() {
                    matrix[i][k] = i64::from(s);
                }
            }
        }
    }
    PadicSolver::new(&matrix).map_err(|e| format!("the float basis is not invertible: {e}"))
}

/// The sum of the trees' primal values x_B (numerators over x's denominator):
/// V = denominator / (2 sum).
pub fn trees_total(basis: &[BasicVar], x: &ExactSolution) -> Integer {
    x.numerators.iter().zip(basis).filter(|(_, v)| matches!(v, BasicVar::Tree(_))).map(|(x, _)| x).sum()
}

/// The basis's value V = 1 / (2 sum x) as a float, for progress notes
/// (`None` where sum x is 0, as in a basis of slacks alone).
pub fn value_f64(basis: &[BasicVar], x: &ExactSolution) -> Option<f64> {
    let total_x = trees_total(basis, x);
    let denominator = Integer::from(&x.denominator);
    (total_x != 0).then(|| to_f64(&Rational::from_integers(denominator, total_x * Integer::from(2))))
}

/// Bob's mixture of a primal solution x_B >= 0 of S x <= 1 (x over the basis,
/// over `denominator`), with V_S = 1 / sum(x) and V = V_S / 2: each symmetric
/// tree's weight split evenly between the tree and its mirror.
pub fn bob_mixture(basis: &[BasicVar], x: &ExactSolution) -> (Rational, Mixture) {
    let total_x = trees_total(basis, x);
    let value = Rational::from_integers(Integer::from(x.denominator.clone()), total_x.clone() * Integer::from(2));
    let mut bob: BTreeMap<Tree, Rational> = BTreeMap::new();
    for (x, var) in x.numerators.iter().zip(basis) {
        if let BasicVar::Tree(t) = var
            && *x > 0
        {
            let y = Rational::from_integers(x.clone(), total_x.clone());
            let mirror = t.mirror();
            if mirror == *t {
                *bob.entry(t.clone()).or_insert_with(|| Rational::from(0u32)) += y;
            } else {
                let half = y / Rational::from(2u32);
                *bob.entry(t.clone()).or_insert_with(|| Rational::from(0u32)) += &half;
                *bob.entry(mirror).or_insert_with(|| Rational::from(0u32)) += half;
            }
        }
    }
    (value, bob.into_iter().collect())
}
