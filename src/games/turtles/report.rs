//! The turtles section of the report: per length, rows won and every check's count.

use crate::artifacts::columns::Columns;
use crate::game::{Dataset, ReportSection};
use std::fmt::Write;

pub fn report(data: &dyn Dataset) -> anyhow::Result<ReportSection> {
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
