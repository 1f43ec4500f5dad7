//! What one setting (lambda, mu, street pot R) yields: the optimal play's
//! expected cost and outcome probabilities, every first throw's decision
//! between a normal turn and a street, and the pots at which a first throw
//! switches to the street.

use super::dice::{DICE, Dice};
use super::dp::{Solution, evaluate, resolve_street, solve};
use super::model::Model;
use super::penalty::{Goal, MAX_X};
use crate::exact::{Rational, to_f64};
use crate::grid::format_decimal;

/// One point of a sweep: a goal and a street pot, exact as configured.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    pub lambda: Rational,
    pub mu: Rational,
    pub pot: Rational,
}

impl Setting {
    pub fn goal(&self) -> Goal<f64> {
        Goal { lambda: to_f64(&self.lambda), mu: to_f64(&self.mu) }
    }

    /// "lambda=1, mu=1.5, R=12".
    pub fn label(&self) -> String {
        format!(
            "lambda={}, mu={}, R={}",
            format_decimal(&self.lambda),
            format_decimal(&self.mu),
            format_decimal(&self.pot)
        )
    }
}

/// Per-setting results of optimal play with the street option.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Expected cost of a turn (the objective: penalties dealt count negative).
    pub expected_cost: f64,
    /// The same without the street option.
    pub expected_cost_no_street: f64,
    /// P(T <= 10), P(T >= 30), P(no own penalty) and P(a completed street).
    pub p_low: f64,
    pub p_high: f64,
    pub p_no_own_penalty: f64,
    pub p_street: f64,
    /// First throws for which the street is optimal.
    pub street_first_throws: u32,
}

/// One of the 462 first throws.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstThrow {
    pub throw: Dice,
    /// Its probability, count / 6^6.
    pub count: u32,
    pub best_normal: Dice,
    /// V0: expected cost of the best normal action.
    pub normal_value: f64,
    pub best_street: Dice,
    /// W0: expected cost of the best street action.
    pub street_value: f64,
    /// W0 < V0.
    pub go_street: bool,
}

impl FirstThrow {
    /// W0 - V0: negative where the street is better.
    pub fn margin(&self) -> f64 {
        self.street_value - self.normal_value
    }
}

/// The solved setting.
pub struct Outcome {
    pub solution: Solution<f64>,
    pub summary: Summary,
    pub first_throws: Vec<FirstThrow>,
}

/// Solves one setting in f64.
pub fn evaluate_setting(model: &Model, u: &[f64; MAX_X + 1], setting: &Setting) -> Outcome {
    let goal = setting.goal();
    let solution = solve(model, |a| goal.terminal_cost(a.pips(), u), goal.street_cost(&to_f64(&setting.pot)));
    let first_throws: Vec<FirstThrow> = model.throws[DICE]
        .iter()
        .map(|(throw, count)| {
            let normal = &solution.normal_actions(model, &Dice::EMPTY, throw)[0];
            let street = &solution.street_actions(model, &Dice::EMPTY, throw)[0];
            FirstThrow {
                throw: *throw,
                count: *count,
                best_normal: normal.part,
                normal_value: normal.value,
                best_street: street.part,
                street_value: street.value,
                go_street: street.value < normal.value,
            }
        })
        .collect();
    let turn = |final_value: &dyn Fn(u32) -> f64, street_value: f64| {
        let eval = evaluate(model, &solution, |a| final_value(a.pips()), street_value);
        expectation_over_first_throws(&first_throws, |f| {
            eval.value_under(model, &solution, &Dice::EMPTY, &f.throw, f.go_street)
        })
    };
    let indicator = |holds: bool| f64::from(u8::from(holds));
    let summary = Summary {
        expected_cost: expectation_over_first_throws(&first_throws, |f| f.normal_value.min(f.street_value)),
        expected_cost_no_street: solution.normal_turn(model),
        p_low: turn(&|t| indicator(t <= 10), 0.0),
        p_high: turn(&|t| indicator(t >= 30), 0.0),
        p_no_own_penalty: turn(&|t| indicator(t <= 10 || t >= 30), 1.0),
        p_street: turn(&|_| 0.0, 1.0),
        street_first_throws: first_throws.iter().filter(|f| f.go_street).count() as u32,
    };
    Outcome { solution, summary, first_throws }
}

/// sum over the first throws of P(throw) f(throw).
fn expectation_over_first_throws(first_throws: &[FirstThrow], f: impl Fn(&FirstThrow) -> f64) -> f64 {
    first_throws.iter().map(|t| f64::from(t.count) * f(t)).sum::<f64>() / 6f64.powi(DICE as i32)
}

/// The pot above which the street is optimal for a first throw: W0(R) is the
/// minimum over street policies of (cost - lambda mu R P(street completed)),
/// concave and non-increasing in R, and V0 does not depend on R. `None`: the
/// street is not optimal at any pot up to `max_pot`; 0: at every pot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Threshold {
    Always,
    Above(f64),
    Never,
}

/// The threshold of every first throw, by Newton's method from the right: on
/// a concave function the tangent at a point where the street is optimal
/// meets V0 at a pot where it is still optimal, and the iteration ends on the
/// last linear piece after a few steps.
pub fn street_thresholds(model: &Model, u: &[f64; MAX_X + 1], goal: &Goal<f64>, max_pot: f64) -> Vec<Threshold> {
    let weight = goal.lambda * goal.mu;
    let mut solution = solve(model, |a| goal.terminal_cost(a.pips(), u), 0.0);
    let at_zero: Vec<(f64, f64)> = model.throws[DICE]
        .iter()
        .map(|(throw, _)| {
            (
                solution.state_value(model, &Dice::EMPTY, throw, false),
                solution.state_value(model, &Dice::EMPTY, throw, true),
            )
        })
        .collect();
    // Street values and slopes at a pot, for all first throws at once.
    let mut at_pot = |pot: f64| -> Vec<(f64, f64)> {
        resolve_street(model, &mut solution, -weight * pot);
        let completion = evaluate(model, &solution, |_| 0.0, 1.0);
        model.throws[DICE]
            .iter()
            .map(|(throw, _)| {
                let value = solution.state_value(model, &Dice::EMPTY, throw, true);
                let p = completion.value_under(model, &solution, &Dice::EMPTY, throw, true);
                (value, -weight * p)
            })
            .collect()
    };
    let at_max = at_pot(max_pot);
    let mut out = Vec::with_capacity(at_zero.len());
    for (k, &(normal, street)) in at_zero.iter().enumerate() {
        if street < normal {
            out.push(Threshold::Always);
            continue;
        }
        if weight == 0.0 || at_max[k].0 >= normal {
            out.push(Threshold::Never);
            continue;
        }
        let (mut pot, (mut value, mut slope)) = (max_pot, at_max[k]);
        for _ in 0..100 {
            let next = pot + (normal - value) / slope;
            if next >= pot || (pot - next) <= 1e-12 * pot.max(1.0) {
                break;
            }
            pot = next;
            (value, slope) = at_pot(pot)[k];
        }
        out.push(Threshold::Above(pot));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fritzen::penalty::expected_penalties;

    fn setting(lambda: i64, mu: i64, pot: i64) -> Setting {
        Setting { lambda: Rational::from(lambda), mu: Rational::from(mu), pot: Rational::from(pot) }
    }

    #[test]
    fn probabilities_add_up() {
        let model = Model::new();
        let u = expected_penalties();
        let outcome = evaluate_setting(&model, &u, &setting(1, 1, 12));
        let s = &outcome.summary;
        assert!((s.p_no_own_penalty - (s.p_low + s.p_high + s.p_street)).abs() < 1e-12);
        assert!(s.expected_cost <= s.expected_cost_no_street);
        assert_eq!(outcome.first_throws.len(), 462);
        let total: u32 = outcome.first_throws.iter().map(|f| f.count).sum();
        assert_eq!(total, 6u32.pow(6));
    }

    #[test]
    fn thresholds_separate_street_from_normal() {
        let model = Model::new();
        let u = expected_penalties();
        let goal = Goal { lambda: 1.0, mu: 1.0 };
        let thresholds = street_thresholds(&model, &u, &goal, 1000.0);
        let mut checked = 0;
        for (k, threshold) in thresholds.iter().enumerate().step_by(37) {
            if let Threshold::Above(r) = *threshold {
                for (pot, street) in [(r * 0.999, false), (r * 1.001, true)] {
                    let s = Setting {
                        lambda: Rational::from(1),
                        mu: Rational::from(1),
                        pot: Rational::try_from(pot).unwrap(),
                    };
                    assert_eq!(
                        evaluate_setting(&model, &u, &s).first_throws[k].go_street,
                        street,
                        "throw {k} at {pot}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 3);
        // A thrown 1-2-3-4-5-6 goes for the street at the thesis's pot of 12 already.
        let street = model.throws[DICE].iter().position(|(d, _)| *d == Dice::from_counts([1; 6])).unwrap();
        assert!(matches!(thresholds[street], Threshold::Above(r) if r < 12.0), "{:?}", thresholds[street]);
    }
}
