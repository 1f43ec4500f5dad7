//! The article's value iteration, with its two-step jump for a two-dice defence:
//!
//! V_1(s) = c1(s),  V_{n}(s) = min{ c1(s) + E V_{n-1},  c2(s) + E V_{n-2} }  (n >= 2),
//!
//! where E V_t = sum_r u(r) V_t(r) over the attack rolls r. V_n(s) is the
//! least expected loss while committing n armies, given the current roll s,
//! and E V_n / n tends to the optimal loss per army. Generic over the scalar
//! so that sweeps run in f64 and verification in exact arithmetic.

use super::long_run::RollCosts;
use crate::exact::Scalar;

/// One horizon n of the iteration.
#[derive(Debug, Clone)]
pub struct Step<S> {
    pub n: u32,
    /// V_n(s) for the 21 rolls.
    pub values: Vec<S>,
    /// Optimal dice per roll (1 at n = 1, where two dice would exceed the horizon).
    pub dice: Vec<u8>,
    /// (c2 + E V_{n-2}) - (c1 + E V_{n-1}) per roll: negative means two dice;
    /// `None` at n = 1.
    pub margins: Option<Vec<S>>,
    /// E V_n: expected loss over the next roll.
    pub expected: S,
}

/// Runs the iteration for n = 1..=horizon. Ties go to one die.
pub fn value_iteration<S: Scalar>(costs: &[RollCosts], horizon: u32) -> Vec<Step<S>> {
    let prob: Vec<S> = costs.iter().map(|c| S::dice_prob(c.count as i64, 3)).collect();
    let c1: Vec<S> = costs.iter().map(|c| S::dice_prob(c.loss_one as i64, 1)).collect();
    let c2: Vec<S> = costs.iter().map(|c| S::dice_prob(c.loss_two as i64, 2)).collect();
    let expectation = |values: &[S]| values.iter().zip(&prob).fold(S::zero(), |sum, (v, p)| sum.add(&v.mul(p)));

    let mut steps: Vec<Step<S>> = Vec::with_capacity(horizon as usize);
    let (mut e_prev, mut e_prev2) = (S::zero(), S::zero()); // E V_{n-1}, E V_{n-2}
    for n in 1..=horizon {
        let (values, dice, margins) = if n == 1 {
            (c1.clone(), vec![1; costs.len()], None)
        } else {
            let mut values = Vec::with_capacity(costs.len());
            let mut dice = Vec::with_capacity(costs.len());
            let mut margins = Vec::with_capacity(costs.len());
            for (one, two) in c1.iter().zip(&c2) {
                let with_one = one.add(&e_prev);
                let with_two = two.add(&e_prev2);
                let margin = with_two.sub(&with_one);
                if margin < S::zero() {
                    values.push(with_two);
                    dice.push(2);
                } else {
                    values.push(with_one);
                    dice.push(1);
                }
                margins.push(margin);
            }
            (values, dice, Some(margins))
        };
        let expected = expectation(&values);
        e_prev2 = std::mem::replace(&mut e_prev, expected.clone());
        steps.push(Step { n, values, dice, margins, expected });
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{DiceRational, Rational, to_f64};
    use crate::games::risk::dice::Roll;
    use crate::games::risk::long_run::{optimum, roll_costs};

    #[test]
    fn converges_to_the_article_policy_and_loss() {
        let costs = roll_costs();
        let steps = value_iteration::<f64>(&costs, 200);
        let (last, before) = (&steps[199], &steps[198]);
        // The loss of the n-th army converges geometrically to the optimal loss per army.
        assert_eq!(format!("{:.6}", last.expected - before.expected), "0.499743");
        for (roll, dice) in Roll::pairs().zip(&last.dice) {
            assert_eq!(*dice, if roll.y <= 3 { 2 } else { 1 }, "roll {roll:?}");
        }
        // The average E V_n / n gets there too, with a bias of order 1/n.
        let g = to_f64(&optimum(&costs).loss);
        let average = last.expected / 200.0;
        assert!(average > g && average - g < 0.1 / 200.0, "{average}");
    }

    #[test]
    fn exact_iteration_approaches_the_exact_limit() {
        let costs = roll_costs();
        let g = optimum(&costs).loss;
        let steps = value_iteration::<DiceRational>(&costs, 300);
        // E V_n - n g is bounded (the bias), so E V_n / n - g shrinks like 1/n.
        let gaps: Vec<f64> = [100usize, 200, 300]
            .iter()
            .map(|&n| {
                let e = steps[n - 1].expected.to_rational();
                to_f64(&(e / Rational::from(n as u32) - &g)).abs()
            })
            .collect();
        assert!(gaps[0] < 1e-3 && gaps[1] < gaps[0] && gaps[2] < gaps[1], "{gaps:?}");
    }

    #[test]
    fn float_and_exact_agree() {
        let costs = roll_costs();
        let float = value_iteration::<f64>(&costs, 60);
        let exact = value_iteration::<Rational>(&costs, 60);
        for (f, e) in float.iter().zip(&exact) {
            assert_eq!(f.dice, e.dice, "n = {}", f.n);
            assert!((f.expected - to_f64(&e.expected)).abs() < 1e-12);
        }
    }
}
