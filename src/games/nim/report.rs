//! The Nim section of the report: the agreement of the three algorithms with
//! the reference, and the column's worked examples beside ours.

use crate::artifacts::columns::Columns;
use crate::game::{Dataset, ReportSection};
use crate::markdown::plain;
use crate::published;
use std::collections::BTreeMap;
use std::fmt::Write;

pub fn report(data: &dyn Dataset) -> anyhow::Result<ReportSection> {
    let source = published::section("nim");
    let mut md = format!("Source: {}.\n\n", published::text(source, "source"));
    match data.table("nim", "agreement")? {
        Some(a) => {
            writeln!(md, "### Agreement with the reference\n")?;
            writeln!(
                md,
                "| positions | reference | algorithm | positions | won | verdicts agree | winning moves legal and winning |\n|---|---|---|---|---|---|---|"
            )?;
            let mut pooled: BTreeMap<(String, String, String), [u64; 4]> = BTreeMap::new();
            for r in 0..a.num_rows() {
                let key = (
                    a.strs("kind")?.value(r).to_string(),
                    a.strs("reference")?.value(r).to_string(),
                    a.strs("algorithm")?.value(r).to_string(),
                );
                let p = pooled.entry(key).or_default();
                p[0] += a.u64s("positions")?.value(r);
                p[1] += a.u64s("won_positions")?.value(r);
                p[2] += a.u64s("verdicts_agree")?.value(r);
                p[3] += a.u64s("moves_legal_and_winning")?.value(r);
            }
            for ((kind, reference, algorithm), p) in &pooled {
                writeln!(
                    md,
                    "| {} | {} | {} | {} | {} | {} ({:.2}%) | {} of {} ({:.2}%) |",
                    plain(kind),
                    plain(reference),
                    plain(algorithm),
                    p[0],
                    p[1],
                    p[2],
                    100.0 * p[2] as f64 / p[0] as f64,
                    p[3],
                    p[1],
                    100.0 * p[3] as f64 / p[1].max(1) as f64
                )?;
            }
            md.push('\n');
        }
        None => md.push_str("_No Nim positions in this run._\n\n"),
    }
    if let Some(h) = data.table("nim", "halving")? {
        writeln!(md, "### Phi's halving tables (the column prints 19, 5, 3 and the halved games of 10, 8, 6)\n")?;
        writeln!(md, "| position | heaps | total | winnable | move (heap:leave) |\n|---|---|---|---|---|")?;
        for r in 0..h.num_rows() {
            writeln!(
                md,
                "| {} | {} | {} | {} | {} |",
                plain(h.strs("position")?.value(r)),
                plain(h.strs("heaps")?.value(r)),
                plain(h.strs("total_parity")?.value(r)),
                if h.bools("winnable")?.value(r) { "yes" } else { "no" },
                plain(h.strs("move")?.value(r))
            )?;
        }
        let printed: Vec<String> = published::integer_rows(source, "halving_19_5_3")
            .iter()
            .map(|v| {
                let mv = if v[4] < 0 { String::new() } else { format!("1:{}", v[4]) };
                format!("{},{},{} {} {}", v[0], v[1], v[2], if v[3] == 1 { "odd" } else { "even" }, mv)
            })
            .collect();
        let ours: Vec<String> = (0..h.num_rows())
            .filter(|&r| h.strs("position").map(|p| p.value(r) == "19,5,3").unwrap_or(false))
            .map(|r| {
                format!(
                    "{} {} {}",
                    h.strs("heaps").expect("heaps").value(r),
                    h.strs("total_parity").expect("parity").value(r),
                    h.strs("move").expect("move").value(r)
                )
            })
            .collect();
        writeln!(
            md,
            "\nThe column's table for 19, 5, 3 (heaps, parity of the total, leave in heap A): {}.\n",
            if ours.is_empty() {
                "not in this run".to_string()
            } else if ours == printed {
                "ours is identical".to_string()
            } else {
                format!("**ours differs**: {} vs {}", quoted_list(&ours), quoted_list(&printed))
            }
        )?;
    }
    Ok(ReportSection { markdown: md, tables: Vec::new(), figures: Vec::new() })
}

/// `["a", "b"]`, each item inert in the Markdown.
fn quoted_list(items: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|s| format!("\"{}\"", plain(s))).collect();
    format!("[{}]", items.join(", "))
}
