//! The exact check of one length: the exhaustive verdicts recomputed by a
//! memoised recursion (not the run's bottom-up pass), every stored move parsed,
//! applied and checked.

use super::turtle_row::{TurtleMove, TurtleRow, heaps, text};
use crate::artifacts::columns::Columns;
use crate::game::{StoredTask, Verdict};
use crate::keys::{exact_sequence, exact_tables};

/// Checks the stored `rows` of one length.
pub fn verify(length: u32, task: &StoredTask) -> anyhow::Result<Verdict> {
    if let Err(why) = exact_tables(task, &["rows"]) {
        return Ok(Verdict::failed(why));
    }
    let t = task.table("rows")?;
    let rows: Vec<String> =
        (0..t.num_rows()).map(|r| Ok(t.strs("row")?.value(r).to_string())).collect::<anyhow::Result<_>>()?;
    let planned = (0..1u64 << length).map(|row| text(row as TurtleRow, length)).collect();
    if let Err(why) = exact_sequence("rows", rows, planned, |row| format!("row {row}")) {
        return Ok(Verdict::failed(why));
    }
    let mut memo = vec![0u8; 1 << length];
    for r in 0..t.num_rows() {
        let row = r as TurtleRow;
        let nim_heaps = heaps(row);
        let heaps_text = nim_heaps.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        if t.u32s("length")?.value(r) != length || t.strs("heaps")?.value(r) != heaps_text {
            return Ok(Verdict::failed(format!("{}: length or heaps differ from the row's", text(row, length))));
        }
        let wins = memo_wins(row, length, &mut memo);
        let stored_move = t.strs("move")?.value(r);
        let mv = parse_move(stored_move)?;
        let ok = t.bools("brute_wins")?.value(r) == wins
            && t.bools("nim_wins")?.value(r) == wins
            && mv.is_some() == wins
            && mv.is_none_or(|m| m.is_legal(row, length) && !memo_wins(m.apply(row), length, &mut memo))
            && t.strs("nim_move")?.value(r)
                == mv.map_or_else(String::new, |m| {
                    let nim = m.to_nim(&nim_heaps);
                    format!("{}:{}", nim.heap + 1, nim.leave)
                })
            && t.bools("maps_back")?.value(r)
            && t.bools("legal_and_winning")?.value(r);
        if !ok {
            return Ok(Verdict::failed(format!("{}: verdict or move {stored_move:?} wrong", text(row, length))));
        }
    }
    Ok(Verdict::certified(format!(
        "all {} rows of length {length}: Nim verdict = exhaustive search, every move legal, winning and mapped back to Nim",
        t.num_rows()
    )))
}

/// Memoised recursion: 1 = lost, 2 = won, 0 = unknown.
fn memo_wins(row: TurtleRow, length: u32, memo: &mut [u8]) -> bool {
    if memo[row as usize] == 0 {
        let mut win = false;
        'moves: for i in (1..=length).filter(|i| row >> (i - 1) & 1 == 1) {
            let cleared = row & !(1 << (i - 1));
            for next in std::iter::once(cleared).chain((1..i).map(|j| cleared ^ (1 << (j - 1)))) {
                if !memo_wins(next, length, memo) {
                    win = true;
                    break 'moves;
                }
            }
        }
        memo[row as usize] = if win { 2 } else { 1 };
    }
    memo[row as usize] == 2
}

fn parse_move(text: &str) -> anyhow::Result<Option<TurtleMove>> {
    if text.is_empty() {
        return Ok(None);
    }
    let mut parts = text.split(',').map(str::parse::<u32>);
    let upright = parts.next().ok_or_else(|| anyhow::anyhow!("empty move"))??;
    let also = parts.next().transpose()?;
    Ok(Some(TurtleMove { upright, also }))
}
