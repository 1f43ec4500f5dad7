//! The turtles table `rows`: every row of one length with its Nim verdict and
//! move, the exhaustive verdict, and whether the move is legal, winning and
//! maps back to Nim.

use super::turtle_row::{TurtleMove, TurtleRow, brute_force, heaps, text, winning_move};
use crate::artifacts::columns::TableBuilder;
use crate::game::Table;
use crate::games::nim::algorithms::{Move, apply};

/// One row: its Nim verdict and move, the exhaustive verdict, and the checks.
struct Solved {
    row: TurtleRow,
    nim_wins: bool,
    brute_wins: bool,
    mv: Option<TurtleMove>,
    legal_and_winning: bool,
    maps_back: bool,
}

/// Every row of `length` turtles, solved through Nim and by exhaustive search.
fn solve_all(length: u32) -> Vec<Solved> {
    let wins = brute_force(length);
    (0..(1u64 << length) as TurtleRow)
        .map(|row| {
            let mv = winning_move(row);
            let h = heaps(row);
            let legal_and_winning = mv.is_none_or(|m| m.is_legal(row, length) && !wins[m.apply(row) as usize]);
            // The turtle move's Nim move leaves the same XOR as the turtle move itself.
            let maps_back = mv.is_none_or(|m| {
                let nim: Move = m.to_nim(&h);
                xor(&apply(&h, &nim)) == xor(&heaps(m.apply(row)))
            });
            Solved { row, nim_wins: mv.is_some(), brute_wins: wins[row as usize], mv, legal_and_winning, maps_back }
        })
        .collect()
}

fn xor(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0, |a, h| a ^ h)
}

pub fn rows_table(length: u32) -> anyhow::Result<Table> {
    let solved = solve_all(length);
    TableBuilder::new()
        .u32("length", solved.iter().map(|_| length))
        .str("row", solved.iter().map(|s| text(s.row, length)))
        .str("heaps", solved.iter().map(|s| heaps(s.row).iter().map(u64::to_string).collect::<Vec<_>>().join(",")))
        .bool("nim_wins", solved.iter().map(|s| s.nim_wins))
        .bool("brute_wins", solved.iter().map(|s| s.brute_wins))
        .str("move", solved.iter().map(|s| s.mv.map_or_else(String::new, |m| m.text())))
        .str(
            "nim_move",
            solved.iter().map(|s| {
                s.mv.map_or_else(String::new, |m| {
                    let nim = m.to_nim(&heaps(s.row));
                    format!("{}:{}", nim.heap + 1, nim.leave)
                })
            }),
        )
        .bool("legal_and_winning", solved.iter().map(|s| s.legal_and_winning))
        .bool("maps_back", solved.iter().map(|s| s.maps_back))
        .build("rows")
}
