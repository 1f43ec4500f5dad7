//! Turning turtles (seed 003), solved through Nim and by exhaustive search on
//! every row of the configured lengths; moves mapped to Nim and back.

pub mod rows;

use crate::artifacts::columns::{Columns, TableBuilder};
use crate::config::Section;
use crate::error::UserError;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict};
use crate::games::nim::algorithms::{Move, apply};
use crate::grid::IntGrid;
use crate::keys::{exact_sequence, exact_tables};
use rows::{MAX_LENGTH, Row, brute_force, heaps, text, winning_move};
use serde::Deserialize;
use std::fmt::Write;

/// The `[turtles]` config section.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurtlesConfig {
    /// Row lengths: every row of each length is solved (2^length rows).
    lengths: IntGrid<1, MAX_LENGTH>,
}

pub struct Turtles;

/// Every row of one length.
#[derive(Debug, Clone, PartialEq)]
struct LengthTask(u32);

impl Task for LengthTask {
    fn id(&self) -> String {
        format!("length-{}", self.0)
    }

    fn run(&self, _context: &dyn TaskContext) -> anyhow::Result<Vec<Table>> {
        Ok(vec![rows_table(self.0)?])
    }

    /// The exhaustive verdicts recomputed by a memoised recursion (not the
    /// run's bottom-up pass); every stored move parsed, applied and checked.
    fn verify(&self, task: &StoredTask) -> anyhow::Result<Verdict> {
        let length = self.0;
        if let Err(why) = exact_tables(task, &["rows"]) {
            return Ok(Verdict::failed(why));
        }
        let t = task.table("rows")?;
        let rows: Vec<String> =
            (0..t.num_rows()).map(|r| Ok(t.strs("row")?.value(r).to_string())).collect::<anyhow::Result<_>>()?;
        let planned = (0..1u64 << length).map(|row| text(row as Row, length)).collect();
        if let Err(why) = exact_sequence("rows", rows, planned, |row| format!("row {row}")) {
            return Ok(Verdict::failed(why));
        }
        let mut memo = vec![0u8; 1 << length];
        for r in 0..t.num_rows() {
            let row = r as Row;
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

    fn cost_hint(&self) -> f64 {
        1e-8 * f64::from(self.0).powi(2) * (1u64 << self.0) as f64
    }
}

/// One row: its Nim verdict and move, the exhaustive verdict, and the checks.
struct Solved {
    row: Row,
    nim_wins: bool,
    brute_wins: bool,
    mv: Option<rows::TurtleMove>,
    legal_and_winning: bool,
    maps_back: bool,
}

fn solve_all(length: u32) -> Vec<Solved> {
    let wins = brute_force(length);
    (0..(1u64 << length) as Row)
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

fn rows_table(length: u32) -> anyhow::Result<Table> {
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

impl Game for Turtles {
    fn name(&self) -> &'static str {
        "turtles"
    }

    fn tiny_config(&self) -> &'static str {
        "lengths = { from = 1, to = 6 }\n"
    }

    fn plan(&self, section: &Section) -> Result<Vec<Box<dyn Task>>, UserError> {
        let config: TurtlesConfig = section.parse()?;
        Ok(config.lengths.values().iter().map(|&l| Box::new(LengthTask(l)) as Box<dyn Task>).collect())
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        let mut md = String::new();
        let Some(t) = data.table("turtles", "rows")? else {
            md.push_str("_No turtle rows in this run._\n\n");
            return Ok(ReportSection { markdown: md, tables: Vec::new(), figures: Vec::new() });
        };
        writeln!(
            md,
            "| length | rows | won | Nim = exhaustive search | moves legal and winning | moves map back to Nim |\n|---|---|---|---|---|---|"
        )?;
        let mut by_length: std::collections::BTreeMap<u32, [u64; 5]> = Default::default();
        for r in 0..t.num_rows() {
            let c = by_length.entry(t.u32s("length")?.value(r)).or_default();
            c[0] += 1;
            c[1] += u64::from(t.bools("brute_wins")?.value(r));
            c[2] += u64::from(t.bools("nim_wins")?.value(r) == t.bools("brute_wins")?.value(r));
            c[3] += u64::from(t.bools("legal_and_winning")?.value(r));
            c[4] += u64::from(t.bools("maps_back")?.value(r));
        }
        for (length, c) in by_length {
            writeln!(md, "| {length} | {} | {} | {} | {} | {} |", c[0], c[1], c[2], c[3], c[4])?;
        }
        md.push('\n');
        Ok(ReportSection { markdown: md, tables: Vec::new(), figures: Vec::new() })
    }
}

/// Memoised recursion: 1 = lost, 2 = won, 0 = unknown.
fn memo_wins(row: Row, length: u32, memo: &mut [u8]) -> bool {
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

fn parse_move(text: &str) -> anyhow::Result<Option<rows::TurtleMove>> {
    if text.is_empty() {
        return Ok(None);
    }
    let mut parts = text.split(',').map(str::parse::<u32>);
    let upright = parts.next().ok_or_else(|| anyhow::anyhow!("empty move"))??;
    let also = parts.next().transpose()?;
    Ok(Some(rows::TurtleMove { upright, also }))
}
