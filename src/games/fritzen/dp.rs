//! The Bellman recursion of a turn, for the normal turn and the street, over
//! any scalar: f64 for sweeps, exact Z[1/6] for verification.
//!
//! V(A) = sum_B P(B) min_{C in B, C non-empty} V(A + C) over the throws B of
//! the 6 - |A| dice left, with V(A) = r(A) once six dice are aside. A street
//! sets aside only faces not yet aside (any number of new faces at once); a
//! throw with no new face continues as a normal turn from the same position:
//! W(A) = sum_B P(B) [min over non-empty sets C of new faces of W(A + C), or
//! the normal min if there is none], W(1..6) = the street's cost.

use super::dice::{DICE, Dice};
use super::model::Model;
use crate::exact::Scalar;

/// Expected costs of every post-decision state under optimal play.
#[derive(Debug, Clone)]
pub struct Solution<S> {
    /// V(A) by position in the model: the expected cost of the rest of a
    /// normal turn with A aside, before the next throw (r(A) for six dice).
    pub normal: Vec<S>,
    /// W(A) for the sets A (other positions unused): the same in a street.
    pub street: Vec<S>,
}

/// One way to set dice aside, with its expected cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Action<S> {
    pub part: Dice,
    pub value: S,
}

/// Solves both recursions for the final costs r(A) (six dice aside) and the
/// cost of a completed street.
pub fn solve<S: Scalar>(model: &Model, final_cost: impl Fn(&Dice) -> S, street_cost: S) -> Solution<S> {
    let mut solution = terminal(model, final_cost, street_cost.clone());
    for t in (0..DICE).rev() {
        for a in model.of_size(t) {
            let value = expectation(model, DICE - t, |throw| {
                solution.normal[best_normal(model, &solution.normal, a, throw)].clone()
            });
            solution.normal[model.position(a)] = value;
        }
    }
    resolve_street(model, &mut solution, street_cost);
    solution
}

/// Re-solves the street part alone for another street cost (the normal turn
/// does not depend on the pot).
pub fn resolve_street<S: Scalar>(model: &Model, solution: &mut Solution<S>, street_cost: S) {
    solution.street[model.position(&Dice::from_counts([1; 6]))] = street_cost;
    for t in (0..DICE).rev() {
        for a in model.of_size(t).filter(|a| a.is_set()) {
            let value = expectation(model, DICE - t, |throw| solution.state_value(model, a, throw, true));
            solution.street[model.position(a)] = value;
        }
    }
}

/// The expected final values `final_value` / `street_value` under the optimal
/// policy of `optimal` (same choices, same tie-breaking): for example the
/// probability of T <= 10 when playing for a goal.
pub fn evaluate<S: Scalar, O: Scalar>(
    model: &Model,
    optimal: &Solution<O>,
    final_value: impl Fn(&Dice) -> S,
    street_value: S,
) -> Solution<S> {
    let mut eval = terminal(model, final_value, street_value);
    for t in (0..DICE).rev() {
        for a in model.of_size(t) {
            let value = expectation(model, DICE - t, |throw| {
                eval.normal[best_normal(model, &optimal.normal, a, throw)].clone()
            });
            eval.normal[model.position(a)] = value;
        }
    }
    for t in (0..DICE).rev() {
        for a in model.of_size(t).filter(|a| a.is_set()) {
            let value = expectation(model, DICE - t, |throw| match best_street(model, &optimal.street, a, throw) {
                Some(p) => eval.street[p].clone(),
                None => eval.normal[best_normal(model, &optimal.normal, a, throw)].clone(),
            });
            eval.street[model.position(a)] = value;
        }
    }
    eval
}

/// Values of the final states only.
fn terminal<S: Scalar>(model: &Model, final_cost: impl Fn(&Dice) -> S, street_cost: S) -> Solution<S> {
    let size = model.multisets.len();
    let mut normal = vec![S::zero(); size];
    for a in model.of_size(DICE) {
        normal[model.position(a)] = final_cost(a);
    }
    let mut street = vec![S::zero(); size];
    street[model.position(&Dice::from_counts([1; 6]))] = street_cost;
    Solution { normal, street }
}

/// sum_B P(B) f(B) over the throws of `dice` dice (counts first, one division).
fn expectation<S: Scalar>(model: &Model, dice: usize, mut f: impl FnMut(&Dice) -> S) -> S {
    let mut sum = S::zero();
    for (throw, count) in &model.throws[dice] {
        sum = sum.add(&S::from_int(i64::from(*count)).mul(&f(throw)));
    }
    sum.mul(&S::dice_prob(1, dice as u32))
}

/// Position of the best A + C over the non-empty parts C of `throw` (the
/// first of equal values, in the order of the model's parts).
fn best_normal<S: Scalar>(model: &Model, normal: &[S], aside: &Dice, throw: &Dice) -> usize {
    let base = aside.code();
    model
        .part_codes(throw)
        .iter()
        .map(|&c| model.position_of_code(base + c as usize))
        .reduce(|best, p| if normal[p] < normal[best] { p } else { best })
        .expect("a throw has at least one die")
}

/// Position of the best A + C over the non-empty sets C of new faces; None if
/// the throw shows no new face (the turn goes on as a normal turn).
fn best_street<S: Scalar>(model: &Model, street: &[S], aside: &Dice, throw: &Dice) -> Option<usize> {
    let new = throw.new_faces(aside);
    if new.is_empty() {
        return None;
    }
    let base = aside.code();
    model
        .part_codes(&new)
        .iter()
        .map(|&c| model.position_of_code(base + c as usize))
        .reduce(|best, p| if street[p] < street[best] { p } else { best })
}

impl<S: Scalar> Solution<S> {
    /// The expected cost of a turn that plays normally from the first throw.
    pub fn normal_turn(&self, model: &Model) -> S {
        self.normal[model.position(&Dice::EMPTY)].clone()
    }

    /// The best normal action in state (aside, throw): the dice to set aside.
    pub fn normal_choice(&self, model: &Model, aside: &Dice, throw: &Dice) -> Dice {
        model.multisets[best_normal(model, &self.normal, aside, throw)].minus(aside)
    }

    /// The best street action in state (aside, throw); None when the throw
    /// shows no new face (the turn continues as a normal turn).
    pub fn street_choice(&self, model: &Model, aside: &Dice, throw: &Dice) -> Option<Dice> {
        best_street(model, &self.street, aside, throw).map(|p| model.multisets[p].minus(aside))
    }

    /// The normal actions in state (aside, throw), cheapest first (ties keep
    /// the order of `Dice::non_empty_parts`).
    pub fn normal_actions(&self, model: &Model, aside: &Dice, throw: &Dice) -> Vec<Action<S>> {
        let mut actions: Vec<Action<S>> = throw
            .non_empty_parts()
            .into_iter()
            .map(|part| Action { value: self.normal[model.position(&aside.plus(&part))].clone(), part })
            .collect();
        sort_by_value(&mut actions);
        actions
    }

    /// The street actions in state (aside, throw), cheapest first; empty when
    /// the throw shows no new face (the turn then continues as a normal turn).
    pub fn street_actions(&self, model: &Model, aside: &Dice, throw: &Dice) -> Vec<Action<S>> {
        debug_assert!(aside.is_set());
        let mut actions: Vec<Action<S>> = throw
            .new_faces(aside)
            .non_empty_parts()
            .into_iter()
            .map(|part| Action { value: self.street[model.position(&aside.plus(&part))].clone(), part })
            .collect();
        sort_by_value(&mut actions);
        actions
    }

    /// The value of state (aside, throw): normal play, or a street if `street`.
    pub fn state_value(&self, model: &Model, aside: &Dice, throw: &Dice, street: bool) -> S {
        self.value_under(model, self, aside, throw, street)
    }

    /// The value of state (aside, throw) in `self` (an evaluation) when the
    /// choices are those of `optimal`.
    pub fn value_under<O: Scalar>(
        &self,
        model: &Model,
        optimal: &Solution<O>,
        aside: &Dice,
        throw: &Dice,
        street: bool,
    ) -> S {
        match street.then(|| best_street(model, &optimal.street, aside, throw)).flatten() {
            Some(p) => self.street[p].clone(),
            None => self.normal[best_normal(model, &optimal.normal, aside, throw)].clone(),
        }
    }
}

fn sort_by_value<S: Scalar>(actions: &mut [Action<S>]) {
    actions.sort_by(|a, b| a.value.partial_cmp(&b.value).expect("values are ordered"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{DiceRational, Rational};
    use crate::games::fritzen::penalty::{Goal, expected_penalties};

    fn one_person(a: &Dice) -> f64 {
        let t = f64::from(a.pips());
        if t > 10.0 && t < 30.0 { 30.0 - t } else { 0.0 }
    }

    /// The plain recursion over ordered dice and explicit subsets: no
    /// multisets, no codes. For a few dice left it is cheap.
    fn brute_force(aside: &mut Vec<u8>, cost: &dyn Fn(&[u8]) -> f64) -> f64 {
        if aside.len() == DICE {
            return cost(aside);
        }
        let n = DICE - aside.len();
        let mut total = 0.0;
        for outcome in 0..6usize.pow(n as u32) {
            let throw: Vec<u8> = (0..n).map(|i| (outcome / 6usize.pow(i as u32) % 6) as u8 + 1).collect();
            let mut best = f64::INFINITY;
            for mask in 1..1usize << n {
                let before = aside.len();
                aside.extend((0..n).filter(|i| mask >> i & 1 == 1).map(|i| throw[i]));
                best = best.min(brute_force(aside, cost));
                aside.truncate(before);
            }
            total += best;
        }
        total / 6f64.powi(n as i32)
    }

    #[test]
    fn agrees_with_brute_force_near_the_end_of_a_turn() {
        let model = Model::new();
        let u: [f64; 7] = expected_penalties();
        let goal = Goal { lambda: 1.0, mu: 1.5 };
        let solution = solve(&model, |a| goal.terminal_cost(a.pips(), &u), 0.0);
        let cost = |faces: &[u8]| goal.terminal_cost(faces.iter().map(|&f| u32::from(f)).sum(), &u);
        for aside in [vec![6, 6, 6], vec![1, 2, 2, 5], vec![3, 4, 5, 5, 6], vec![1, 1, 1, 1]] {
            let dice = Dice::from_faces(&aside).unwrap();
            let ours = solution.normal[model.position(&dice)];
            let theirs = brute_force(&mut aside.clone(), &cost);
            assert!((ours - theirs).abs() < 1e-12, "{dice}: {ours} vs {theirs}");
        }
    }

    #[test]
    fn exact_and_float_agree() {
        let model = Model::new();
        let u: [f64; 7] = expected_penalties();
        let ue: [DiceRational; 7] = expected_penalties();
        let floats = solve(&model, |a| one_person(a) + -u[1] * f64::from(u8::from(a.pips() >= 31)), 0.0);
        let exact = solve(
            &model,
            |a| {
                let base = DiceRational::new(one_person(a) as i64, 0);
                if a.pips() >= 31 { base.sub(&ue[1]) } else { base }
            },
            DiceRational::new(0, 0),
        );
        let v: Rational = exact.normal_turn(&model).to_rational();
        assert!((crate::exact::to_f64(&v) - floats.normal_turn(&model)).abs() < 1e-12);
    }

    #[test]
    fn a_thrown_street_is_set_aside_at_once() {
        let model = Model::new();
        let u: [f64; 7] = expected_penalties();
        let goal = Goal { lambda: 0.0, mu: 0.0 };
        let solution = solve(&model, |a| goal.terminal_cost(a.pips(), &u), goal.street_cost(&12.0));
        let street = Dice::from_faces(&[1, 2, 3, 4, 5, 6]).unwrap();
        let best = &solution.street_actions(&model, &Dice::EMPTY, &street)[0];
        assert_eq!(best.part, street);
        assert_eq!(best.value, 0.0);
        // No new face: the street continues as a normal turn from the same dice.
        let aside = Dice::from_faces(&[2, 4]).unwrap();
        let throw = Dice::from_faces(&[2, 2, 4, 4]).unwrap();
        assert!(solution.street_actions(&model, &aside, &throw).is_empty());
        assert_eq!(
            solution.state_value(&model, &aside, &throw, true),
            solution.state_value(&model, &aside, &throw, false)
        );
    }
}
