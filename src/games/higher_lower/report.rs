//! Higher-lower's report section: the published values beside ours, all of
//! ours read from the tables.

use super::face::verdicts::ClaimVerdict;
use crate::artifacts::columns::Columns;
use crate::artifacts::columns::TableBuilder;
use crate::game::{Dataset, ReportSection, Table};
use crate::markdown::{code_span, plain};
use crate::published;
use crate::report::verification_summary;
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

    values_section(&mut md, thesis, &values, &by_n)?;
    tables.push(table_3_1_section(&mut md, thesis, &values, &by_n)?);
    tables.extend(conjectures_section(&mut md, data)?);
    tables.extend(effort_section(&mut md, data, thesis, &values, &by_n)?);
    md.push('\n');
    writeln!(md, "### Figures\n")?;
    let mut figures = Vec::new();
    for (figure, caption) in super::figures::figures(data, &values, &by_n)? {
        md.push_str(&figure.markdown(&caption));
        figures.push(figure);
    }
    Ok(ReportSection { markdown: md, tables, figures })
}

/// V(N) beside Johnson's published values, and V(509) beside the thesis's.
fn values_section(
    md: &mut String,
    thesis: &toml::Table,
    values: &RecordBatch,
    by_n: &BTreeMap<u32, usize>,
) -> anyhow::Result<()> {
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
            ours.map_or("not run".to_string(), plain),
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
            Some(ours) => format!("**ours differs**: {}", code_span(ours)),
            None => "N = 509 not in this run".to_string(),
        }
    )?;
    Ok(())
}

/// Table 3.1 (Bob's most guesses) beside the thesis's ranges, with how the
/// least over Bob's optimal mixtures is proven; the comparison as a table.
fn table_3_1_section(
    md: &mut String,
    thesis: &toml::Table,
    values: &RecordBatch,
    by_n: &BTreeMap<u32, usize>,
) -> anyhow::Result<Table> {
    writeln!(md, "### Table 3.1: most guesses used by Bob's optimal strategy\n")?;
    let (guesses, at_least) = (values.u8s("bob_max_guesses")?, values.u8s("bob_tallest_at_least")?);
    let ours: BTreeMap<u32, (u8, u8)> =
        by_n.iter().map(|(&n, &row)| (n, (guesses.value(row), at_least.value(row)))).collect();
    let ranges: Vec<(u8, u32, u32)> =
        published::integer_rows(thesis, "table_3_1").iter().map(|r| (r[0] as u8, r[1] as u32, r[2] as u32)).collect();
    let rows = guesses_beside_thesis(&ranges, &ours);
    writeln!(
        md,
        "| N | guesses (thesis) | our mixture's max guesses | least over Bob's optimal mixtures |\n|---|---|---|---|"
    )?;
    let same = |a: &GuessRow, b: &GuessRow| (a.thesis, a.ours, a.at_least) == (b.thesis, b.ours, b.at_least);
    for run in rows.chunk_by(|a, b| same(a, b) && a.n + 1 == b.n) {
        let (first, last) = (&run[0], &run[run.len() - 1]);
        let thesis = first.thesis.map_or("- (beyond the thesis)".to_string(), |g| g.to_string());
        writeln!(md, "| {}-{} | {thesis} | {} | {} |", first.n, last.n, first.ours, least(first))?;
    }
    let differ: Vec<String> = rows
        .iter()
        .filter(|r| r.thesis.is_some_and(|g| g != r.ours))
        .map(|r| format!("{} ({})", r.n, r.ours))
        .collect();
    let open: Vec<u32> = rows.iter().filter(|r| r.thesis.is_some() && r.at_least < r.ours).map(|r| r.n).collect();
    let in_thesis: Vec<&GuessRow> = rows.iter().filter(|r| r.thesis.is_some()).collect();
    let table = TableBuilder::new()
        .u32("n", in_thesis.iter().map(|r| r.n))
        .u8("thesis_max_guesses", in_thesis.iter().filter_map(|r| r.thesis))
        .u8("ours_max_guesses", in_thesis.iter().map(|r| r.ours))
        .u8("optimal_at_least", in_thesis.iter().map(|r| r.at_least))
        .build("table_3_1")?;
    writeln!(
        md,
        "\nOurs is the largest tree height in the computed optimal mixture. The least over all of Bob's optimal \
         mixtures is proven equal to ours where some alpha of Alice's makes every tree one level shorter cost \
         more than V (then no mixture of such trees is optimal): her optimal alpha, or where a shorter tree ties \
         with V against it, the optimal alpha of the game in which Bob may only use the shorter trees (stored \
         in `height_proofs`, re-checked by `verify`); elsewhere only the lower bound shown is proven. N where ours differs from the thesis (ours in brackets): {}. N of the thesis's table where the \
         least is not proven equal to ours: {}.\n",
        if differ.is_empty() { "none".to_string() } else { differ.join(", ") },
        if open.is_empty() { "none".to_string() } else { n_list(&open) }
    )?;
    Ok(table)
}

/// The solver's effort per method, the exact repairs, the N the thesis lost
/// to floating point, and the verification counts; the effort tables.
fn effort_section(
    md: &mut String,
    data: &dyn Dataset,
    thesis: &toml::Table,
    values: &RecordBatch,
    by_n: &BTreeMap<u32, usize>,
) -> anyhow::Result<Vec<Table>> {
    let mut tables = Vec::new();
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
        repaired_notes.extend(repaired.iter().map(|&r| {
            format!("- {}, N = {}: {} exact pivots; {}", plain(m), n.value(r), pivots.value(r), plain(reason.value(r)))
        }));
        writeln!(
            md,
            "| {} | {} | {:.0} | {:.0} | {:.3} | {} |",
            plain(m),
            rows.len(),
            median(rows.iter().map(|&r| f64::from(rounds.value(r))).collect()),
            median(rows.iter().map(|&r| iterations.value(r) as f64).collect()),
            median(rows.iter().map(|&r| seconds.value(r)).collect()),
            if repairs.is_empty() { "none".to_string() } else { format!("N = {}", repairs.join(", ")) }
        )?;
    }
    tables.push(effort_table(values)?);
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
                format!("N = {n}: {}", values.strs("exact_status").map(|s| plain(s.value(r))).unwrap_or_default())
            })
        })
        .collect();
    if !failed.is_empty() {
        writeln!(md, "\nThe thesis lost these N to floating point; here: {}.", failed.join(", "))?;
    }
    if let Some(summary) = verification_summary(data, "higher_lower")? {
        writeln!(md, "\n{summary}")?;
    }
    Ok(tables)
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

/// One N of the run: the most guesses of our computed optimal mixture, the
/// proven lower bound over all optimal mixtures and, where the thesis's
/// Table 3.1 covers N, its number.
#[derive(Debug, PartialEq)]
struct GuessRow {
    n: u32,
    ours: u8,
    at_least: u8,
    thesis: Option<u8>,
}

/// "7 (proven)" where the proven bound meets ours, "6..7" otherwise.
fn least(row: &GuessRow) -> String {
    if row.at_least == row.ours { format!("{} (proven)", row.ours) } else { format!("{}..{}", row.at_least, row.ours) }
}

/// Our most guesses (and the proven least) per N beside the thesis's ranges (guesses, first N, last N).
fn guesses_beside_thesis(ranges: &[(u8, u32, u32)], ours: &BTreeMap<u32, (u8, u8)>) -> Vec<GuessRow> {
    let thesis = |n: u32| ranges.iter().find(|&&(_, from, to)| (from..=to).contains(&n)).map(|r| r.0);
    ours.iter().map(|(&n, &(g, at_least))| GuessRow { n, ours: g, at_least, thesis: thesis(n) }).collect()
}

/// Every claim over the run (the built-in conjectures, then the others by
/// name), decided over every optimal alpha: per claim the N where it holds
/// for every optimal alpha, fails for every one, or depends on which (with
/// witnesses), and where it does not apply.
fn conjectures_section(md: &mut String, data: &dyn Dataset) -> anyhow::Result<Option<Table>> {
    let Some(table) = data.table("higher_lower", "conjectures")? else {
        return Ok(None);
    };
    let verdicts = claim_summaries(&table)?;
    writeln!(md, "### Conjectures and claims over every optimal strategy of Alice's\n")?;
    writeln!(
        md,
        "| claim | statement | N where it applies | holds for every optimal alpha | fails for every optimal alpha at N | depends on the optimal alpha at N | holds for the computed alpha |\n|---|---|---|---|---|---|---|"
    )?;
    let mut undecided_notes: Vec<String> = Vec::new();
    let mut summary = Vec::new();
    for claim in &verdicts {
        let row = ConjectureSummary {
            name: claim.name.clone(),
            statement: claim.statement.clone(),
            checked: claim.applies().len() as u32,
            holds_for_every: claim.with(ClaimVerdict::HoldsForEvery).len() as u32,
            fails_for_every: n_list(&claim.with(ClaimVerdict::FailsForEvery)),
            depends: n_list(&claim.with(ClaimVerdict::Depends)),
            computed_holds: claim.computed_holds,
        };
        let undecided = claim.with(ClaimVerdict::Undecided);
        if !undecided.is_empty() {
            undecided_notes.push(format!("{} at N = {}", plain(&claim.name), n_list(&undecided)));
        }
        let or_none = |s: &str| if s.is_empty() { "none".to_string() } else { s.to_string() };
        writeln!(
            md,
            "| {} | {} | {} | {} N | {} | {} | {} N |",
            plain(&row.name),
            code_span(&row.statement),
            or_none(&short_n_list(&claim.applies())),
            row.holds_for_every,
            or_none(&short_n_list(&claim.with(ClaimVerdict::FailsForEvery))),
            or_none(&short_n_list(&claim.with(ClaimVerdict::Depends))),
            row.computed_holds
        )?;
        summary.push(row);
    }
    writeln!(
        md,
        "\nEach verdict covers all of Alice's optimal strategies: linear programs over her optimal face, \
         certified exactly (proven bounds where it holds or fails for every optimal alpha, two exact optimal \
         witnesses where it depends; stored in `conjecture_proofs` and re-checked by `verify`). The first four \
         are the built-in conjectures (Johnson's (1)-(3) and Gilbert's dips, `data/conjectures.toml`); the claim \
         language is in docs/claims.md. Undecided (a face LP failed; the run's log says why): {}.\n",
        if undecided_notes.is_empty() { "none".to_string() } else { undecided_notes.join("; ") }
    )?;
    Ok(Some(
        TableBuilder::new()
            .str("name", summary.iter().map(|r| r.name.as_str()))
            .str("statement", summary.iter().map(|r| r.statement.as_str()))
            .u32("n_checked", summary.iter().map(|r| r.checked))
            .u32("n_holds_for_every", summary.iter().map(|r| r.holds_for_every))
            .str("fails_for_every_at", summary.iter().map(|r| r.fails_for_every.as_str()))
            .str("depends_at", summary.iter().map(|r| r.depends.as_str()))
            .u32("n_computed_holds", summary.iter().map(|r| r.computed_holds))
            .build("conjectures_summary")?,
    ))
}

/// One claim's verdicts over a run, one per N (the first method in name
/// order where several solved N, as elsewhere).
pub(super) struct ClaimSummary {
    pub name: String,
    pub statement: String,
    /// (N, verdict, the row's detail) in N order.
    pub by_n: Vec<(u32, ClaimVerdict, String)>,
    /// N where it holds for the computed alpha.
    pub computed_holds: u32,
}

impl ClaimSummary {
    /// The N with this verdict.
    pub fn with(&self, verdict: ClaimVerdict) -> Vec<u32> {
        self.by_n.iter().filter(|(_, v, _)| *v == verdict).map(|(n, _, _)| *n).collect()
    }

    /// The N where the claim applies.
    pub fn applies(&self) -> Vec<u32> {
        self.by_n.iter().filter(|(_, v, _)| *v != ClaimVerdict::NotApplicable).map(|(n, _, _)| *n).collect()
    }

    /// One line per verdict, with its N (`gamesweep conjecture` prints them):
    /// "holds for every optimal alpha at 5..1024 except 7; fails for every
    /// optimal alpha at 7; ...", then where it does not apply, by reason.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let applies = self.applies();
        let holds = self.with(ClaimVerdict::HoldsForEvery);
        if !holds.is_empty() {
            let except: Vec<u32> = applies.iter().copied().filter(|n| !holds.contains(n)).collect();
            let (first, last) = (applies[0], applies[applies.len() - 1]);
            let few_exceptions = !except.is_empty() && except.len() * 4 < holds.len();
            lines.push(if few_exceptions {
                format!("holds for every optimal alpha at {first}..{last} except {}", short_n_list(&except))
            } else {
                format!("holds for every optimal alpha at {}", short_n_list(&holds))
            });
        }
        for (verdict, text) in [
            (ClaimVerdict::FailsForEvery, "fails for every optimal alpha at"),
            (ClaimVerdict::Depends, "depends on the optimal alpha at"),
            (ClaimVerdict::Undecided, "undecided (a face LP failed) at"),
        ] {
            let ns = self.with(verdict);
            if !ns.is_empty() {
                let witnesses = if verdict == ClaimVerdict::Depends { " (witnesses stored)" } else { "" };
                lines.push(format!("{text} {}{witnesses}", short_n_list(&ns)));
            }
        }
        // Where it does not apply, one line per reason (the first three; the rows' detail has every one).
        let mut reasons: Vec<(&str, Vec<u32>)> = Vec::new();
        for (n, _, why) in self.by_n.iter().filter(|(_, v, _)| *v == ClaimVerdict::NotApplicable) {
            match reasons.iter_mut().find(|(reason, _)| *reason == why.as_str()) {
                Some((_, ns)) => ns.push(*n),
                None => reasons.push((why, vec![*n])),
            }
        }
        for (reason, ns) in reasons.iter().take(3) {
            lines.push(format!("does not apply at {} ({reason})", short_n_list(ns)));
        }
        let others: Vec<u32> = reasons.iter().skip(3).flat_map(|(_, ns)| ns.iter().copied()).collect();
        if !others.is_empty() {
            lines.push(format!(
                "does not apply at {} either (other reasons: see the rows' detail)",
                short_n_list(&others)
            ));
        }
        lines
    }
}

/// Every claim of a `conjectures` table: the built-in ones first, in their
/// order, then the others by name.
pub(super) fn claim_summaries(table: &RecordBatch) -> anyhow::Result<Vec<ClaimSummary>> {
    let (n, method, name) = (table.u32s("n")?, table.strs("method")?, table.strs("name")?);
    let (statement, holds, verdict, detail) =
        (table.strs("statement")?, table.bools("holds")?, table.strs("verdict")?, table.strs("detail")?);
    let mut rows: BTreeMap<(&str, u32), usize> = BTreeMap::new();
    for r in 0..table.num_rows() {
        let key = (name.value(r), n.value(r));
        if rows.get(&key).is_none_or(|&old| method.value(r) < method.value(old)) {
            rows.insert(key, r);
        }
    }
    let mut names: Vec<&str> = rows.keys().map(|(name, _)| *name).collect();
    names.dedup();
    let builtin_rank = |name: &str| super::claims::builtin().iter().position(|c| c.name.as_str() == name);
    names.sort_by_key(|name| (builtin_rank(name).unwrap_or(usize::MAX), *name));
    names
        .into_iter()
        .map(|claim| {
            let mine: Vec<usize> = rows.range((claim, 0)..=(claim, u32::MAX)).map(|(_, &r)| r).collect();
            let by_n = mine
                .iter()
                .map(|&r| {
                    let v = ClaimVerdict::parse(verdict.value(r))
                        .ok_or_else(|| anyhow::anyhow!("conjectures: verdict {:?}", verdict.value(r)))?;
                    Ok((n.value(r), v, detail.value(r).to_string()))
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            Ok(ClaimSummary {
                name: claim.to_string(),
                statement: statement.value(mine[0]).to_string(),
                by_n,
                computed_holds: mine.iter().filter(|&&r| holds.value(r)).count() as u32,
            })
        })
        .collect()
}

/// One claim over the run (a row of `conjectures_summary`).
struct ConjectureSummary {
    name: String,
    statement: String,
    /// N where the conjecture applies.
    checked: u32,
    /// N where it holds for every optimal alpha.
    holds_for_every: u32,
    /// N where it fails for every optimal alpha ("1..5, 9" style).
    fails_for_every: String,
    /// N where it holds for some optimal alpha and fails for another.
    depends: String,
    /// N where it holds for the computed alpha.
    computed_holds: u32,
}

/// `n_list` shortened to its first four and last two runs when it has more
/// than eight: "1, 3, 5, 7, ..., 117, 119 (60 N)".
fn short_n_list(ns: &[u32]) -> String {
    let full = n_list(ns);
    let runs: Vec<&str> = full.split(", ").collect();
    if runs.len() <= 8 {
        return full;
    }
    format!("{}, ..., {} ({} N)", runs[..4].join(", "), runs[runs.len() - 2..].join(", "), ns.len())
}

/// "1..5, 9" for the N 1, 2, 3, 4, 5, 9; empty for none.
fn n_list(ns: &[u32]) -> String {
    super::verify::ranges(ns).trim().trim_start_matches("(N = ").trim_end_matches(')').to_string()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A dataset holding only a conjectures table.
    struct Conjectures(RecordBatch);

    impl Dataset for Conjectures {
        fn table(&self, game: &str, table: &str) -> anyhow::Result<Option<RecordBatch>> {
            Ok((game == "higher_lower" && table == "conjectures").then(|| self.0.clone()))
        }
    }

    #[test]
    fn our_guesses_sit_beside_the_thesis_range_that_covers_each_n() {
        let ranges = [(2, 2, 2), (3, 3, 4)];
        let ours: BTreeMap<u32, (u8, u8)> = [(2, (2, 2)), (3, (3, 3)), (4, (4, 4)), (5, (3, 3))].into_iter().collect();
        let row = |n, ours, thesis| GuessRow { n, ours, at_least: ours, thesis };
        assert_eq!(
            guesses_beside_thesis(&ranges, &ours),
            vec![row(2, 2, Some(2)), row(3, 3, Some(3)), row(4, 4, Some(3)), row(5, 3, None)]
        );
    }

    #[test]
    fn the_summary_lists_the_three_verdicts() {
        // Johnson (2) at N = 6..12: does not apply (6), holds for every alpha (7, 12),
        // fails for every (8, 9), depends (10, 11, the computed alpha failing at 10);
        // plus a second method at N = 10 that is not read.
        use ClaimVerdict::*;
        let rows: [(u32, &str, bool, ClaimVerdict); 8] = [
            (6, "auto", false, NotApplicable),
            (7, "auto", true, HoldsForEvery),
            (8, "auto", false, FailsForEvery),
            (9, "auto", false, FailsForEvery),
            (10, "auto", false, Depends),
            (10, "dresher", true, HoldsForEvery),
            (11, "auto", true, Depends),
            (12, "auto", true, HoldsForEvery),
        ];
        let table = TableBuilder::new()
            .u32("n", rows.iter().map(|r| r.0))
            .str("method", rows.iter().map(|r| r.1))
            .str("name", rows.iter().map(|_| "alpha1_eq_2_alpha2"))
            .str("statement", rows.iter().map(|_| "a[1] = 2*a[2]"))
            .u32("from_n", rows.iter().map(|_| 7))
            .str("when", rows.iter().map(|_| ""))
            .bool("applies", rows.iter().map(|r| r.3 != NotApplicable))
            .bool("holds", rows.iter().map(|r| r.2))
            .str("verdict", rows.iter().map(|r| r.3.as_str()))
            .str("detail", rows.iter().map(|r| if r.0 == 6 { "N < 7 (from)" } else { "" }))
            .build("conjectures")
            .unwrap();
        let mut md = String::new();
        let summary = conjectures_section(&mut md, &Conjectures(table.batch.clone())).unwrap().unwrap().batch;
        let row = (0..summary.num_rows()).find(|&r| summary.strs("name").unwrap().value(r) == "alpha1_eq_2_alpha2");
        let row = row.unwrap();
        let text = |c: &str| summary.strs(c).unwrap().value(row).to_string();
        let count = |c: &str| summary.u32s(c).unwrap().value(row);
        assert_eq!((count("n_checked"), count("n_holds_for_every"), count("n_computed_holds")), (6, 2, 3));
        assert_eq!(text("fails_for_every_at"), "8..9");
        assert_eq!(text("depends_at"), "10..11");
        assert!(
            md.contains("| alpha1\\_eq\\_2\\_alpha2 | ` a[1] = 2*a[2] ` | 7..12 | 2 N | 8..9 | 10..11 | 3 N |"),
            "{md}"
        );
        let lines = claim_summaries(&table.batch).unwrap()[0].lines();
        assert_eq!(
            lines,
            [
                "holds for every optimal alpha at 7, 12",
                "fails for every optimal alpha at 8..9",
                "depends on the optimal alpha at 10..11 (witnesses stored)",
                "does not apply at 6 (N < 7 (from))",
            ]
        );
    }
}
