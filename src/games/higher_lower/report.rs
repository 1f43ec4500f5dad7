//! Higher-lower's report section: the published values beside ours, all of
//! ours read from the tables.

use crate::artifacts::columns::Columns;
use crate::artifacts::columns::TableBuilder;
use crate::game::{Dataset, ReportSection, Table};
use crate::published;
use arrow::record_batch::RecordBatch;
use std::collections::BTreeMap;
use std::fmt::Write;

pub fn report(data: &dyn Dataset) -> anyhow::Result<ReportSection> {
    let mut md = String::new();
    let mut tables = Vec::new();
    let Some(values) = data.table("higher_lower", "values")? else {
        return Ok(ReportSection { markdown: "No values table.\n".into(), tables, figures: Vec::new() });
    };
    let thesis = published::section("higher_lower");
    let by_n = best_rows(&values)?;
    writeln!(md, "Source: {}.\n", published::text(thesis, "source"))?;

    writeln!(md, "### Values V(N) against Johnson's\n")?;
    writeln!(md, "| N | published | ours | agrees |\n|---|---|---|---|")?;
    let johnson = thesis["johnson"].as_array().expect("johnson is a list");
    let value = values.strs("value")?;
    for (k, theirs) in johnson.iter().enumerate() {
        let theirs = theirs.as_str().expect("fractions as strings");
        let ours = by_n.get(&(k as u32 + 1)).map(|&r| value.value(r));
        writeln!(
            md,
            "| {} | {theirs} | {} | {} |",
            k + 1,
            ours.unwrap_or("not run"),
            agree(ours.map(|o| o == theirs))
        )?;
    }
    let v509 = published::text(thesis, "v509");
    let ours509 = by_n.get(&509).map(|&r| value.value(r));
    writeln!(
        md,
        "\nV(509) as printed in the thesis ({} digits over {}): {}.\n",
        v509.split('/').next().map_or(0, str::len),
        v509.split('/').nth(1).map_or(0, str::len),
        match ours509 {
            Some(ours) if ours == v509 => "ours is identical".to_string(),
            Some(ours) => format!("**ours differs**: `{ours}`"),
            None => "N = 509 not in this run".to_string(),
        }
    )?;

    writeln!(md, "### Table 3.1: most guesses used by Bob's optimal strategy\n")?;
    writeln!(md, "| guesses (thesis) | N (thesis) | our max guesses over these N | N run |\n|---|---|---|---|")?;
    let guesses = values.u8s("bob_max_guesses")?;
    let mut table_3_1: Vec<GuessRange> = Vec::new();
    for range in thesis["table_3_1"].as_array().expect("table_3_1 is a list") {
        let r: Vec<i64> =
            range.as_array().expect("triples").iter().map(|v| v.as_integer().expect("integers")).collect();
        let ours: Vec<u8> =
            (r[1]..=r[2]).filter_map(|n| by_n.get(&(n as u32)).map(|&row| guesses.value(row))).collect();
        let (lo, hi) = (ours.iter().min().copied(), ours.iter().max().copied());
        table_3_1.push(GuessRange {
            thesis: r[0] as u8,
            from: r[1] as u32,
            to: r[2] as u32,
            least: lo,
            most: hi,
            run: ours.len() as u32,
        });
        let summary = match (lo, hi) {
            (Some(lo), Some(hi)) if lo == hi => lo.to_string(),
            (Some(lo), Some(hi)) => format!("{lo} to {hi}"),
            _ => "-".into(),
        };
        writeln!(md, "| {} | {}-{} | {summary} | {} |", r[0], r[1], r[2], ours.len())?;
    }
    let ran: Vec<&GuessRange> = table_3_1.iter().filter(|r| r.run > 0).collect();
    tables.push(
        TableBuilder::new()
            .u8("thesis_max_guesses", ran.iter().map(|r| r.thesis))
            .u32("n_from", ran.iter().map(|r| r.from))
            .u32("n_to", ran.iter().map(|r| r.to))
            .u8("ours_least", ran.iter().map(|r| r.least.expect("ran")))
            .u8("ours_most", ran.iter().map(|r| r.most.expect("ran")))
            .u32("n_run", ran.iter().map(|r| r.run))
            .build("table_3_1")?,
    );
    writeln!(
        md,
        "\nOurs is the largest tree height in the computed optimal mixture; Bob's optimal mixture need not be unique.\n"
    )?;

    tables.extend(conjectures_section(&mut md, data)?);

    writeln!(md, "### Solver effort per method\n")?;
    writeln!(
        md,
        "| method | N solved | median rounds | median simplex pivots | median seconds | exact repairs |\n|---|---|---|---|---|---|"
    )?;
    let (method, rounds, iterations, seconds, status) = (
        values.strs("method")?,
        values.u32s("rounds")?,
        values.u64s("iterations")?,
        values.f64s("solve_seconds")?,
        values.strs("exact_status")?,
    );
    let mut repaired_notes: Vec<String> = Vec::new();
    let mut methods: Vec<&str> = (0..values.num_rows()).map(|r| method.value(r)).collect();
    methods.sort_unstable();
    methods.dedup();
    for m in methods {
        let rows: Vec<usize> = (0..values.num_rows()).filter(|&r| method.value(r) == m).collect();
        let median = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let repaired: Vec<usize> = rows.iter().copied().filter(|&r| status.value(r) == "repaired").collect();
        let (n, pivots, reason) = (values.u32s("n")?, values.u32s("exact_pivots")?, values.strs("repair_reason")?);
        let repairs: Vec<String> = repaired.iter().map(|&r| n.value(r).to_string()).collect();
        repaired_notes.extend(
            repaired
                .iter()
                .map(|&r| format!("- {m}, N = {}: {} exact pivots; {}", n.value(r), pivots.value(r), reason.value(r))),
        );
        writeln!(
            md,
            "| {m} | {} | {:.0} | {:.0} | {:.3} | {} |",
            rows.len(),
            median(rows.iter().map(|&r| f64::from(rounds.value(r))).collect()),
            median(rows.iter().map(|&r| iterations.value(r) as f64).collect()),
            median(rows.iter().map(|&r| seconds.value(r)).collect()),
            if repairs.is_empty() { "none".to_string() } else { format!("N = {}", repairs.join(", ")) }
        )?;
    }
    tables.push(effort_table(&values)?);
    if let Some(trace) = data.table("higher_lower", "trace")? {
        tables.push(bound_trace(&trace, BOUND_TRACE_N)?);
    }
    if !repaired_notes.is_empty() {
        writeln!(md, "\nWhere the float stage alone was wrong, and how the exact stage repaired it:\n")?;
        writeln!(md, "{}", repaired_notes.join("\n"))?;
    }
    let failed: Vec<String> = thesis["failed_in_thesis"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|v| v.as_integer())
        .filter_map(|n| {
            by_n.get(&(n as u32)).map(|&r| {
                format!("N = {n}: {}", values.strs("exact_status").map(|s| s.value(r).to_string()).unwrap_or_default())
            })
        })
        .collect();
    if !failed.is_empty() {
        writeln!(md, "\nThe thesis lost these N to floating point; here: {}.", failed.join(", "))?;
    }
    if let Some(v) = data.table("higher_lower", "verification")? {
        let status = v.strs("status")?;
        let count = |s: &str| status.iter().filter(|x| *x == Some(s)).count();
        writeln!(
            md,
            "\nVerification: {} tasks certified, {} repaired, {} failed.",
            count("certified"),
            count("repaired"),
            count("failed")
        )?;
    }
    md.push('\n');
    writeln!(md, "### Figures\n")?;
    let mut figures = Vec::new();
    for (figure, caption) in super::figures::figures(data, &values, &by_n)? {
        md.push_str(&figure.markdown(&caption));
        figures.push(figure);
    }
    Ok(ReportSection { markdown: md, tables, figures })
}

/// The N of the thesis's figure 3.6 (upper and lower bound per iteration).
const BOUND_TRACE_N: u32 = 100;

/// The solver's effort per N and method (the thesis's figure 3.5).
fn effort_table(values: &RecordBatch) -> anyhow::Result<Table> {
    let schema = values.schema();
    let keep = ["n", "method", "rounds", "iterations", "pricing_calls", "columns", "warm_started", "solve_seconds"];
    let indices = keep.iter().map(|name| schema.index_of(name)).collect::<Result<Vec<_>, _>>()?;
    Ok(Table { name: "iterations", batch: values.project(&indices)? })
}

/// The trace of the bounds during the solve of N = `n`, every method (the thesis's figure 3.6).
fn bound_trace(trace: &RecordBatch, n: u32) -> anyhow::Result<Table> {
    let mask: arrow::array::BooleanArray = trace.u32s("n")?.iter().map(|v| Some(v == Some(n))).collect();
    Ok(Table { name: "bound_trace_n100", batch: arrow::compute::filter_record_batch(trace, &mask)? })
}

/// One row of the thesis's Table 3.1 beside the most guesses in our computed
/// optimal mixtures over its N (least and most of those maxima).
struct GuessRange {
    thesis: u8,
    from: u32,
    to: u32,
    least: Option<u8>,
    most: Option<u8>,
    run: u32,
}

/// Johnson's and Gilbert's conjectures over the run: where each applies,
/// holds and fails, and on how many N the check covers all optimal strategies.
fn conjectures_section(md: &mut String, data: &dyn Dataset) -> anyhow::Result<Option<Table>> {
    let Some(table) = data.table("higher_lower", "conjectures")? else {
        return Ok(None);
    };
    // (name, N checked, holds, failing N, alpha unique on)
    let mut summary: Vec<(&str, u32, u32, String, u32)> = Vec::new();
    let (n, method, name) = (table.u32s("n")?, table.strs("method")?, table.strs("name")?);
    let (applies, holds, scope) = (table.bools("applies")?, table.bools("holds")?, table.strs("scope")?);
    writeln!(md, "### Conjectures (Johnson, Gilbert) on Alice's optimal strategy\n")?;
    writeln!(md, "| conjecture | N checked | holds | fails at N | alpha proven unique on |\n|---|---|---|---|---|")?;
    for conjecture in super::conjectures::NAMES {
        // One row per N (the first method in name order, as elsewhere).
        let mut rows: BTreeMap<u32, usize> = BTreeMap::new();
        for r in (0..table.num_rows()).filter(|&r| name.value(r) == conjecture && applies.value(r)) {
            if rows.get(&n.value(r)).is_none_or(|&old| method.value(r) < method.value(old)) {
                rows.insert(n.value(r), r);
            }
        }
        let fails: Vec<u32> = rows.iter().filter(|(_, r)| !holds.value(**r)).map(|(n, _)| *n).collect();
        let unique = rows.values().filter(|&&r| scope.value(r).starts_with("all optimal")).count();
        let failing =
            super::verify::ranges(&fails).trim().trim_start_matches("(N = ").trim_end_matches(')').to_string();
        writeln!(
            md,
            "| {conjecture} | {} | {} | {} | {unique} of {} N |",
            rows.len(),
            rows.len() - fails.len(),
            if fails.is_empty() { "none" } else { &failing },
            rows.len()
        )?;
        summary.push((conjecture, rows.len() as u32, (rows.len() - fails.len()) as u32, failing, unique as u32));
    }
    writeln!(
        md,
        "\nWhere alpha is proven unique the verdict holds for every optimal strategy of Alice's; elsewhere it is for the computed one.\n"
    )?;
    Ok(Some(
        TableBuilder::new()
            .str("name", summary.iter().map(|r| r.0))
            .u32("n_checked", summary.iter().map(|r| r.1))
            .u32("n_holds", summary.iter().map(|r| r.2))
            .str("fails_at", summary.iter().map(|r| r.3.as_str()))
            .u32("n_alpha_unique", summary.iter().map(|r| r.4))
            .build("conjectures_summary")?,
    ))
}

/// Row per N to report: the first method in name order that has the N.
fn best_rows(values: &RecordBatch) -> anyhow::Result<BTreeMap<u32, usize>> {
    let (n, method) = (values.u32s("n")?, values.strs("method")?);
    let mut rows: BTreeMap<u32, usize> = BTreeMap::new();
    for r in 0..values.num_rows() {
        let keep = rows.get(&n.value(r)).is_none_or(|&old| method.value(r) < method.value(old));
        if keep {
            rows.insert(n.value(r), r);
        }
    }
    Ok(rows)
}

fn agree(ok: Option<bool>) -> &'static str {
    match ok {
        Some(true) => "yes",
        Some(false) => "**no**",
        None => "-",
    }
}
