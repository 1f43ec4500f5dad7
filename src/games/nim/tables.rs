//! The Nim tables: `positions` (every position of a task with each
//! algorithm's move), `agreement` (per task: verdicts agreeing with the
//! reference, returned moves legal and winning) and `halving` (Phi's tables).

use super::algorithms::{Move, Verdict, apply, bouton, is_legal, phi, pi};
use super::brute::Search;
use super::task::NimTask;
use crate::artifacts::columns::TableBuilder;
use crate::game::Table;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The algorithms, in table order.
pub const ALGORITHMS: [&str; 3] = ["pi", "phi", "bouton"];

fn run_all(heaps: &[u64]) -> [Verdict; 3] {
    [pi(heaps), phi(heaps).0, bouton(heaps)]
}

/// "2:6": leave 6 in heap 2 (heaps numbered from 1); "" for a lost position.
pub fn move_text(verdict: &Verdict) -> String {
    verdict.map_or_else(String::new, |m| format!("{}:{}", m.heap + 1, m.leave))
}

pub fn heaps_text(heaps: &[u64]) -> String {
    heaps.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

/// Every sorted tuple of `count` heaps of 0..=max (zeros stand for fewer heaps).
pub fn all_positions(count: usize, max: u64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(count);
    fn fill(current: &mut Vec<u64>, count: usize, low: u64, max: u64, out: &mut Vec<Vec<u64>>) {
        if current.len() == count {
            out.push(current.clone());
            return;
        }
        for h in low..=max {
            current.push(h);
            fill(current, count, h, max, out);
            current.pop();
        }
    }
    fill(&mut current, count, 0, max, &mut out);
    out
}

/// The random position with this index. Random heaps almost never XOR to
/// zero, so every odd index gets a last heap that makes the XOR zero: half
/// the positions are lost ones.
pub fn random_position(heaps: usize, bits: u32, seed: u64, index: u64) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (index + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let count = rng.random_range(2..=heaps);
    let mut position: Vec<u64> = (0..count).map(|_| rng.random_range(0..1u64 << bits)).collect();
    if index % 2 == 1 {
        let rest = position[..count - 1].iter().fold(0, |a, h| a ^ h);
        position[count - 1] = rest;
    }
    position
}

/// One analysed position.
pub struct Row {
    pub heaps: Vec<u64>,
    /// The reference verdict: exhaustive search, or Bouton's theorem (XOR != 0).
    pub reference_wins: bool,
    pub verdicts: [Verdict; 3],
    /// Per algorithm: verdict equals the reference.
    pub agrees: [bool; 3],
    /// Per algorithm: a returned move is legal and leaves a lost position.
    pub moves_win: [bool; 3],
}

/// Analyses a position against a reference that says whether a position is won.
pub fn analyse(heaps: Vec<u64>, wins: &mut dyn FnMut(&[u64]) -> bool) -> Row {
    let verdicts = run_all(&heaps);
    let reference_wins = wins(&heaps);
    let agrees = verdicts.map(|v| v.is_some() == reference_wins);
    let moves_win = verdicts.map(|v| v.is_none_or(|m: Move| is_legal(&heaps, &m) && !wins(&apply(&heaps, &m))));
    Row { heaps, reference_wins, verdicts, agrees, moves_win }
}

pub fn xor_wins(heaps: &[u64]) -> bool {
    heaps.iter().fold(0, |a, h| a ^ h) != 0
}

/// The rows of a positions task.
pub fn rows(task: &NimTask) -> Vec<Row> {
    match task {
        NimTask::Exhaustive { heaps, max_heap } => {
            let mut search = Search::default();
            all_positions(*heaps, *max_heap).into_iter().map(|p| analyse(p, &mut |h| search.wins(h))).collect()
        }
        NimTask::Random { heaps, bits, seed, first, last } => {
            (*first..=*last).map(|i| analyse(random_position(*heaps, *bits, *seed, i), &mut |h| xor_wins(h))).collect()
        }
        NimTask::Halving { .. } => Vec::new(),
    }
}

pub fn tables(task: &NimTask) -> anyhow::Result<Vec<Table>> {
    if let NimTask::Halving { positions } = task {
        return Ok(vec![halving(positions)?]);
    }
    let rows = rows(task);
    let kind = if matches!(task, NimTask::Exhaustive { .. }) { "exhaustive" } else { "random" };
    let mut positions = TableBuilder::new()
        .str("kind", rows.iter().map(|_| kind))
        .str("heaps", rows.iter().map(|r| heaps_text(&r.heaps)))
        .u64("xor", rows.iter().map(|r| r.heaps.iter().fold(0, |a, h| a ^ h)))
        .bool("reference_wins", rows.iter().map(|r| r.reference_wins));
    for (k, name) in ALGORITHMS.iter().enumerate() {
        positions = positions.str(name, rows.iter().map(|r| move_text(&r.verdicts[k])));
    }
    let positions = positions
        .bool("agree", rows.iter().map(|r| r.agrees.iter().all(|&a| a)))
        .bool("moves_winning", rows.iter().map(|r| r.moves_win.iter().all(|&a| a)))
        .build("positions")?;
    Ok(vec![positions, agreement(kind, &rows)?])
}

/// Per algorithm: verdicts agreeing with the reference, moves legal and winning.
pub fn agreement(kind: &str, rows: &[Row]) -> anyhow::Result<Table> {
    let count = |f: &dyn Fn(&Row) -> bool| rows.iter().filter(|r| f(r)).count() as u64;
    TableBuilder::new()
        .str("kind", ALGORITHMS.iter().map(|_| kind))
        .str(
            "reference",
            ALGORITHMS.iter().map(|_| if kind == "exhaustive" { "exhaustive search" } else { "xor (Bouton)" }),
        )
        .str("algorithm", ALGORITHMS)
        .u64("positions", ALGORITHMS.iter().map(|_| rows.len() as u64))
        .u64("won_positions", ALGORITHMS.iter().map(|_| count(&|r| r.reference_wins)))
        .u64("verdicts_agree", (0..3).map(|k| count(&|r| r.agrees[k])))
        .u64(
            "moves_legal_and_winning",
            (0..3).map(|k| count(&|r| r.reference_wins && r.moves_win[k] && r.verdicts[k].is_some())),
        )
        .build("agreement")
}

/// Phi's halving table of each position, top to bottom.
fn halving(positions: &[Vec<u64>]) -> anyhow::Result<Table> {
    let rows: Vec<(String, usize, super::algorithms::HalvingRow)> = positions
        .iter()
        .flat_map(|p| phi(p).1.into_iter().enumerate().map(move |(d, row)| (heaps_text(p), d, row)))
        .collect();
    TableBuilder::new()
        .str("position", rows.iter().map(|r| r.0.as_str()))
        .u32("depth", rows.iter().map(|r| r.1 as u32))
        .str("heaps", rows.iter().map(|r| heaps_text(&r.2.heaps)))
        .str("total_parity", rows.iter().map(|r| if r.2.total_odd { "odd" } else { "even" }))
        .bool("winnable", rows.iter().map(|r| r.2.verdict.is_some()))
        .str("move", rows.iter().map(|r| move_text(&r.2.verdict)))
        .build("halving")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_three_agree_with_exhaustive_search_up_to_three_heaps_of_15() {
        let rows = rows(&NimTask::Exhaustive { heaps: 3, max_heap: 15 });
        assert_eq!(rows.len(), 816, "C(18, 3) sorted triples");
        assert!(rows.iter().all(|r| r.agrees.iter().all(|&a| a) && r.moves_win.iter().all(|&m| m)));
    }

    #[test]
    fn large_random_positions_agree_with_xor() {
        let rows = rows(&NimTask::Random { heaps: 8, bits: 62, seed: 1, first: 0, last: 2000 });
        assert!(rows.iter().any(|r| r.heaps.iter().any(|&h| h > 1 << 60)));
        assert_eq!(rows.iter().filter(|r| !r.reference_wins).count(), 1000, "every odd index is a lost position");
        assert!(rows.iter().all(|r| r.agrees.iter().all(|&a| a) && r.moves_win.iter().all(|&m| m)));
    }
}
