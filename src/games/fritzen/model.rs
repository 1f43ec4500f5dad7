//! The state space of a turn, built once and shared by every goal and pot.
//!
//! A decision state is (aside A, throw B) with |A| + |B| = 6: 12376 normal
//! states in all (with the 462 final ones, B empty), 5336 street states (A a
//! set of distinct faces). The DP works on the post-decision states A (the
//! dice aside before a throw): 924 multisets, 64 of them sets.

use super::dice::{CODES, DICE, Dice};

pub struct Model {
    /// Every multiset of 0..=6 dice, grouped by size, ascending within a size.
    pub multisets: Vec<Dice>,
    /// Position in `multisets` by code.
    index: Vec<u16>,
    /// The throws of n dice (n = 0..=6) with the number of ordered outcomes
    /// that show each; they sum to 6^n.
    pub throws: Vec<Vec<(Dice, u32)>>,
    /// The codes of the non-empty parts of each multiset (by position): the
    /// ways to set dice aside from it.
    part_codes: Vec<Vec<u32>>,
}

const NONE: u16 = u16::MAX;

impl Model {
    pub fn new() -> Model {
        let multisets: Vec<Dice> = (0..=DICE).flat_map(Dice::all_of_size).collect();
        let mut index = vec![NONE; CODES];
        for (i, d) in multisets.iter().enumerate() {
            index[d.code()] = i as u16;
        }
        let throws =
            (0..=DICE).map(|n| Dice::all_of_size(n).into_iter().map(|d| (d, d.outcomes())).collect()).collect();
        let part_codes =
            multisets.iter().map(|d| d.non_empty_parts().iter().map(|p| p.code() as u32).collect()).collect();
        Model { multisets, index, throws, part_codes }
    }

    /// Position of a multiset in `multisets`.
    pub fn position(&self, dice: &Dice) -> usize {
        self.position_of_code(dice.code())
    }

    pub fn position_of_code(&self, code: usize) -> usize {
        let i = self.index[code];
        debug_assert!(i != NONE, "code {code} is no multiset of at most six dice");
        usize::from(i)
    }

    /// The codes of the ways to set dice aside from `throw`.
    pub fn part_codes(&self, throw: &Dice) -> &[u32] {
        &self.part_codes[self.position(throw)]
    }

    /// The multisets of `k` dice.
    pub fn of_size(&self, k: usize) -> impl Iterator<Item = &Dice> {
        self.multisets.iter().filter(move |d| d.len() == k)
    }

    /// Number of normal decision states (A, B), the final ones (B empty) included.
    pub fn normal_states(&self) -> usize {
        (0..=DICE).map(|t| self.of_size(t).count() * self.throws[DICE - t].len()).sum()
    }

    /// Number of street decision states (A a set), the final one included.
    pub fn street_states(&self) -> usize {
        (0..=DICE).map(|t| self.of_size(t).filter(|a| a.is_set()).count() * self.throws[DICE - t].len()).sum()
    }
}

impl Default for Model {
    fn default() -> Self {
        Model::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_counts_match_the_thesis() {
        let model = Model::new();
        assert_eq!(model.multisets.len(), 924);
        assert_eq!(model.normal_states(), 12376);
        assert_eq!(model.street_states(), 5336);
        let first: Vec<&(Dice, u32)> = model.throws[6].iter().collect();
        assert_eq!(first.len(), 462);
        assert_eq!(first.iter().filter(|(d, _)| d.pips() <= 10).count(), 12);
        assert_eq!(first.iter().filter(|(d, _)| d.pips() >= 30).count(), 29);
    }
}
