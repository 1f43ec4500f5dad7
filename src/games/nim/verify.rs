//! Exact checks of stored Nim results: the positions are regenerated, the
//! reference recomputed (exhaustive search, or XOR for large heaps), every
//! stored move parsed back and checked legal and winning, and the agreement
//! table recounted.

use super::algorithms::{Move, apply, is_legal, phi};
use super::brute::Search;
use super::tables::{ALGORITHMS, agreement, all_positions, heaps_text, move_text, random_position, rows, xor_wins};
use super::task::NimTask;
use crate::artifacts::columns::{Columns, first_difference};
use crate::game::{StoredTask, Verdict};
use crate::keys::{exact_sequence, exact_tables};

pub fn verify(task: &NimTask, stored: &StoredTask) -> anyhow::Result<Verdict> {
    if let NimTask::Halving { positions } = task {
        if let Err(why) = halving_keys(positions, stored) {
            return Ok(Verdict::failed(why));
        }
        let t = stored.table("halving")?;
        let expected: usize = positions.iter().map(|p| phi(p).1.len()).sum();
        let moves = t.strs("move")?;
        for r in 0..t.num_rows() {
            let heaps: Vec<u64> = parse_heaps(t.strs("heaps")?.value(r))?;
            let won = xor_wins(&heaps);
            if t.bools("winnable")?.value(r) != won || !move_wins(&heaps, moves.value(r), &mut |h| xor_wins(h))? {
                return Ok(Verdict::failed(format!(
                    "halving row {r} ({}): verdict or move wrong by XOR",
                    heaps_text(&heaps)
                )));
            }
        }
        return Ok(if t.num_rows() == expected {
            Verdict::certified(format!("{} halving rows: verdicts and moves confirmed by XOR", t.num_rows()))
        } else {
            Verdict::failed("halving tables have the wrong number of rows")
        });
    }
    if let Err(why) = exact_tables(stored, &["positions", "agreement"]) {
        return Ok(Verdict::failed(why));
    }
    let t = stored.table("positions")?;
    let (exhaustive, positions): (bool, Vec<Vec<u64>>) = match task {
        NimTask::Exhaustive { heaps, max_heap } => (true, all_positions(*heaps, *max_heap)),
        NimTask::Random { heaps, bits, seed, first, last } => {
            (false, (*first..=*last).map(|i| random_position(*heaps, *bits, *seed, i)).collect())
        }
        NimTask::Halving { .. } => unreachable!("handled above"),
    };
    if t.num_rows() != positions.len() {
        return Ok(Verdict::failed(format!("{} positions stored, {} expected", t.num_rows(), positions.len())));
    }
    let mut search = Search::default();
    let mut wins = |h: &[u64]| if exhaustive { search.wins(h) } else { xor_wins(h) };
    let kind = if exhaustive { "exhaustive" } else { "random" };
    let (kinds, xors, reference) = (t.strs("kind")?, t.u64s("xor")?, t.bools("reference_wins")?);
    let (agree, moves_winning) = (t.bools("agree")?, t.bools("moves_winning")?);
    for (r, heaps) in positions.iter().enumerate() {
        if t.strs("heaps")?.value(r) != heaps_text(heaps) {
            return Ok(Verdict::failed(format!("row {r}: position differs from the regenerated one")));
        }
        let won = wins(heaps);
        let xor = heaps.iter().fold(0, |a, h| a ^ h);
        // Every move is checked below, so every algorithm agrees with the reference.
        if kinds.value(r) != kind
            || xors.value(r) != xor
            || reference.value(r) != won
            || !agree.value(r)
            || !moves_winning.value(r)
        {
            return Ok(Verdict::failed(format!(
                "{}: kind, xor, reference_wins, agree or moves_winning is not what the position gives",
                heaps_text(heaps)
            )));
        }
        for name in ALGORITHMS {
            let text = t.strs(name)?.value(r);
            if text.is_empty() == won || !move_wins(heaps, text, &mut wins)? {
                return Ok(Verdict::failed(format!("{} {name}: {text:?} is wrong", heaps_text(heaps))));
            }
        }
    }
    let recount = agreement(kind, &rows(task))?;
    if let Some(diff) = first_difference(stored.table("agreement")?, &recount.batch) {
        return Ok(Verdict::failed(format!("agreement: {diff}")));
    }
    Ok(Verdict::certified(format!(
        "{} positions: every verdict equals {}, every move legal and leaving a lost position, agreement recounted",
        positions.len(),
        if exhaustive { "exhaustive search" } else { "the XOR rule" }
    )))
}

/// The halving rows are exactly Phi's table of each planned position, in order.
fn halving_keys(positions: &[Vec<u64>], stored: &StoredTask) -> Result<(), String> {
    exact_tables(stored, &["halving"])?;
    let t = stored.table("halving").map_err(|e| e.to_string())?;
    let column = |name: &str| -> Result<Vec<String>, String> {
        let c = t.strs(name).map_err(|e| e.to_string())?;
        Ok((0..t.num_rows()).map(|r| c.value(r).to_string()).collect())
    };
    let depth = t.u32s("depth").map_err(|e| e.to_string())?;
    let (position, heaps, parity) = (column("position")?, column("heaps")?, column("total_parity")?);
    let stored_rows =
        (0..t.num_rows()).map(|r| (position[r].clone(), depth.value(r), heaps[r].clone(), parity[r].clone())).collect();
    let planned = positions
        .iter()
        .flat_map(|p| {
            phi(p).1.into_iter().enumerate().map(move |(d, row)| {
                let parity = if row.total_odd { "odd" } else { "even" };
                (heaps_text(p), d as u32, heaps_text(&row.heaps), parity.to_string())
            })
        })
        .collect();
    exact_sequence("halving", stored_rows, planned, |k| {
        format!("position {}, depth {} (heaps {}, {})", k.0, k.1, k.2, k.3)
    })
}

fn parse_heaps(text: &str) -> anyhow::Result<Vec<u64>> {
    text.split(',').filter(|s| !s.is_empty()).map(|h| Ok(h.parse()?)).collect()
}

/// An empty text (no move) passes; else "heap:leave" must be legal and leave a lost position.
fn move_wins(heaps: &[u64], text: &str, wins: &mut dyn FnMut(&[u64]) -> bool) -> anyhow::Result<bool> {
    if text.is_empty() {
        return Ok(true);
    }
    let (heap, leave) = text.split_once(':').ok_or_else(|| anyhow::anyhow!("bad move {text:?}"))?;
    let m = Move { heap: heap.parse::<usize>()? - 1, leave: leave.parse()? };
    debug_assert_eq!(move_text(&Some(m)), text);
    Ok(is_legal(heaps, &m) && !wins(&apply(heaps, &m)))
}
