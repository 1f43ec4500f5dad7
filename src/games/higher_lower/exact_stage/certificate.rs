//! The exact certificate of a value V(N): Alice's strategy alpha and Bob's
//! mixture y over trees such that, in exact rational arithmetic,
//!
//! 1. alpha >= 0, sum alpha = 1, and the best tree against alpha has expected
//!    depth exactly V (so Alice guarantees at least V), and
//! 2. y >= 0, sum y = 1, every tree is a valid BST, and the largest expected
//!    number of guesses over the keys, max_k sum_T y_T d_T(k), is exactly V
//!    (so Bob guarantees at most V).
//!
//! Together they prove V(N) = V. The check runs in the full game (no symmetry
//! assumed); the best tree against alpha comes from the O(N^2) DP on integer
//! weights (alpha times its common denominator).

use crate::exact::{Integer, Rational, common_denominator};
use crate::games::higher_lower::mixture::Mixture;
use crate::games::higher_lower::pricing::monotone_root_dp;
use crate::games::higher_lower::tree::Tree;

/// What a successful check established.
#[derive(Debug, Clone, PartialEq)]
pub struct Certificate {
    pub value: Rational,
    /// Keys Alice plays with positive probability.
    pub alice_support: usize,
    /// Trees Bob plays with positive probability.
    pub bob_support: usize,
    /// The most guesses any tree of Bob's mixture needs (Table 3.1 of the seed).
    pub bob_max_guesses: u8,
    /// A best response of Bob to alpha (attains V).
    pub best_response: Tree,
}

/// Checks both halves of the certificate; returns why it fails otherwise.
pub fn certify(value: &Rational, alpha: &[Rational], bob: &Mixture) -> Result<Certificate, String> {
    let (alice_bound, best) = best_response(alpha)?;
    if alice_bound != *value {
        return Err(format!("the best tree against alpha costs {alice_bound}, not {value}"));
    }
    with_best_response(value, alpha, best, bob)
}

/// Alice's half: alpha is a distribution, and what her guarantee is: the
/// cost of Bob's best tree against it (with that tree), from the O(N^2) DP on
/// integer weights. The exact stage runs it once per basis, to price and to
/// certify (one DP on weights of hundreds of digits is a large part of the
/// exact stage near N = 1024; docs/history.md#126fcb2-one-exact-dp-per-basis).
pub fn best_response(alpha: &[Rational]) -> Result<(Rational, Tree), String> {
    if alpha.is_empty() {
        return Err("empty strategy".into());
    }
    if alpha.iter().any(|a| *a < 0u32) {
        return Err("alpha has a negative entry".into());
    }
    if alpha.iter().sum::<Rational>() != 1u32 {
        return Err("alpha does not sum to 1".into());
    }
    let (weights, scale) = common_denominator(alpha);
    let best = monotone_root_dp(&weights);
    Ok((Rational::from_integers(best.cost, Integer::from(scale)), best.tree))
}

/// The certificate given Alice's half already checked: `best` is a best
/// response to `alpha` that costs exactly `value` (see `best_response`).
pub fn with_best_response(
    value: &Rational,
    alpha: &[Rational],
    best: Tree,
    bob: &Mixture,
) -> Result<Certificate, String> {
    bob.holds(value, alpha.len())?;
    Ok(Certificate {
        value: value.clone(),
        alice_support: alpha.iter().filter(|a| **a > 0u32).count(),
        bob_support: bob.support().count(),
        bob_max_guesses: bob.support().map(Tree::height).max().unwrap_or(0),
        best_response: best,
    })
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
    fn certifies_n3() {
        // V(3) = 9/5: Alice (2/5, 1/5, 2/5); Bob mixes the balanced tree (3/5) and the
        // two trees rooted at an end with the other end at depth 2 (1/5 each).
        let alpha = [q(2, 5), q(1, 5), q(2, 5)];
        let bob =
            Mixture::new(vec![(tree(&[2, 1, 2]), q(3, 5)), (tree(&[1, 3, 2]), q(1, 5)), (tree(&[2, 3, 1]), q(1, 5))]);
        let cert = certify(&q(9, 5), &alpha, &bob).unwrap();
        assert_eq!((cert.alice_support, cert.bob_support, cert.bob_max_guesses), (3, 3, 3));
    }

    #[test]
    fn rejects_wrong_values_and_strategies() {
        let alpha = [q(2, 5), q(1, 5), q(2, 5)];
        let bob =
            Mixture::new(vec![(tree(&[2, 1, 2]), q(3, 5)), (tree(&[1, 3, 2]), q(1, 5)), (tree(&[2, 3, 1]), q(1, 5))]);
        assert!(certify(&q(2, 1), &alpha, &bob).unwrap_err().contains("best tree"));
        let uniform = [q(1, 3), q(1, 3), q(1, 3)];
        assert!(certify(&q(9, 5), &uniform, &bob).is_err());
        let lopsided = Mixture::new(vec![(tree(&[2, 1, 2]), q(1, 2)), (tree(&[1, 3, 2]), q(1, 2))]);
        assert!(certify(&q(9, 5), &alpha, &lopsided).unwrap_err().contains("Bob's mixture lets Alice get"));
        let negative = [q(3, 5), q(-1, 5), q(3, 5)];
        assert!(certify(&q(9, 5), &negative, &bob).is_err());
    }
}
