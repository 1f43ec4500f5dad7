//! The exact values V(N) as the OEIS's b-files of A286676 (numerators) and
//! A286677 (denominators): "n a(n)" lines for n = 1, 2, ... up to the last N
//! before the first one without a checked value, from checked rows only
//! (`gamesweep export --format oeis`).

use crate::artifacts::OutputDir;
use crate::artifacts::columns::Columns;
use crate::exact::parse_canonical_pq;
use crate::export::{LeftOut, Unchecked, checked_rows, classify, write_file};
use anyhow::Context;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const GAME: &str = "higher_lower";
/// The OEIS numbers of the numerators' and the denominators' sequences.
pub const SEQUENCES: [u32; 2] = [286676, 286677];

/// What `write` wrote.
pub struct BFiles {
    pub files: Vec<(PathBuf, u64)>,
    /// The last n written (every V(1..=last) checked).
    pub last: u32,
    /// The first N past `last` that has no checked value, if the stored N go beyond it.
    pub gap: Option<u32>,
    pub left_out: Vec<LeftOut>,
}

/// Writes `dest`/b286676.txt and b286677.txt from DIR's checked `values`.
pub fn write(dir: &Path, dest: &Path, unchecked: Unchecked) -> anyhow::Result<BFiles> {
    let out = OutputDir::open(dir)?;
    let tasks = classify(&out, &[GAME], unchecked)?.pop().context("no higher-lower results in this directory")?;
    let with_values: Vec<&String> = {
        let parts = out.parts(GAME)?;
        tasks.checked.iter().filter(|t| parts.iter().any(|(table, task)| table == "values" && task == *t)).collect()
    };
    anyhow::ensure!(!with_values.is_empty(), "no checked higher-lower values in this directory");
    let mut values = BTreeMap::new();
    for batch in checked_rows(&out, GAME, "values", &with_values)? {
        exact_values(&batch, &mut values)?;
    }
    let last = (1..).take_while(|n| values.contains_key(n)).last().unwrap_or(0);
    anyhow::ensure!(last > 0, "N = 1 has no checked value");
    let mut files = Vec::new();
    for (sequence, part) in SEQUENCES.iter().zip([Part::Numerator, Part::Denominator]) {
        let text: String = (1..=last).map(|n| format!("{n} {}\n", part.of(&values[&n]))).collect();
        files.push(write_file(&dest.join(format!("b{sequence}.txt")), text.as_bytes())?);
    }
    let gap = values.keys().next_back().filter(|&&n| n > last).map(|_| last + 1);
    Ok(BFiles { files, last, gap, left_out: tasks.left_out })
}

#[derive(Clone, Copy)]
enum Part {
    Numerator,
    Denominator,
}

impl Part {
    /// The numerator or the denominator of a reduced "p/q".
    fn of(self, value: &(String, String)) -> &str {
        match self {
            Part::Numerator => &value.0,
            Part::Denominator => &value.1,
        }
    }
}

/// Adds V(N) by N as reduced (numerator, denominator) digits; the rows of
/// several methods at one N must agree.
fn exact_values(
    values: &arrow::record_batch::RecordBatch,
    by_n: &mut BTreeMap<u32, (String, String)>,
) -> anyhow::Result<()> {
    let (n, value) = (values.u32s("n")?, values.strs("value")?);
    for r in 0..values.num_rows() {
        let text = value.value(r);
        let exact = parse_canonical_pq(text).map_err(|e| anyhow::anyhow!("values: N = {}: {e}", n.value(r)))?;
        let (numerator, denominator) = exact.to_numerator_and_denominator();
        let pair = (numerator.to_string(), denominator.to_string());
        if let Some(other) = by_n.insert(n.value(r), pair.clone())
            && other != pair
        {
            anyhow::bail!("values: N = {}: two methods disagree ({}/{} and {text})", n.value(r), other.0, other.1);
        }
    }
    Ok(())
}
