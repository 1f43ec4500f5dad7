//! Finite battles: A armies attack a territory held by D. While A >= 2 and
//! D >= 1 the attacker throws min(3, A - 1) dice and the defender 1 or
//! min(2, D); the battle ends with a conquest (D = 0) or a failed attack
//! (A = 1). The attacker never stops early.
//!
//! Two defenders: the board game's usual one, who always throws the maximum,
//! and one who sees the attack roll and throws the number of dice that
//! minimises the probability of conquest (ties: the maximum). For each
//! (A, D) the DP gives the conquest probability and the expected armies left
//! on either side, exactly when run with an exact scalar.

use super::dice::{Losses, Roll, attack_rolls, defence_outcomes, round_outcomes};
use crate::exact::Scalar;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum DefenderRule {
    /// Always throw min(2, D) dice.
    MaxDice,
    /// Throw the number of dice that minimises the conquest probability, after seeing the roll.
    Optimal,
}

impl crate::grid::Described for DefenderRule {
    fn described(&self) -> String {
        format!("{:?}", self.as_str())
    }
}

impl DefenderRule {
    pub fn as_str(self) -> &'static str {
        match self {
            DefenderRule::MaxDice => "max-dice",
            DefenderRule::Optimal => "optimal",
        }
    }
}

/// The optimal defender's choice against one attack roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub roll: Roll,
    pub dice: u8,
    /// Both choices give the same conquest probability.
    pub tie: bool,
}

/// Outcome of a battle from (A, D).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome<S> {
    pub conquest: S,
    pub attackers_left: S,
    pub defenders_left: S,
}

/// Every battle with 2 <= A <= max_attackers and 1 <= D <= max_defenders.
pub struct Battles<S> {
    max_attackers: u32,
    max_defenders: u32,
    outcomes: Vec<Outcome<S>>,
    /// Optimal rule only: the decisions at each state with a choice (D >= 2).
    decisions: BTreeMap<(u32, u32), Vec<Decision>>,
}

/// An attack roll with its count over 6^m and the defence outcomes against it
/// with one die (over 6) and two dice (over 36).
struct RollDefences {
    roll: Roll,
    count: u64,
    one: BTreeMap<Losses, u64>,
    two: BTreeMap<Losses, u64>,
}

/// Dice tables of one round, enumerated once.
struct RoundTables {
    /// Per number of attacker dice m (index m - 1) and defender dice k: outcome counts over 6^(m+k).
    rounds: [[BTreeMap<Losses, u64>; 2]; 3],
    /// Per m: every attack roll with its defences.
    rolls: [Vec<RollDefences>; 3],
}

impl RoundTables {
    fn new() -> Self {
        let rounds = [1, 2, 3].map(|m| [round_outcomes(m, 1), round_outcomes(m, 2)]);
        let rolls = [1, 2, 3].map(|m| {
            attack_rolls(m)
                .into_iter()
                .map(|(roll, count)| RollDefences {
                    roll,
                    count,
                    one: defence_outcomes(roll, 1),
                    two: defence_outcomes(roll, 2),
                })
                .collect()
        });
        RoundTables { rounds, rolls }
    }
}

impl<S: Scalar> Battles<S> {
    pub fn solve(max_attackers: u32, max_defenders: u32, rule: DefenderRule) -> Self {
        let tables = RoundTables::new();
        let width = max_defenders as usize + 1;
        let mut outcomes: Vec<Outcome<S>> = Vec::with_capacity((max_attackers as usize + 1) * width);
        let mut decisions = BTreeMap::new();
        for a in 0..=max_attackers {
            for d in 0..=max_defenders {
                let outcome = if d == 0 {
                    Outcome {
                        conquest: S::from_int(1),
                        attackers_left: S::from_int(a.into()),
                        defenders_left: S::zero(),
                    }
                } else if a <= 1 {
                    Outcome {
                        conquest: S::zero(),
                        attackers_left: S::from_int(a.into()),
                        defenders_left: S::from_int(d.into()),
                    }
                } else {
                    let at = |losses: Losses| {
                        &outcomes[(a - u32::from(losses.0)) as usize * width + (d - u32::from(losses.1)) as usize]
                    };
                    let (weights, denominator_dice, choices) = round_weights(&tables, a, d, rule, |l| &at(l).conquest);
                    if let Some(choices) = choices {
                        decisions.insert((a, d), choices);
                    }
                    let scale = S::dice_prob(1, denominator_dice);
                    let combine = |field: fn(&Outcome<S>) -> &S| {
                        weights
                            .iter()
                            .fold(S::zero(), |sum, (losses, w)| sum.add(&S::from_int(*w).mul(field(at(*losses)))))
                            .mul(&scale)
                    };
                    Outcome {
                        conquest: combine(|o| &o.conquest),
                        attackers_left: combine(|o| &o.attackers_left),
                        defenders_left: combine(|o| &o.defenders_left),
                    }
                };
                outcomes.push(outcome);
            }
        }
        Battles { max_attackers, max_defenders, outcomes, decisions }
    }

    pub fn outcome(&self, attackers: u32, defenders: u32) -> &Outcome<S> {
        assert!(attackers <= self.max_attackers && defenders <= self.max_defenders);
        &self.outcomes[attackers as usize * (self.max_defenders as usize + 1) + defenders as usize]
    }

    /// Conquest probability from (A, D) when the attacker has thrown `roll` and
    /// the defender answers with `defender_dice` dice.
    pub fn conquest_after_roll(&self, attackers: u32, defenders: u32, roll: Roll, defender_dice: u32) -> S {
        defence_outcomes(roll, defender_dice).iter().fold(S::zero(), |sum, (losses, count)| {
            let next = self.outcome(attackers - u32::from(losses.0), defenders - u32::from(losses.1));
            sum.add(&S::dice_prob(*count as i64, defender_dice).mul(&next.conquest))
        })
    }

    /// The optimal defender's choices at (A, D), if the defender has a choice there.
    pub fn decisions(&self, attackers: u32, defenders: u32) -> Option<&[Decision]> {
        self.decisions.get(&(attackers, defenders)).map(Vec::as_slice)
    }
}

/// The round from (a, d) as integer weights on the loss outcomes over
/// 6^denominator_dice, with the optimal defender's decisions where it has a choice.
fn round_weights<'s, S: Scalar + 's>(
    tables: &RoundTables,
    a: u32,
    d: u32,
    rule: DefenderRule,
    conquest_after: impl Fn(Losses) -> &'s S,
) -> (BTreeMap<Losses, i64>, u32, Option<Vec<Decision>>) {
    let m = a.saturating_sub(1).min(3) as usize;
    let k_max = d.min(2) as usize;
    if rule == DefenderRule::MaxDice || k_max == 1 {
        let weights = tables.rounds[m - 1][k_max - 1].iter().map(|(l, c)| (*l, *c as i64)).collect();
        return (weights, (m + k_max) as u32, None);
    }
    // The defender compares, per roll, one die (outcomes over 6, scaled to 36) with two dice (over 36).
    let mut weights = BTreeMap::new();
    let mut decisions = Vec::new();
    for RollDefences { roll, count, one, two } in &tables.rolls[m - 1] {
        let value = |outcomes: &BTreeMap<Losses, u64>, scale: i64| {
            outcomes
                .iter()
                .fold(S::zero(), |sum, (l, c)| sum.add(&S::from_int(*c as i64 * scale).mul(conquest_after(*l))))
        };
        let (with_one, with_two) = (value(one, 6), value(two, 1));
        let dice = if with_one < with_two { 1 } else { 2 };
        decisions.push(Decision { roll: *roll, dice, tie: with_one == with_two });
        let (outcomes, scale) = if dice == 1 { (one, 6) } else { (two, 1) };
        for (l, c) in outcomes {
            *weights.entry(*l).or_insert(0) += *count as i64 * *c as i64 * scale;
        }
    }
    (weights, (m + 2) as u32, Some(decisions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{DiceRational, Rational};

    #[test]
    fn one_round_battles_match_the_dice() {
        let b = Battles::<Rational>::solve(4, 2, DefenderRule::MaxDice);
        // 2 vs 1: one die each; the attacker wins with 15/36.
        assert_eq!(b.outcome(2, 1).conquest, Rational::from_signeds(15, 36));
        // 4 vs 2: three dice against two; a double win (2890/7776) conquers, a
        // split (2611) leads to 3 vs 1, a double loss (2275) to 2 vs 2.
        let expected = Rational::from_signeds(2890, 7776)
            + Rational::from_signeds(2611, 7776) * &b.outcome(3, 1).conquest
            + Rational::from_signeds(2275, 7776) * &b.outcome(2, 2).conquest;
        assert_eq!(b.outcome(4, 2).conquest, expected);
    }

    #[test]
    fn expected_armies_are_consistent() {
        let b = Battles::<Rational>::solve(6, 6, DefenderRule::MaxDice);
        for a in 2..=6u32 {
            for d in 1..=6u32 {
                let o = b.outcome(a, d);
                assert!(o.conquest > 0u32 && o.conquest < 1u32);
                // At least one attacker army is always left; the defender keeps armies only if no conquest.
                assert!(o.attackers_left >= 1u32 && o.attackers_left <= a);
                assert!(o.defenders_left <= Rational::from(d) * (Rational::from(1u32) - &o.conquest));
            }
        }
    }

    #[test]
    fn optimal_defender_never_does_worse() {
        let max = Battles::<DiceRational>::solve(30, 30, DefenderRule::MaxDice);
        let opt = Battles::<DiceRational>::solve(30, 30, DefenderRule::Optimal);
        let mut strictly_better = 0;
        for a in 2..=30 {
            for d in 1..=30 {
                let (m, o) = (&max.outcome(a, d).conquest, &opt.outcome(a, d).conquest);
                assert!(o <= m, "({a}, {d})");
                strictly_better += usize::from(o < m);
            }
        }
        assert!(strictly_better > 0, "choosing dice should help somewhere");
        assert!(opt.decisions(10, 5).is_some() && opt.decisions(10, 1).is_none());
    }

    #[test]
    fn exact_types_agree() {
        for rule in [DefenderRule::MaxDice, DefenderRule::Optimal] {
            let fast = Battles::<DiceRational>::solve(12, 12, rule);
            let plain = Battles::<Rational>::solve(12, 12, rule);
            for a in 2..=12 {
                for d in 1..=12 {
                    assert_eq!(fast.outcome(a, d).conquest.to_rational(), plain.outcome(a, d).conquest);
                    assert_eq!(fast.outcome(a, d).defenders_left.to_rational(), plain.outcome(a, d).defenders_left);
                }
            }
        }
    }
}
