//! The article's question: against an attacker with ample armies throwing
//! three dice, which stationary rule (1 or 2 defending dice per attack roll)
//! minimises the defender's long-run loss per army committed?
//!
//! Every attack roll is a fresh draw, whatever the defender did, so by the
//! renewal-reward theorem a stationary policy pi loses on average
//! g(pi) = L(pi) / A(pi) per committed army, with L the expected loss and A
//! the expected armies committed per roll. The optimum is found exactly with
//! Dinkelbach's method and proven twice: by enumerating all 2^21 stationary
//! policies, and by the certificate that every roll's action minimises
//! c_a - a g* (which bounds every stationary policy, randomised ones included).

use super::dice::{Roll, attack_rolls, expected_defender_loss};
use crate::exact::Rational;

/// Costs of one attack roll (x, y) of three dice.
#[derive(Debug, Clone, Copy)]
pub struct RollCosts {
    pub roll: Roll,
    /// Throws of three dice giving this roll, out of 216.
    pub count: u64,
    /// Expected defender loss with one die, over 6.
    pub loss_one: u64,
    /// Expected defender loss with two dice, over 36.
    pub loss_two: u64,
}

impl RollCosts {
    pub fn probability(&self) -> Rational {
        Rational::from_unsigneds(self.count, 216)
    }
    /// c1: expected defender loss with one die.
    pub fn cost_one(&self) -> Rational {
        Rational::from_unsigneds(self.loss_one, 6)
    }
    /// c2: expected defender loss with two dice.
    pub fn cost_two(&self) -> Rational {
        Rational::from_unsigneds(self.loss_two, 36)
    }
}

/// The 21 attack rolls of three dice with their costs, in [`Roll::pairs`] order.
pub fn roll_costs() -> Vec<RollCosts> {
    let rolls = attack_rolls(3);
    Roll::pairs()
        .map(|roll| RollCosts {
            roll,
            count: rolls[&roll],
            loss_one: expected_defender_loss(roll, 1),
            loss_two: expected_defender_loss(roll, 2),
        })
        .collect()
}

/// A stationary policy: bit i set means "defend roll i (pair order) with two dice".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy(pub u32);

impl Policy {
    pub fn dice(self, roll: Roll) -> u8 {
        if self.0 >> roll.pair_index() & 1 == 1 { 2 } else { 1 }
    }

    /// The rolls defended with two dice, as "xy" codes, e.g. "21 31 32 ...".
    pub fn two_dice_rolls(self) -> String {
        Roll::pairs().filter(|&r| self.dice(r) == 2).map(|r| format!("{}{}", r.x, r.y)).collect::<Vec<_>>().join(" ")
    }

    /// The policy's rule in words when it is a threshold on the second die.
    pub fn rule(self) -> String {
        for t in 0..=6u8 {
            if Roll::pairs().all(|r| (self.dice(r) == 2) == (r.y <= t)) {
                return match t {
                    0 => "always one die".into(),
                    6 => "always two dice".into(),
                    t => format!("two dice exactly when the second attack die is at most {t}"),
                };
            }
        }
        format!("two dice against {}", self.two_dice_rolls())
    }
}

/// Long-run loss per committed army of a stationary policy.
pub fn loss_per_army(costs: &[RollCosts], policy: Policy) -> Rational {
    let (loss, armies) = integer_totals(costs, policy);
    Rational::from_unsigneds(loss, 36 * armies)
}

/// (L, A) scaled to integers: L * 216 * 36 and A * 216.
fn integer_totals(costs: &[RollCosts], policy: Policy) -> (u64, u64) {
    costs.iter().fold((0, 0), |(loss, armies), c| match policy.dice(c.roll) {
        2 => (loss + c.count * c.loss_two, armies + 2 * c.count),
        _ => (loss + c.count * 6 * c.loss_one, armies + c.count),
    })
}

/// The optimal stationary policy and its exact loss per army.
#[derive(Debug, Clone)]
pub struct Optimum {
    pub policy: Policy,
    pub loss: Rational,
    pub dinkelbach_iterations: u32,
}

/// Dinkelbach's method: with the current ratio g, defend with two dice
/// exactly where c2 - 2g < c1 - g; repeat until the policy is stable.
pub fn optimum(costs: &[RollCosts]) -> Optimum {
    let mut policy = Policy(0);
    let mut loss = loss_per_army(costs, policy);
    for iteration in 1.. {
        let next = greedy_policy(costs, &loss);
        if next == policy {
            return Optimum { policy, loss, dinkelbach_iterations: iteration };
        }
        policy = next;
        loss = loss_per_army(costs, policy);
    }
    unreachable!("Dinkelbach's method terminates on finitely many policies")
}

/// Two dice where c2 - c1 < g (one die on ties).
fn greedy_policy(costs: &[RollCosts], g: &Rational) -> Policy {
    let bits =
        costs.iter().filter(|c| c.cost_two() - c.cost_one() < *g).fold(0, |bits, c| bits | 1 << c.roll.pair_index());
    Policy(bits)
}

/// `c2 - c1 - g` for one roll: below zero two dice are strictly better, above
/// zero one die, at zero both are optimal.
pub fn margin(costs: &RollCosts, g: &Rational) -> Rational {
    costs.cost_two() - costs.cost_one() - g
}

/// Result of checking every stationary deterministic policy.
#[derive(Debug, Clone, PartialEq)]
pub struct Enumeration {
    pub checked: u64,
    pub min_loss: Rational,
    /// Number of policies attaining the minimum.
    pub minimisers: u64,
    pub minimiser: Policy,
}

/// Evaluates all 2^21 stationary deterministic policies in exact integer
/// arithmetic (Gray-code order: one roll changes per step).
pub fn enumerate_policies(costs: &[RollCosts]) -> Enumeration {
    let mut policy = 0u32;
    let (mut loss, mut armies) = integer_totals(costs, Policy(policy));
    let (mut best_loss, mut best_armies, mut best_policy, mut minimisers) = (loss, armies, policy, 1u64);
    let total = 1u64 << costs.len();
    for step in 1..total {
        let flip = step.trailing_zeros() as usize;
        let c = &costs[flip];
        let (one, two) = (c.count * 6 * c.loss_one, c.count * c.loss_two);
        if policy >> flip & 1 == 0 {
            (loss, armies) = (loss - one + two, armies + c.count);
        } else {
            (loss, armies) = (loss - two + one, armies - c.count);
        }
        policy ^= 1 << flip;
        // loss/armies vs best_loss/best_armies by cross-multiplication.
        match (u128::from(loss) * u128::from(best_armies)).cmp(&(u128::from(best_loss) * u128::from(armies))) {
            std::cmp::Ordering::Less => (best_loss, best_armies, best_policy, minimisers) = (loss, armies, policy, 1),
            std::cmp::Ordering::Equal => minimisers += 1,
            std::cmp::Ordering::Greater => {}
        }
    }
    Enumeration {
        checked: total,
        min_loss: Rational::from_unsigneds(best_loss, 36 * best_armies),
        minimisers,
        minimiser: Policy(best_policy),
    }
}

/// Proves that no stationary policy, deterministic or randomised, loses less
/// than `g` per army, and that `policy` loses exactly `g`. For any policy pi,
/// L(pi) - g A(pi) = sum_roll u (c_pi - g pi) >= sum_roll u min_a (c_a - a g),
/// which is zero when `policy` attains the minimum at every roll and has ratio g.
pub fn certify(costs: &[RollCosts], policy: Policy, g: &Rational) -> Result<(), String> {
    if loss_per_army(costs, policy) != *g {
        return Err(format!("the policy's loss per army is {}, not {g}", loss_per_army(costs, policy)));
    }
    for c in costs {
        let one = c.cost_one() - g;
        let two = c.cost_two() - Rational::from(2u32) * g;
        let chosen = if policy.dice(c.roll) == 2 { &two } else { &one };
        if chosen > std::cmp::min(&one, &two) {
            return Err(format!("roll {}{}: the other action is strictly better at g = {g}", c.roll.x, c.roll.y));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::to_f64;

    #[test]
    fn reproduces_the_article() {
        let costs = roll_costs();
        let opt = optimum(&costs);
        let article = crate::published::section("risk");
        let threshold = crate::published::text(article, "two_dice_when_second_die_at_most");
        assert_eq!(opt.policy.rule(), format!("two dice exactly when the second attack die is at most {threshold}"));
        assert_eq!(format!("{:.6}", to_f64(&opt.loss)), crate::published::text(article, "loss_per_army"));
        let attacker = Rational::from(1u32) - &opt.loss;
        assert_eq!(format!("{:.6}", to_f64(&attacker)), crate::published::text(article, "attacker_loss_per_army"));
        assert_eq!(certify(&costs, opt.policy, &opt.loss), Ok(()));
    }

    #[test]
    fn enumeration_agrees_with_dinkelbach() {
        let costs = roll_costs();
        let opt = optimum(&costs);
        let all = enumerate_policies(&costs);
        assert_eq!(all.checked, 1 << 21);
        assert_eq!(all.min_loss, opt.loss);
        assert_eq!(all.minimiser, opt.policy);
        assert_eq!(all.minimisers, 1);
    }

    #[test]
    fn certificate_rejects_a_suboptimal_policy() {
        let costs = roll_costs();
        let opt = optimum(&costs);
        let one_die = Policy(0);
        assert!(certify(&costs, one_die, &loss_per_army(&costs, one_die)).is_err());
        assert!(certify(&costs, opt.policy, &(opt.loss.clone() + Rational::from_signeds(1, 1000))).is_err());
    }

    #[test]
    fn per_roll_reasoning_of_the_article_is_myopic() {
        // Against 6-5 two dice lose 19/24 per army, less than 5/6 with one die,
        // yet the optimal long-run policy defends 6-5 with one die.
        let costs = roll_costs();
        let six_five = costs[Roll { x: 6, y: 5 }.pair_index()];
        assert_eq!(six_five.cost_two() / Rational::from(2u32), Rational::from_signeds(19, 24));
        assert_eq!(six_five.cost_one(), Rational::from_signeds(5, 6));
        assert_eq!(optimum(&costs).policy.dice(six_five.roll), 1);
    }
}
