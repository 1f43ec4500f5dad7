//! Monte-Carlo play against the DP (the thesis's further research): in every
//! normal state, try each action with a number of rollouts that finish the
//! turn by a simple rollout policy, and take the action with the best mean.
//! Measured against the DP: how often that choice is optimal, and the exact
//! expected cost of playing it everywhere (a DP over its fixed choices).

use super::dice::{DICE, Dice};
use super::dp::Solution;
use super::model::Model;
use super::penalty::{Goal, MAX_X};
use super::sim::roll;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// How a rollout finishes the turn after the action tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RolloutPolicy {
    /// A uniformly random non-empty subset of the dice thrown (the thesis's
    /// random rollouts: they drift to the mean of 3.5 per die).
    Random,
    /// The thesis's "extrema tactic" for high totals: all sixes if there are
    /// any, else the single highest die.
    Highest,
}

impl crate::grid::Described for RolloutPolicy {
    fn described(&self) -> String {
        format!("{:?}", self.as_str())
    }
}

impl RolloutPolicy {
    pub fn as_str(self) -> &'static str {
        match self {
            RolloutPolicy::Random => "random",
            RolloutPolicy::Highest => "highest",
        }
    }

    fn choose(self, rng: &mut ChaCha8Rng, throw: &Dice) -> Dice {
        match self {
            RolloutPolicy::Random => loop {
                let faces: Vec<u8> = throw.faces().into_iter().filter(|_| rng.random_bool(0.5)).collect();
                if !faces.is_empty() {
                    return Dice::from_faces(&faces).expect("faces of a throw");
                }
            },
            RolloutPolicy::Highest => {
                let sixes = throw.count(6);
                let face = if sixes > 0 { 6 } else { *throw.faces().last().expect("a throw has dice") };
                Dice::from_faces(&vec![face; usize::from(sixes.max(1))]).expect("faces of a throw")
            }
        }
    }
}

/// The Monte-Carlo policy measured against the DP for one goal.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub policy: RolloutPolicy,
    pub rollouts_per_action: u32,
    /// Normal states with a choice (at least two distinct actions).
    pub states: u64,
    /// Of those, states where the Monte-Carlo action is optimal (ties count).
    pub agreeing: u64,
    /// Expected cost of a turn played by the Monte-Carlo choices, exactly.
    pub turn_cost: f64,
    /// The DP's optimal expected cost of a turn.
    pub optimal_turn_cost: f64,
}

impl Comparison {
    pub fn agreement(&self) -> f64 {
        self.agreeing as f64 / self.states as f64
    }
    pub fn loss(&self) -> f64 {
        self.turn_cost - self.optimal_turn_cost
    }
}

/// Runs the Monte-Carlo policy in every normal state (in parallel; each state
/// seeded from (seed, state), so results do not depend on threads).
pub fn compare(
    model: &Model,
    u: &[f64; MAX_X + 1],
    goal: &Goal<f64>,
    optimal: &Solution<f64>,
    policy: RolloutPolicy,
    rollouts_per_action: u32,
    seed: u64,
) -> Comparison {
    let cost = |a: &Dice| goal.terminal_cost(a.pips(), u);
    // (aside position, throw index) of every non-final state, by size of aside.
    let states: Vec<(usize, usize)> = (0..DICE)
        .flat_map(|t| model.of_size(t).map(|a| model.position(a)).collect::<Vec<_>>())
        .flat_map(|a| (0..model.throws[DICE - model.multisets[a].len()].len()).map(move |b| (a, b)))
        .collect();
    let choices: Vec<(Dice, bool)> = states
        .par_iter()
        .enumerate()
        .map(|(k, &(a, b))| {
            let aside = model.multisets[a];
            let throw = model.throws[DICE - aside.len()][b].0;
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let actions = throw.non_empty_parts();
            let mean = |part: &Dice, rng: &mut ChaCha8Rng| {
                let start = aside.plus(part);
                (0..rollouts_per_action).map(|_| rollout(rng, start, policy, &cost)).sum::<f64>()
                    / f64::from(rollouts_per_action)
            };
            let best = actions
                .iter()
                .map(|part| (*part, mean(part, &mut rng)))
                .fold((actions[0], f64::INFINITY), |best, next| if next.1 < best.1 { next } else { best })
                .0;
            let best_value = optimal.normal[model.position(&aside.plus(&best))];
            let optimal_value = optimal.state_value(model, &aside, &throw, false);
            (best, best_value <= optimal_value + 1e-12 * optimal_value.abs().max(1.0))
        })
        .collect();
    // The exact expected cost of the Monte-Carlo choices, by a DP over them.
    let mut value = vec![0.0; model.multisets.len()];
    for a in model.of_size(DICE) {
        value[model.position(a)] = cost(a);
    }
    // The choices of each aside, in the order of its throws.
    let mut by_aside: Vec<Vec<Dice>> = vec![Vec::new(); model.multisets.len()];
    for (&(a, _), (choice, _)) in states.iter().zip(&choices) {
        by_aside[a].push(*choice);
    }
    for t in (0..DICE).rev() {
        for aside in model.of_size(t) {
            let a = model.position(aside);
            let n = DICE - t;
            let total: f64 = model.throws[n]
                .iter()
                .zip(&by_aside[a])
                .map(|((_, count), choice)| f64::from(*count) * value[model.position(&aside.plus(choice))])
                .sum();
            value[a] = total / 6f64.powi(n as i32);
        }
    }
    let with_choice: Vec<bool> = states
        .iter()
        .map(|&(a, b)| {
            let aside = model.multisets[a];
            let throw = model.throws[DICE - aside.len()][b].0;
            let values: Vec<u64> = throw
                .non_empty_parts()
                .iter()
                .map(|p| optimal.normal[model.position(&aside.plus(p))].to_bits())
                .collect();
            values.iter().any(|v| *v != values[0])
        })
        .collect();
    Comparison {
        policy,
        rollouts_per_action,
        states: with_choice.iter().filter(|c| **c).count() as u64,
        agreeing: with_choice.iter().zip(&choices).filter(|(c, (_, agrees))| **c && *agrees).count() as u64,
        turn_cost: value[model.position(&Dice::EMPTY)],
        optimal_turn_cost: optimal.normal_turn(model),
    }
}

/// Finishes a turn from `aside` by the rollout policy; its final cost.
fn rollout(rng: &mut ChaCha8Rng, mut aside: Dice, policy: RolloutPolicy, cost: &dyn Fn(&Dice) -> f64) -> f64 {
    while aside.len() < DICE {
        let throw = roll(rng, DICE - aside.len());
        aside = aside.plus(&policy.choose(rng, &throw));
    }
    cost(&aside)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fritzen::dp::solve;
    use crate::games::fritzen::penalty::expected_penalties;

    #[test]
    fn monte_carlo_choices_cost_at_least_the_optimum() {
        let model = Model::new();
        let u = expected_penalties();
        let goal = Goal { lambda: 0.0, mu: 0.0 };
        let optimal = solve(&model, |a| goal.terminal_cost(a.pips(), &u), 0.0);
        let random = compare(&model, &u, &goal, &optimal, RolloutPolicy::Random, 8, 1);
        let highest = compare(&model, &u, &goal, &optimal, RolloutPolicy::Highest, 8, 1);
        for c in [&random, &highest] {
            assert!(c.loss() >= -1e-12, "{:?} beats the optimum: {}", c.policy, c.loss());
            assert!(c.states > 5000 && c.agreeing <= c.states);
        }
        // High totals are the one-person goal: the highest-die rollouts judge better.
        assert!(highest.agreement() > random.agreement());
        assert!(highest.loss() < random.loss());
    }
}
