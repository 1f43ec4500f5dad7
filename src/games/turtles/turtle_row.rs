//! Turning turtles: a row of turtles, on their backs (X) or upright (O). A
//! move turns one X upright and may also turn one turtle further left (either
//! way); whoever sets the last turtle upright wins. It is Nim with a heap of
//! size p for every X at position p (from 1 at the left): a Nim move leaving
//! K < M in heap M is turning turtle M and, if K > 0, turtle K.

use crate::games::nim::algorithms::{Move, bouton};

/// A row of turtles as a bitmask: bit p - 1 set when the turtle at position p is on its back.
pub type TurtleRow = u32;

/// Longest row (the brute force holds a byte per row of this length).
pub const MAX_LENGTH: u32 = 26;

/// "XOOX" for the row of `length` turtles.
pub fn text(row: TurtleRow, length: u32) -> String {
    (0..length).map(|p| if row >> p & 1 == 1 { 'X' } else { 'O' }).collect()
}

/// The Nim heaps of a row: the positions of its X's.
pub fn heaps(row: TurtleRow) -> Vec<u64> {
    (0..32u32).filter(|p| row >> p & 1 == 1).map(|p| u64::from(p) + 1).collect()
}

/// A turtle move: set `upright` (an X) upright, and turn `also` (left of it) if given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurtleMove {
    pub upright: u32,
    pub also: Option<u32>,
}

impl TurtleMove {
    pub fn is_legal(&self, row: TurtleRow, length: u32) -> bool {
        (1..=length).contains(&self.upright)
            && row >> (self.upright - 1) & 1 == 1
            && self.also.is_none_or(|j| (1..self.upright).contains(&j))
    }

    pub fn apply(&self, row: TurtleRow) -> TurtleRow {
        let mut next = row & !(1 << (self.upright - 1));
        if let Some(j) = self.also {
            next ^= 1 << (j - 1);
        }
        next
    }

    /// "4" or "4,1".
    pub fn text(&self) -> String {
        match self.also {
            Some(j) => format!("{},{j}", self.upright),
            None => self.upright.to_string(),
        }
    }

    /// The Nim move it stands for: heap `upright` reduced to `also` (or 0).
    pub fn to_nim(&self, heaps: &[u64]) -> Move {
        let heap = heaps.iter().position(|&h| h == u64::from(self.upright)).expect("the turtle is a heap");
        Move { heap, leave: self.also.map_or(0, u64::from) }
    }
}

/// The turtle move of a Nim move on the row's heaps.
pub fn from_nim(heaps: &[u64], m: &Move) -> TurtleMove {
    TurtleMove { upright: heaps[m.heap] as u32, also: (m.leave > 0).then_some(m.leave as u32) }
}

/// A winning move through Nim (Bouton's rule), or `None` if the row is lost.
pub fn winning_move(row: TurtleRow) -> Option<TurtleMove> {
    let h = heaps(row);
    bouton(&h).map(|m| from_nim(&h, &m))
}

/// Whether the player to move wins, for every row of `length` turtles, by
/// exhaustive search: a move clears its highest changed bit, so every move
/// leads to a smaller row and one pass upwards settles all.
pub fn brute_force(length: u32) -> Vec<bool> {
    let size = 1usize << length;
    let mut wins = vec![false; size];
    for row in 1..size as TurtleRow {
        wins[row as usize] = (1..=length).filter(|i| row >> (i - 1) & 1 == 1).any(|i| {
            let cleared = row & !(1 << (i - 1));
            !wins[cleared as usize] || (1..i).any(|j| !wins[(cleared ^ (1 << (j - 1))) as usize])
        });
    }
    wins
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nim_and_brute_force_agree_on_every_row_up_to_12() {
        for length in 1..=12 {
            let wins = brute_force(length);
            for row in 0..(1 << length) as TurtleRow {
                let m = winning_move(row);
                assert_eq!(m.is_some(), wins[row as usize], "{}", text(row, length));
                if let Some(m) = m {
                    assert!(m.is_legal(row, length));
                    assert!(!wins[m.apply(row) as usize], "{} by {}", text(row, length), m.text());
                }
            }
        }
    }

    #[test]
    fn the_columns_mapping() {
        // Heaps 3, 4, 5 are turtles on their backs at positions 3, 4 and 5.
        let row: TurtleRow = 0b11100;
        assert_eq!(heaps(row), vec![3, 4, 5]);
        assert_eq!(text(row, 5), "OOXXX");
        // Nim: leave 1 in the heap of 3 -> turn turtles 3 and 1.
        let m = winning_move(row).unwrap();
        assert_eq!(m, TurtleMove { upright: 3, also: Some(1) });
        assert_eq!(m.to_nim(&heaps(row)), Move { heap: 0, leave: 1 });
    }
}
