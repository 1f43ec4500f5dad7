//! The dice of one Risk round, from first principles: every count here comes
//! from enumerating all equally likely throws.
//!
//! Rules: each side sorts its dice in descending order; the highest dice are
//! compared, then the second highest, as many pairs as the smaller side threw;
//! each pair costs its loser one army, and ties go to the defender.

use std::collections::BTreeMap;

/// The attacker's dice that can matter: the highest `x` and second highest `y`
/// (`y = 0` when the attacker throws one die).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Roll {
    pub x: u8,
    pub y: u8,
}

impl Roll {
    /// The 21 rolls (x, y), 1 <= y <= x <= 6, in the order (1,1), (2,1), (2,2), (3,1), ...
    pub fn pairs() -> impl Iterator<Item = Roll> {
        (1..=6u8).flat_map(|x| (1..=x).map(move |y| Roll { x, y }))
    }

    /// Position of a pair in [`Roll::pairs`].
    pub fn pair_index(self) -> usize {
        let x = usize::from(self.x);
        x * (x - 1) / 2 + usize::from(self.y) - 1
    }
}

/// Losses of one round: (attacker armies lost, defender armies lost).
pub type Losses = (u8, u8);

/// Every throw of `dice` dice, each once.
fn throws(dice: u32) -> impl Iterator<Item = Vec<u8>> {
    (0..6u32.pow(dice)).map(move |mut code| {
        (0..dice)
            .map(|_| {
                let face = (code % 6) as u8 + 1;
                code /= 6;
                face
            })
            .collect()
    })
}

fn sorted_desc(mut dice: Vec<u8>) -> Vec<u8> {
    dice.sort_unstable_by(|a, b| b.cmp(a));
    dice
}

/// Losses when sorted attacker dice meet sorted defender dice.
fn compare(attack: &[u8], defence: &[u8]) -> Losses {
    attack.iter().zip(defence).fold((0, 0), |(a, d), (x, r)| if r >= x { (a + 1, d) } else { (a, d + 1) })
}

/// Number of the 6^(a+d) throws of `a` attacking and `d` defending dice that
/// give each outcome.
pub fn round_outcomes(attacker_dice: u32, defender_dice: u32) -> BTreeMap<Losses, u64> {
    let mut counts = BTreeMap::new();
    for attack in throws(attacker_dice) {
        let attack = sorted_desc(attack);
        for defence in throws(defender_dice) {
            *counts.entry(compare(&attack, &sorted_desc(defence))).or_insert(0) += 1;
        }
    }
    counts
}

/// Distribution of the attacker's deciding dice when throwing `dice` dice:
/// each roll with its number of the 6^dice throws.
pub fn attack_rolls(dice: u32) -> BTreeMap<Roll, u64> {
    let mut counts = BTreeMap::new();
    for attack in throws(dice) {
        let attack = sorted_desc(attack);
        let roll = Roll { x: attack[0], y: attack.get(1).copied().unwrap_or(0) };
        *counts.entry(roll).or_insert(0) += 1;
    }
    counts
}

/// Outcomes when the defender throws `defender_dice` dice against a known
/// roll: each with its number of the 6^defender_dice throws.
pub fn defence_outcomes(roll: Roll, defender_dice: u32) -> BTreeMap<Losses, u64> {
    let attack: Vec<u8> = [roll.x, roll.y].into_iter().filter(|&d| d > 0).collect();
    let mut counts = BTreeMap::new();
    for defence in throws(defender_dice) {
        *counts.entry(compare(&attack, &sorted_desc(defence))).or_insert(0) += 1;
    }
    counts
}

/// The defender's expected loss against `roll` with `defender_dice` dice,
/// as a numerator over 6^defender_dice.
pub fn expected_defender_loss(roll: Roll, defender_dice: u32) -> u64 {
    defence_outcomes(roll, defender_dice).iter().map(|((_, lost), count)| u64::from(*lost) * count).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_against_two_matches_the_known_counts() {
        let counts = round_outcomes(3, 2);
        let published = crate::published::section("risk")["three_vs_two"].as_table().unwrap();
        let count = |key: &str| published[key].as_integer().unwrap() as u64;
        assert_eq!(counts[&(0, 2)], count("defender_loses_two"));
        assert_eq!(counts[&(1, 1)], count("each_loses_one"));
        assert_eq!(counts[&(2, 0)], count("attacker_loses_two"));
        assert_eq!(counts.values().sum::<u64>(), 7776);
    }

    #[test]
    fn one_against_one() {
        let counts = round_outcomes(1, 1);
        assert_eq!(counts[&(0, 1)], 15);
        assert_eq!(counts[&(1, 0)], 21);
    }

    #[test]
    fn attack_rolls_cover_all_throws() {
        for dice in 1..=3 {
            assert_eq!(attack_rolls(dice).values().sum::<u64>(), 6u64.pow(dice));
        }
        assert_eq!(attack_rolls(3).len(), 21);
        // 6-6 as the top two of three dice: 6-6-6 once, 6-6-k three ways for each k < 6.
        assert_eq!(attack_rolls(3)[&Roll { x: 6, y: 6 }], 16);
    }

    #[test]
    fn article_examples() {
        // Against 5-3: one die loses in 4 of 6 throws; two dice lose 0, 1, 2 armies with 1/3 each.
        let five_three = Roll { x: 5, y: 3 };
        assert_eq!(expected_defender_loss(five_three, 1), 4);
        let two = defence_outcomes(five_three, 2);
        assert_eq!((two[&(2, 0)], two[&(1, 1)], two[&(0, 2)]), (12, 12, 12));
        // Against 6-5 with two dice: loss 0, 1, 2 with 1/12, 1/4, 2/3, so 19/12 in expectation.
        let six_five = Roll { x: 6, y: 5 };
        assert_eq!(expected_defender_loss(six_five, 2), 57); // 57/36 = 19/12
    }

    #[test]
    fn pair_index_follows_pair_order() {
        for (i, roll) in Roll::pairs().enumerate() {
            assert_eq!(roll.pair_index(), i);
        }
    }
}
