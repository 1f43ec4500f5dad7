//! Penalties at the end of a turn: the expected penalty U_x of throwing for x
//! after T >= 30, and the terminal cost r(T) of the decision problem for a goal
//! (lambda, mu): penalties received count positive, penalties dealt negative.

use crate::exact::Scalar;

/// The largest x = T - 30 (six sixes).
pub const MAX_X: usize = 6;

/// U_0..U_6: the expected penalty dealt by throwing for x (no choices). The
/// neighbour gets x at once; six dice are thrown, every x is set aside (x
/// each) and the rest rethrown while a throw shows an x; six x's set aside
/// start the same for x + 1 (up to 6). Finite in all, so U_x lies in Z[1/6].
pub fn expected_penalties<S: Scalar>() -> [S; MAX_X + 1] {
    let mut u: Vec<S> = vec![S::zero(); MAX_X + 2]; // u[7] = 0: nothing after x = 6
    for x in (1..=MAX_X).rev() {
        // rest[n]: expected further penalty while throwing n dice for x.
        let mut rest: Vec<S> = vec![S::zero(); 7];
        for n in 1..=6usize {
            let mut sum = S::zero();
            for k in 1..=n {
                // C(n, k) 5^(n-k) of the 6^n outcomes show exactly k x's.
                let ways = binomial(n, k) * 5i64.pow((n - k) as u32);
                let then = if k == n { u[x + 1].clone() } else { rest[n - k].clone() };
                let payoff = S::from_int((k * x) as i64).add(&then);
                sum = sum.add(&S::dice_prob(ways, n as u32).mul(&payoff));
            }
            rest[n] = sum;
        }
        u[x] = S::from_int(x as i64).add(&rest[6]);
    }
    std::array::from_fn(|x| u[x].clone())
}

fn binomial(n: usize, k: usize) -> i64 {
    (0..k).fold(1i64, |acc, i| acc * (n - i) as i64 / (i as i64 + 1))
}

/// A player's goal: lambda weighs penalties dealt against penalties received,
/// mu the penalty for T <= 10 that every opponent receives.
#[derive(Debug, Clone, PartialEq)]
pub struct Goal<S> {
    pub lambda: S,
    pub mu: S,
}

impl<S: Scalar> Goal<S> {
    /// r(T) for the six dice aside with T pips (the thesis's r_6^(lambda, mu)).
    pub fn terminal_cost(&self, pips: u32, u: &[S; MAX_X + 1]) -> S {
        match pips {
            0..=10 => S::zero().sub(&self.mu.mul(&self.lambda).mul(&S::from_int(10))),
            11..=29 => S::from_int(30 - i64::from(pips)),
            _ => S::zero().sub(&self.lambda.mul(&u[pips as usize - 30])),
        }
    }

    /// The cost of a completed street: every opponent receives the pot.
    pub fn street_cost(&self, pot: &S) -> S {
        S::zero().sub(&self.mu.mul(&self.lambda).mul(pot))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{Rational, to_f64};

    #[test]
    fn u_matches_the_thesis_to_its_three_decimals() {
        let u: [Rational; 7] = expected_penalties();
        let printed = [0.0, 2.865, 5.680, 8.496, 11.312, 14.122, 16.606];
        for (x, p) in printed.iter().enumerate() {
            assert!((to_f64(&u[x]) - p).abs() < 0.0005, "U_{x} = {} vs {p}", to_f64(&u[x]));
        }
        // Exact: denominators are powers of six.
        for value in &u {
            let mut d = value.to_denominator();
            for p in [2u32, 3] {
                while &d % malachite::Natural::from(p) == 0u32 {
                    d /= malachite::Natural::from(p);
                }
            }
            assert_eq!(d, 1u32);
        }
        let floats: [f64; 7] = expected_penalties();
        for x in 0..=6 {
            assert!((floats[x] - to_f64(&u[x])).abs() < 1e-12);
        }
    }

    #[test]
    fn u_1_by_simulating_the_rule() {
        // An independent check of the recursion: Monte Carlo of the rule itself.
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let trials = 200_000;
        let mut total = 0u64;
        for _ in 0..trials {
            let mut x = 1u64;
            total += x;
            loop {
                let mut dice = 6;
                let mut all_aside = false;
                loop {
                    let hits = (0..dice).filter(|_| rng.random_range(1..=6u64) == x).count();
                    if hits == 0 {
                        break;
                    }
                    total += hits as u64 * x;
                    dice -= hits;
                    if dice == 0 {
                        all_aside = true;
                        break;
                    }
                }
                if !all_aside || x == 6 {
                    break;
                }
                x += 1;
                total += x;
            }
        }
        let mean = total as f64 / trials as f64;
        let u: [f64; 7] = expected_penalties();
        // The penalty's standard deviation is about 2.2: 5 standard errors is 0.025.
        assert!((mean - u[1]).abs() < 0.025, "simulated {mean} vs {}", u[1]);
    }

    #[test]
    fn terminal_costs_follow_the_three_cases() {
        let u: [f64; 7] = expected_penalties();
        let goal = Goal { lambda: 1.0, mu: 3.0 };
        assert_eq!(goal.terminal_cost(10, &u), -30.0);
        assert_eq!(goal.terminal_cost(11, &u), 19.0);
        assert_eq!(goal.terminal_cost(29, &u), 1.0);
        assert_eq!(goal.terminal_cost(30, &u), 0.0);
        assert_eq!(goal.terminal_cost(36, &u), -u[6]);
        assert_eq!(goal.street_cost(&12.0), -36.0);
    }
}
