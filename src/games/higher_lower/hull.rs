//! The affine hull of Alice's optimal strategies, from an optimal mixture of
//! Bob's: by complementary slackness every optimal alpha vanishes off the
//! keys Bob holds to exactly V and costs exactly V against every tree of his
//! support. `OptimalFace` gives its dimension and exact directions.

use crate::exact::{ExactSolution, Integer, Natural, PadicSolver, Pivots, Rational, ScaledVector, pivots_mod_p};
use crate::games::higher_lower::mixture::Mixture;
use crate::games::higher_lower::tree::Tree;
use malachite::base::num::arithmetic::traits::{AddMulAssign, Lcm};
use malachite::base::num::basic::traits::Zero;
use rayon::prelude::*;
use std::cell::OnceCell;

/// The complementary-slackness equations on Alice's optimal strategies over
/// the tight keys K: one row d_T (on K) per tree T in Bob's support, then a
/// row of ones. Every optimal alpha vanishes off K and satisfies
/// rows . alpha = (V, ..., V, 1).
fn slackness_equations<'t>(tight: &[usize], support: impl IntoIterator<Item = &'t Tree>) -> Vec<Vec<i64>> {
    let mut rows: Vec<Vec<i64>> =
        support.into_iter().map(|t| tight.iter().map(|&k| i64::from(t.depths()[k])).collect()).collect();
    rows.push(vec![1; tight.len()]);
    rows
}

/// Whether Alice's optimal strategy is unique (by `rank_mod_p`, independently
/// of `OptimalFace`), given an optimal mixture of Bob's and the value. Every
/// optimal alpha vanishes off the keys Bob holds to exactly V and satisfies
/// alpha . d_T = V on Bob's support (complementary slackness), so alpha is
/// unique when those equations and sum(alpha) = 1 have full rank on the tight
/// keys. The rank is taken modulo a prime, a lower bound on the rational rank:
/// `true` is a proof, `false` means unproven.
#[cfg(test)]
pub fn alice_unique(value: &Rational, bob: &Mixture) -> bool {
    let tight = bob.tight_keys(value);
    !tight.is_empty() && crate::exact::rank_mod_p(&slackness_equations(&tight, bob.support())) == tight.len()
}

impl std::fmt::Debug for OptimalFace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OptimalFace").field("n", &self.n).field("dimension", &self.dimension()).finish()
    }
}

/// The affine hull of Alice's optimal strategies, from Bob's optimal
/// mixture: every optimal alpha lies in {alpha = 0 off K, M alpha = b} of
/// [`slackness_equations`] (b = (V, ..., V, 1)). Its pivots modulo a prime
/// (pivot rows I and columns J of M, M[I, J] nonsingular) give its dimension
/// (a proven upper bound: the rank modulo p is a lower bound on the rank)
/// and, by p-adic lifting on M[I, J], exact directions (`directions`).
pub struct OptimalFace {
    /// Keys of the game.
    n: usize,
    /// The tight keys K (0-based).
    tight: Vec<usize>,
    /// M: the support trees' depths on K, then ones.
    rows: Vec<Vec<i64>>,
    pivots: Pivots,
    /// M[I, J] factored, on first use; `None` when the exact solver refuses it.
    solver: OnceCell<Option<PadicSolver>>,
}

impl OptimalFace {
    /// The face's equations from V and an optimal mixture of Bob's.
    pub fn new(value: &Rational, bob: &Mixture) -> Self {
        let n = bob.first().map_or(0, |(t, _)| t.len());
        OptimalFace::from_parts(n, bob.tight_keys(value), bob.support())
    }

    /// The face's equations from the tight keys K and the support of an
    /// optimal mixture of Bob's on n keys: for a mean of optimal mixtures, the
    /// keys tight in all and the union of their supports, without the mean's
    /// large common denominator.
    pub fn from_parts<'t>(n: usize, tight: Vec<usize>, support: impl IntoIterator<Item = &'t Tree>) -> Self {
        let rows = slackness_equations(&tight, support);
        let pivots = pivots_mod_p(&rows);
        OptimalFace { n, tight, rows, pivots, solver: OnceCell::new() }
    }

    /// The tight keys K and M, for tests that build other optimal points.
    #[cfg(test)]
    pub fn equations(&self) -> (&[usize], &[Vec<i64>]) {
        (&self.tight, &self.rows)
    }

    /// A basis of the directions of the face's affine hull {alpha = 0 off K,
    /// M alpha = b}, over all keys: one exact null vector z of M per non-pivot
    /// tight key c, with z_c = 1, zero on the other non-pivot keys, and
    /// M[I, J] z_J = -M[I, c] on the pivots. Each z is checked against every
    /// row of M in exact arithmetic, so with the rank modulo p (a lower bound)
    /// the vectors are proven to span the whole null space. `Err` when a
    /// check fails (the rank modulo p was lower than over the rationals).
    pub fn directions(&self) -> Result<Vec<ScaledVector>, String> {
        if self.single_point() {
            return Ok(Vec::new());
        }
        let solver = self.pivot_solver().ok_or("the pivot submatrix of the face's equations is singular")?;
        let free: Vec<usize> = (0..self.tight.len()).filter(|c| !self.pivots.cols.contains(c)).collect();
        let (n, tight, rows, pivots) = (self.n, &self.tight, &self.rows, &self.pivots);
        // One p-adic solve per direction: the first alone, the others (idle threads take some)
        // seeded with its denominator: every direction's divides det M[I, J] (Cramer's rule), and
        // the first one's is det M[I, J] or a small factor short of it.
        let direction = |&c: &usize, denominator: Option<&Natural>| -> Result<ScaledVector, String> {
            let rhs: Vec<i64> = pivots.rows.iter().map(|&i| -rows[i][c]).collect();
            let x = match (solver, denominator) {
                (Some(solver), Some(d)) => solver.solve_with_denominator(&rhs, d),
                (Some(solver), None) => solver.solve(&rhs),
                (None, _) => ExactSolution { numerators: Vec::new(), denominator: Natural::from(1u32) },
            };
            // z over K scaled by x's denominator, checked against every row.
            let mut z = vec![Integer::ZERO; tight.len()];
            z[c] = Integer::from(x.denominator.clone());
            for (&j, v) in pivots.cols.iter().zip(&x.numerators) {
                z[j] = v.clone();
            }
            for row in rows {
                let mut sum = Integer::ZERO;
                for (&m, v) in row.iter().zip(&z) {
                    sum.add_mul_assign(Integer::from(m), v);
                }
                if sum != 0 {
                    return Err(format!("a direction of the optimal face is no null vector (key {})", tight[c] + 1));
                }
            }
            let mut numerators = vec![Integer::ZERO; n];
            for (&k, v) in tight.iter().zip(z) {
                numerators[k] = v;
            }
            Ok(ScaledVector { numerators, denominator: Integer::from(x.denominator) })
        };
        let Some((c0, others)) = free.split_first() else { return Ok(Vec::new()) };
        let first = direction(c0, None)?;
        let d = Natural::try_from(first.denominator.clone()).expect("a positive denominator");
        let rest: Result<Vec<ScaledVector>, String> =
            others.par_iter().with_max_len(1).map(|c| direction(c, Some(&d))).collect();
        Ok(std::iter::once(first).chain(rest?).collect())
    }

    /// M[I, J] factored (`Some(None)` when there are no pivots); `None` when the exact solver refuses it.
    fn pivot_solver(&self) -> Option<Option<&PadicSolver>> {
        if self.pivots.rows.is_empty() {
            return Some(None);
        }
        self.solver
            .get_or_init(|| {
                let square: Vec<Vec<i64>> = self
                    .pivots
                    .rows
                    .iter()
                    .map(|&i| self.pivots.cols.iter().map(|&j| self.rows[i][j]).collect())
                    .collect();
                PadicSolver::new(&square).ok()
            })
            .as_ref()
            .map(Some)
    }

    /// Weights w on M's rows (Bob's support trees in order, then the row of
    /// ones) with w'M = sum_i c_i v_i on the pivot keys J, for integer vectors
    /// v_i over all n keys and rational weights c_i: one transposed solve of
    /// M[I, J] (rows off I weigh 0). Where sum c_i v_i lies in M's row space,
    /// w'M equals it on every tight key. `None` when the exact solver refuses M[I, J].
    ///
    /// The c_i are the face LPs' multipliers, with denominators of thousands
    /// of bits near N = 1000: the sum is solved once, scaled to integers by the
    /// c_i's common denominator, where a word-sized solve per part and the sum
    /// of their reduced fractions were most of the face stage
    /// (docs/history.md#d0f5778-the-pinnings-row-weights-in-one-solve).
    pub fn row_weights(&self, parts: &[(Vec<i64>, Rational)]) -> Option<Vec<Rational>> {
        let mut w = vec![Rational::ZERO; self.rows.len()];
        let Some(solver) = self.pivot_solver()? else { return Some(w) };
        let common = parts.iter().fold(Natural::from(1u32), |l, (_, c)| l.lcm(c.denominator_ref()));
        let mut rhs = vec![Integer::ZERO; self.pivots.cols.len()];
        for (v, c) in parts {
            let scale = Integer::from_sign_and_abs(*c >= 0u32, c.numerator_ref() * (&common / c.denominator_ref()));
            for (r, &j) in rhs.iter_mut().zip(&self.pivots.cols) {
                let x = v[self.tight[j]];
                if x != 0 {
                    r.add_mul_assign(&scale, Integer::from(x));
                }
            }
        }
        let x = solver.solve_transposed_integer(&rhs);
        let denominator = Integer::from(x.denominator) * Integer::from(common);
        for (&i, numerator) in self.pivots.rows.iter().zip(x.numerators) {
            w[i] = Rational::from_integers(numerator, denominator.clone());
        }
        Some(w)
    }

    /// The tight keys K (0-based): those Bob's mixture holds to exactly V.
    pub fn tight_keys(&self) -> &[usize] {
        &self.tight
    }

    /// Dimension of the hull (a proven upper bound on the face's, see `OptimalFace`).
    pub fn dimension(&self) -> usize {
        self.tight.len() - self.pivots.cols.len()
    }

    /// Proven: the equations pin alpha down to one point.
    pub fn single_point(&self) -> bool {
        !self.tight.is_empty() && self.pivots.rows.len() == self.tight.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(p: i64, d: i64) -> Rational {
        Rational::from_signeds(p, d)
    }

    fn tree(d: &[u8]) -> Tree {
        Tree::from_depths(d.to_vec()).unwrap()
    }

    #[test]
    fn uniqueness_of_alice() {
        // N = 3: Bob's mixture pins alpha down uniquely.
        let bob =
            Mixture::new(vec![(tree(&[2, 1, 2]), q(3, 5)), (tree(&[1, 3, 2]), q(1, 5)), (tree(&[2, 3, 1]), q(1, 5))]);
        assert!(alice_unique(&q(9, 5), &bob));
        // N = 4: V = 2 with Bob mixing (1,3,2,3) and its mirror; every alpha in
        // the optimal face [x1 in 1/4..3/8] of the seed's example is optimal.
        let bob4 = Mixture::new(vec![(tree(&[2, 1, 3, 2]), q(1, 2)), (tree(&[2, 3, 1, 2]), q(1, 2))]);
        assert!(!alice_unique(&q(2, 1), &bob4));
    }

    #[test]
    fn directions_of_the_optimal_face() {
        // N = 3: Bob's mixture pins alpha down; no directions.
        let bob =
            Mixture::new(vec![(tree(&[2, 1, 2]), q(3, 5)), (tree(&[1, 3, 2]), q(1, 5)), (tree(&[2, 3, 1]), q(1, 5))]);
        assert_eq!(OptimalFace::new(&q(9, 5), &bob).directions().unwrap().len(), 0);
        // N = 4 (the seed's example): all keys tight, rows (2,1,3,2), (2,3,1,2),
        // (1,1,1,1) of rank 2: a plane of directions, each an exact null vector
        // with a key of its own.
        let bob4 = Mixture::new(vec![(tree(&[2, 1, 3, 2]), q(1, 2)), (tree(&[2, 3, 1, 2]), q(1, 2))]);
        let face = OptimalFace::new(&q(2, 1), &bob4);
        assert!(!face.single_point());
        let directions: Vec<Vec<Rational>> = face.directions().unwrap().iter().map(|z| z.to_rationals()).collect();
        assert_eq!(directions.len(), 2);
        for z in &directions {
            for row in [[2, 1, 3, 2], [2, 3, 1, 2], [1, 1, 1, 1]] {
                let dot: Rational = row.iter().zip(z).map(|(&m, v)| Rational::from(m) * v).sum();
                assert_eq!(dot, 0u32, "{z:?}");
            }
        }
        // The free keys (3 and 4 here): each direction is 1 on its own and 0 on the other's.
        assert_eq!((&directions[0][2], &directions[0][3]), (&Rational::from(1), &Rational::from(0)));
        assert_eq!((&directions[1][2], &directions[1][3]), (&Rational::from(0), &Rational::from(1)));
    }
}
