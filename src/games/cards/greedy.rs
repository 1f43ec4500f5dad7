//! The greedy opponent: it takes the larger end of the row (the left one on a
//! tie) and, when it moves first, its first card sets where the player's part
//! of the game starts. Both the strategies (play.rs) and the optimum against
//! greedy (optimal.rs) build on this rule; this module imports neither.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Left,
    Right,
}

/// Who takes the first card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Order {
    PlayerFirst,
    OpponentFirst,
}

impl Order {
    pub const BOTH: [Order; 2] = [Order::PlayerFirst, Order::OpponentFirst];

    pub fn as_str(self) -> &'static str {
        match self {
            Order::PlayerFirst => "player-first",
            Order::OpponentFirst => "opponent-first",
        }
    }
}

/// The greedy choice on cards a..=b: the left card if it is at least the right one.
pub fn greedy_takes_left(row: &[u32], a: usize, b: usize) -> bool {
    row[a] >= row[b]
}

/// The greedy choice on cards a..=b as a side.
pub fn greedy(row: &[u32], a: usize, b: usize) -> Side {
    if greedy_takes_left(row, a, b) { Side::Left } else { Side::Right }
}

/// Where the player's part of the game starts: (first card, number of cards)
/// with the player to move, after the opponent's first card if it starts.
pub fn start(row: &[u32], order: Order) -> (usize, usize) {
    let n = row.len();
    match order {
        Order::PlayerFirst => (0, n),
        Order::OpponentFirst if n == 0 => (0, 0),
        Order::OpponentFirst => (usize::from(greedy_takes_left(row, 0, n - 1)), n - 1),
    }
}
