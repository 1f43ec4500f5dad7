//! Fritzen's report section: the thesis's numbers beside ours, all of ours
//! read from the tables (the exact margins from the verification's findings).

use super::dice::Dice;
use crate::artifacts::columns::{Columns, TableBuilder};
use crate::exact::{parse_pq, to_f64};
use crate::game::{Dataset, Figure, ReportSection, Table};
use crate::grid::parse_exact;
use crate::markdown::plain;
use crate::plot::{Axis, Bars, Plot, Series};
use crate::published;
use arrow::record_batch::RecordBatch;
use std::collections::BTreeMap;
use std::fmt::Write;

pub fn report(data: &dyn Dataset) -> anyhow::Result<ReportSection> {
    let thesis = published::section("fritzen");
    let mut md = format!("Source: {}.\n\n", published::text(thesis, "source"));
    let mut tables = Vec::new();
    reference(&mut md, data, thesis)?;
    if let Some(t) = table_4(&mut md, data, thesis)? {
        tables.push(t);
    }
    summaries(&mut md, data)?;
    let mut figures = Vec::new();
    simulations(&mut md, data, thesis, &mut figures)?;
    rollouts(&mut md, data)?;
    thresholds(&mut md, data, &mut figures)?;
    Ok(ReportSection { markdown: md, tables, figures })
}

fn missing(md: &mut String, what: &str) -> std::fmt::Result {
    writeln!(md, "_{what}: not in this run._\n")
}

fn reference(md: &mut String, data: &dyn Dataset, thesis: &toml::Table) -> anyhow::Result<()> {
    writeln!(md, "### Expected penalty U_x of throwing for x\n")?;
    match data.table("fritzen", "penalties")? {
        Some(p) => {
            writeln!(
                md,
                "| x | published | ours (exact) | ours | agrees to the printed digits |\n|---|---|---|---|---|"
            )?;
            let printed = thesis["u"].as_array().expect("u is a list");
            for (r, theirs) in printed.iter().enumerate().take(p.num_rows()) {
                let theirs = theirs.as_str().expect("strings");
                let ours = p.f64s("u_f64")?.value(r);
                let digits = theirs.split('.').nth(1).map_or(0, str::len);
                let agrees = format!("{ours:.digits$}") == theirs || (theirs == "0" && ours == 0.0);
                writeln!(md, "| {r} | {theirs} | {} | {ours:.6} | {} |", plain(p.strs("u")?.value(r)), yes(agrees))?;
            }
            md.push('\n');
        }
        None => missing(md, "U_x")?,
    }
    writeln!(md, "### State space and optimal probabilities\n")?;
    if let Some(s) = data.table("fritzen", "state_space")? {
        writeln!(md, "| quantity | published | ours |\n|---|---|---|")?;
        for r in 0..s.num_rows() {
            let name = s.strs("name")?.value(r);
            // A stored name the thesis has no number for (a forged table) gets none.
            let theirs = if thesis.contains_key(name) { published::text(thesis, name) } else { "-".into() };
            writeln!(md, "| {} | {theirs} | {} |", plain(name), s.u64s("count")?.value(r))?;
        }
    }
    if let Some(g) = data.table("fritzen", "goal_probabilities")? {
        for (r, key) in ["p_t_le_10", "p_t_ge_30", "p_no_own_penalty"].iter().enumerate().take(g.num_rows()) {
            let theirs = published::text(thesis, key);
            let ours = 100.0 * g.f64s("probability_f64")?.value(r);
            let agrees = format!("{ours:.2}") == theirs;
            writeln!(
                md,
                "| max P({}) | {theirs}% | {ours:.4}% ({}; exact {}) |",
                plain(g.strs("goal")?.value(r)),
                if agrees { "agrees" } else { "**differs**" },
                plain(g.strs("probability")?.value(r))
            )?;
        }
    }
    md.push('\n');
    Ok(())
}

/// Table 4: the first throws that go for the street at R = 12, per goal.
fn table_4(md: &mut String, data: &dyn Dataset, thesis: &toml::Table) -> anyhow::Result<Option<Table>> {
    writeln!(md, "### Table 4: first throws for which the street is optimal (R = 12)\n")?;
    let Some(first) = data.table("fritzen", "first_throw")? else {
        missing(md, "first throws")?;
        return Ok(None);
    };
    let exact = data.table("fritzen", "exact_first_throw")?;
    let twelve = parse_exact("12").expect("a number");
    writeln!(
        md,
        "| (lambda, mu) | published | ours: street throws (besides 1-6) | agrees | differences (exact W0 - V0) |\n|---|---|---|---|---|"
    )?;
    let mut rows_out: Vec<(String, String, String, u32, bool, String)> = Vec::new();
    for row in thesis["table_4"].as_array().expect("table_4 is a list") {
        let row = row.as_array().expect("rows are lists");
        let text = |i: usize| row[i].as_str().expect("strings").to_string();
        let (lambda, mu) = (parse_exact(&text(0)).expect("number"), parse_exact(&text(1)).expect("number"));
        let faces: Vec<u8> = text(2).bytes().map(|b| b - b'0').collect();
        let max_sixes = row[3].as_integer().expect("integer");
        let printed = text(4);
        let rows = matching_rows(&first, &lambda, &mu, &twelve)?;
        if rows.is_empty() {
            writeln!(md, "| ({}, {}) | {printed} | not run | - | |", text(0), text(1))?;
            continue;
        }
        let street_all = Dice::from_counts([1; 6]).to_string();
        let ours: Vec<(usize, Dice)> = rows
            .iter()
            .filter(|&&r| first.bools("go_street").map(|g| g.value(r)).unwrap_or(false))
            .map(|&r| (r, parse_dice(first.strs("throw").expect("throw").value(r))))
            .filter(|(_, d)| d.to_string() != street_all)
            .collect();
        let qualifies = |d: &Dice| {
            !faces.is_empty()
                && d.faces().iter().all(|f| faces.contains(f))
                && (max_sixes < 0 || i64::from(d.count(6)) <= max_sixes)
        };
        let all_first: Vec<(usize, Dice)> = rows
            .iter()
            .map(|&r| (r, parse_dice(first.strs("throw").expect("throw").value(r))))
            .filter(|(_, d)| d.to_string() != street_all)
            .collect();
        let printed_set: Vec<&(usize, Dice)> = all_first.iter().filter(|(_, d)| qualifies(d)).collect();
        let extra: Vec<&(usize, Dice)> = ours.iter().filter(|(_, d)| !qualifies(d)).collect();
        let lacking: Vec<&&(usize, Dice)> =
            printed_set.iter().filter(|(_, d)| !ours.iter().any(|(_, o)| o == d)).collect();
        let agrees = extra.is_empty() && lacking.is_empty();
        let groups = [("+", extra.clone()), ("-", lacking.iter().map(|x| **x).collect::<Vec<_>>())]
            .iter()
            .flat_map(|(sign, rows)| group_by_margin(exact.as_ref(), &first, rows, sign))
            .collect::<Vec<_>>();
        let differences: Vec<String> = groups.iter().map(|g| g.text(|s| s.to_string())).collect();
        let shown: Vec<String> = groups.iter().map(|g| g.text(plain)).collect();
        let summary = describe(&ours.iter().map(|(_, d)| *d).collect::<Vec<_>>());
        writeln!(
            md,
            "| ({}, {}) | {printed} | {summary} | {} | {} |",
            text(0),
            text(1),
            yes(agrees),
            shown.join("; ")
        )?;
        rows_out.push((text(0), text(1), printed, ours.len() as u32, agrees, differences.join("; ")));
    }
    writeln!(
        md,
        "\n+ counts throws where our street is optimal and the printed rule says no, - the reverse. The margin W0 - V0 (negative: the street is better) decides each; its exact value is in `fritzen/exact_first_throw` (written by `verify`), grouped here by value.\n"
    )?;
    Ok(Some(
        TableBuilder::new()
            .str("lambda", rows_out.iter().map(|r| r.0.as_str()))
            .str("mu", rows_out.iter().map(|r| r.1.as_str()))
            .str("published", rows_out.iter().map(|r| r.2.as_str()))
            .u32("ours_street_throws", rows_out.iter().map(|r| r.3))
            .bool("agrees", rows_out.iter().map(|r| r.4))
            .str("differences", rows_out.iter().map(|r| r.5.as_str()))
            .build("table_4")?,
    ))
}

/// "n throws, faces {...}, up to k sixes" (or "none").
fn describe(throws: &[Dice]) -> String {
    if throws.is_empty() {
        return "none".into();
    }
    let mut faces: Vec<u8> = throws.iter().flat_map(|d| d.faces()).collect();
    faces.sort_unstable();
    faces.dedup();
    let sixes = throws.iter().map(|d| d.count(6)).max().unwrap_or(0);
    let faces: Vec<String> = faces.iter().map(u8::to_string).collect();
    format!(
        "{} throws of faces {}{}",
        throws.len(),
        faces.join(","),
        if sixes > 0 { format!(", up to {sixes} sixes") } else { String::new() }
    )
}

fn parse_dice(text: &str) -> Dice {
    Dice::from_faces(&text.split(',').filter_map(|f| f.parse().ok()).collect::<Vec<u8>>()).expect("stored dice")
}

/// Row indices of `t` for one setting.
fn matching_rows(
    t: &RecordBatch,
    lambda: &crate::exact::Rational,
    mu: &crate::exact::Rational,
    pot: &crate::exact::Rational,
) -> anyhow::Result<Vec<usize>> {
    let (l, m, p) = (t.strs("lambda")?, t.strs("mu")?, t.strs("pot")?);
    let is = |s: &str, r: &crate::exact::Rational| parse_pq(s).ok().as_ref() == Some(r);
    Ok((0..t.num_rows()).filter(|&i| is(l.value(i), lambda) && is(m.value(i), mu) && is(p.value(i), pot)).collect())
}

/// Differing throws of one sign that share a margin W0 - V0.
struct MarginGroup<'a> {
    sign: &'a str,
    value: f64,
    exact: Option<ExactMargin>,
    throws: Vec<Dice>,
}

/// A margin's exact value and tie note, as stored by the verification.
struct ExactMargin {
    margin: String,
    tie: String,
}

impl MarginGroup<'_> {
    /// "+12 throws (e.g. ...): W0 - V0 = -66.99989 (exact: 97/96 digits)",
    /// the stored strings passed through `show` (raw for a table, made inert
    /// for the Markdown).
    fn text(&self, show: impl Fn(&str) -> String) -> String {
        let examples: Vec<String> = self.throws.iter().take(3).map(Dice::to_string).collect();
        let exact = match &self.exact {
            None => "f64 only: setting not recomputed exactly".to_string(),
            Some(ExactMargin { margin, tie }) => {
                let (p, q) = margin.trim_start_matches('-').split_once('/').unwrap_or((margin, "1"));
                let exact = if margin.len() <= 24 {
                    format!("exact {}", show(margin))
                } else {
                    format!("exact: {}/{} digits", p.len(), q.len())
                };
                if tie.is_empty() { exact } else { format!("{exact}, {}", show(tie)) }
            }
        };
        format!(
            "{}{} throw{} ({}{}): W0 - V0 = {:+.6} ({exact})",
            self.sign,
            self.throws.len(),
            if self.throws.len() == 1 { "" } else { "s" },
            examples.join("; "),
            if self.throws.len() > 3 { "; ..." } else { "" },
            self.value
        )
    }
}

/// Differing throws grouped by their margin W0 - V0, in the order of the
/// margin.
fn group_by_margin<'a>(
    exact: Option<&RecordBatch>,
    first: &RecordBatch,
    rows: &[&(usize, Dice)],
    sign: &'a str,
) -> Vec<MarginGroup<'a>> {
    let mut groups: BTreeMap<String, MarginGroup<'a>> = BTreeMap::new();
    for (r, d) in rows {
        let (value, exact) = match exact_margin(exact, first, *r, d) {
            Some((value, margin)) => (value, Some(margin)),
            None => (first.f64s("margin").map(|m| m.value(*r)).unwrap_or(f64::NAN), None),
        };
        groups
            .entry(format!("{value:+.9e}"))
            .or_insert(MarginGroup { sign, value, exact, throws: Vec::new() })
            .throws
            .push(*d);
    }
    groups.into_values().collect()
}

/// The exact margin of a first throw from the verification's findings: its
/// value and the stored fraction and tie note.
fn exact_margin(
    exact: Option<&RecordBatch>,
    first: &RecordBatch,
    row: usize,
    throw: &Dice,
) -> Option<(f64, ExactMargin)> {
    let e = exact?;
    let key = |t: &RecordBatch, r: usize| -> Option<(String, String, String)> {
        Some((
            t.strs("lambda").ok()?.value(r).to_string(),
            t.strs("mu").ok()?.value(r).to_string(),
            t.strs("pot").ok()?.value(r).to_string(),
        ))
    };
    let want = key(first, row)?;
    let text = throw.to_string();
    let throws = e.strs("throw").ok()?;
    (0..e.num_rows()).find(|&r| key(e, r).as_ref() == Some(&want) && throws.value(r) == text).map(|r| {
        let margin = e.strs("margin").expect("margin").value(r);
        let tie = e.strs("tie").expect("tie").value(r);
        let value = parse_pq(margin).map(|m| to_f64(&m)).unwrap_or(f64::NAN);
        (value, ExactMargin { margin: margin.to_string(), tie: tie.to_string() })
    })
}

fn summaries(md: &mut String, data: &dyn Dataset) -> anyhow::Result<()> {
    let Some(s) = data.table("fritzen", "summary")? else {
        return Ok(missing(md, "settings")?);
    };
    writeln!(md, "### Settings solved\n")?;
    writeln!(md, "{} settings (lambda, mu, R). The first 12 by expected cost:\n", s.num_rows())?;
    writeln!(
        md,
        "| lambda | mu | R | expected cost | without street | P(T<=10) | P(T>=30) | P(no own penalty) | P(street) | street first throws |\n|---|---|---|---|---|---|---|---|---|---|"
    )?;
    let mut order: Vec<usize> = (0..s.num_rows()).collect();
    let cost = s.f64s("expected_cost")?;
    order.sort_by(|&a, &b| cost.value(a).total_cmp(&cost.value(b)));
    for &r in order.iter().take(12) {
        writeln!(
            md,
            "| {} | {} | {} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {} |",
            s.f64s("lambda_f64")?.value(r),
            s.f64s("mu_f64")?.value(r),
            s.f64s("pot_f64")?.value(r),
            cost.value(r),
            s.f64s("expected_cost_no_street")?.value(r),
            s.f64s("p_t_le_10")?.value(r),
            s.f64s("p_t_ge_30")?.value(r),
            s.f64s("p_no_own_penalty")?.value(r),
            s.f64s("p_street")?.value(r),
            s.u32s("street_first_throws")?.value(r)
        )?;
    }
    md.push('\n');
    Ok(())
}

fn simulations(
    md: &mut String,
    data: &dyn Dataset,
    thesis: &toml::Table,
    figures: &mut Vec<Figure>,
) -> anyhow::Result<()> {
    let Some(t) = data.table("fritzen", "sim")? else {
        return Ok(missing(md, "simulations")?);
    };
    simulation_rows(md, &t)?;
    let by_goal = street_pairs(&t)?;
    if let Some(figure) = simulation_figure(&by_goal)? {
        md.push_str(&figure.markdown(
            "\nMean own penalty and penalty dealt per turn, with and without the street option (thesis figure 4).",
        ));
        figures.push(figure);
    }
    street_effect(md, thesis, &by_goal)?;
    md.push('\n');
    Ok(())
}

/// Every seat of every simulated table.
fn simulation_rows(md: &mut String, t: &RecordBatch) -> anyhow::Result<()> {
    writeln!(md, "### Figure 4: simulated games (mean per turn, +- standard error)\n")?;
    writeln!(
        md,
        "| table | seat | lambda | mu | street option | own penalty | dealt to others | received in all | streets completed / announced |\n|---|---|---|---|---|---|---|---|---|"
    )?;
    for r in 0..t.num_rows() {
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | {:.3} +- {:.3} | {:.3} +- {:.3} | {:.3} +- {:.3} | {} / {} |",
            plain(t.strs("table")?.value(r)),
            t.u32s("seat")?.value(r),
            t.f64s("lambda_f64")?.value(r),
            t.f64s("mu_f64")?.value(r),
            yes(t.bools("street_option")?.value(r)),
            t.f64s("own_mean")?.value(r),
            t.f64s("own_se")?.value(r),
            t.f64s("dealt_mean")?.value(r),
            t.f64s("dealt_se")?.value(r),
            t.f64s("received_mean")?.value(r),
            t.f64s("received_se")?.value(r),
            t.u64s("streets_completed")?.value(r),
            t.u64s("streets_announced")?.value(r)
        )?;
    }
    Ok(())
}

/// Seat 0 of each identical table by goal (lambda, mu as "p/q"): without and with the street option.
type StreetPairs = BTreeMap<(String, String), [Option<SeatMeans>; 2]>;

/// The thesis's reading: with vs without street, per goal (seat 0 of the identical tables).
fn street_pairs(t: &RecordBatch) -> anyhow::Result<StreetPairs> {
    let mut by_goal = StreetPairs::new();
    for r in 0..t.num_rows() {
        let label = t.strs("table")?.value(r);
        if label.starts_with("mixed") || t.u32s("seat")?.value(r) != 0 {
            continue;
        }
        let key = (t.strs("lambda")?.value(r).to_string(), t.strs("mu")?.value(r).to_string());
        let street = usize::from(t.bools("street_option")?.value(r));
        by_goal.entry(key).or_default()[street] = Some((
            t.f64s("own_mean")?.value(r),
            t.f64s("own_se")?.value(r),
            t.f64s("dealt_mean")?.value(r),
            t.f64s("dealt_se")?.value(r),
        ));
    }
    Ok(by_goal)
}

/// Own penalty and penalty dealt per goal, with and without the street option (figure 4).
fn simulation_figure(by_goal: &StreetPairs) -> anyhow::Result<Option<Figure>> {
    let groups: Vec<Bars> = by_goal
        .iter()
        .filter_map(|((lambda, mu), pair)| {
            let [Some(without), Some(with)] = pair else { return None };
            let show = |t: &str| parse_pq(t).map(|v| to_f64(&v)).unwrap_or(f64::NAN);
            Some(Bars {
                label: format!("({}, {})", show(lambda), show(mu)),
                values: vec![(without.0, without.1), (with.0, with.1), (without.2, without.3), (with.2, with.3)],
            })
        })
        .collect();
    if groups.is_empty() {
        return Ok(None);
    }
    Ok(Some(Figure {
        name: "fritzen_simulation".into(),
        plot: Plot::bars(
            "Simulated games: mean penalty per turn (± 1 SE)",
            "(lambda, mu)",
            Axis::real("penalty per turn"),
            &["own, no street", "own, street", "dealt, no street", "dealt, street"],
            groups,
        ),
    }))
}

/// The street option's effect on the penalty dealt and the own penalty, in
/// standard errors, beside the thesis's reading.
fn street_effect(md: &mut String, thesis: &toml::Table, by_goal: &StreetPairs) -> anyhow::Result<()> {
    let raises_own = thesis["street_raises_own_only_at"].as_array().expect("a pair");
    let own_goal = (
        parse_exact(raises_own[0].as_str().expect("string")).expect("number"),
        parse_exact(raises_own[1].as_str().expect("string")).expect("number"),
    );
    writeln!(
        md,
        "\nThe thesis: the street option raises the penalty dealt for every goal, and the own penalty only at (1, 3). Ours (difference with - without street, in standard errors of the difference):\n"
    )?;
    writeln!(
        md,
        "| (lambda, mu) | dealt: change | raises dealt | own: change | raises own | thesis says own rises |\n|---|---|---|---|---|---|"
    )?;
    for ((lambda, mu), pair) in by_goal {
        let [Some(without), Some(with)] = pair else { continue };
        let z = |a: f64, sa: f64, b: f64, sb: f64| (b - a) / (sa * sa + sb * sb).sqrt();
        let (dz, oz) = (z(without.2, without.3, with.2, with.3), z(without.0, without.1, with.0, with.1));
        let l = parse_pq(lambda).map_err(anyhow::Error::msg)?;
        let m = parse_pq(mu).map_err(anyhow::Error::msg)?;
        let thesis_own = (l, m) == own_goal;
        writeln!(
            md,
            "| ({}, {}) | {:+.3} ({dz:+.1} SE) | {} | {:+.3} ({oz:+.1} SE) | {} | {} |",
            to_f64(&parse_pq(lambda).map_err(anyhow::Error::msg)?),
            to_f64(&parse_pq(mu).map_err(anyhow::Error::msg)?),
            with.2 - without.2,
            significance(dz),
            with.0 - without.0,
            significance(oz),
            yes(thesis_own)
        )?;
    }
    Ok(())
}

/// Own penalty and its SE, penalty dealt and its SE, of one seat.
type SeatMeans = (f64, f64, f64, f64);

/// "yes" above 2 standard errors, "no" below -2, else "not significant".
fn significance(z: f64) -> &'static str {
    if z > 2.0 {
        "yes"
    } else if z < -2.0 {
        "no (lower)"
    } else {
        "not significant"
    }
}

fn rollouts(md: &mut String, data: &dyn Dataset) -> anyhow::Result<()> {
    let Some(t) = data.table("fritzen", "rollout")? else {
        return Ok(missing(md, "Monte-Carlo policies")?);
    };
    writeln!(md, "### Monte-Carlo play against the DP (the thesis's further research)\n")?;
    writeln!(
        md,
        "| lambda | mu | rollout policy | rollouts per action | states with a choice | optimal choices | loss per turn (exact evaluation) |\n|---|---|---|---|---|---|---|"
    )?;
    for r in 0..t.num_rows() {
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | {:.2}% | {:.5} ({:.5} vs {:.5}) |",
            t.f64s("lambda_f64")?.value(r),
            t.f64s("mu_f64")?.value(r),
            plain(t.strs("policy")?.value(r)),
            t.u32s("rollouts_per_action")?.value(r),
            t.u64s("states")?.value(r),
            100.0 * t.f64s("agreement")?.value(r),
            t.f64s("loss")?.value(r),
            t.f64s("turn_cost")?.value(r),
            t.f64s("optimal_turn_cost")?.value(r)
        )?;
    }
    md.push('\n');
    Ok(())
}

fn thresholds(md: &mut String, data: &dyn Dataset, figures: &mut Vec<Figure>) -> anyhow::Result<()> {
    let Some(t) = data.table("fritzen", "street_threshold")? else {
        return Ok(missing(md, "street thresholds")?);
    };
    writeln!(md, "### Street thresholds over the pot R (beyond the thesis's R = 12)\n")?;
    writeln!(
        md,
        "| lambda | mu | always street | street above some R | never (R <= 10000) | smallest threshold | median threshold |\n|---|---|---|---|---|---|---|"
    )?;
    let mut goals: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for r in 0..t.num_rows() {
        goals.entry((t.strs("lambda")?.value(r).to_string(), t.strs("mu")?.value(r).to_string())).or_default().push(r);
    }
    let (kind, value) = (t.strs("kind")?, t.f64s("threshold")?);
    // Per goal: how many first throws go for the street at pot R, R = 0..100.
    let series: Vec<Series> = goals
        .iter()
        .map(|((lambda, mu), rows)| {
            let mut at: Vec<f64> = rows
                .iter()
                .filter(|&&r| kind.value(r) != "never")
                .map(|&r| if kind.value(r) == "always" { 0.0 } else { value.value(r) })
                .collect();
            at.sort_by(f64::total_cmp);
            let points = (0..=200)
                .map(|k| f64::from(k) / 2.0)
                .map(|pot| (pot, at.iter().filter(|&&r| r < pot).count() as f64))
                .collect();
            let show = |t: &str| parse_pq(t).map(|v| to_f64(&v)).unwrap_or(f64::NAN);
            Series { label: format!("({}, {})", show(lambda), show(mu)), points }
        })
        .collect();
    let figure = Figure {
        name: "fritzen_thresholds".into(),
        plot: Plot::lines(
            "First throws that go for the street, by street pot R",
            Axis::real("street pot R"),
            Axis::integer("first throws (of 462)"),
            series,
        ),
    };
    md.push_str(&figure.markdown("How many of the 462 first throws go for a street as the pot R grows, per goal (lambda, mu); the thesis fixed R = 12."));
    figures.push(figure);
    for ((lambda, mu), rows) in &goals {
        let count = |k: &str| rows.iter().filter(|&&r| kind.value(r) == k).count();
        let mut above: Vec<f64> = rows.iter().filter(|&&r| kind.value(r) == "above").map(|&r| value.value(r)).collect();
        above.sort_by(f64::total_cmp);
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} |",
            to_f64(&parse_pq(lambda).map_err(anyhow::Error::msg)?),
            to_f64(&parse_pq(mu).map_err(anyhow::Error::msg)?),
            count("always"),
            count("above"),
            count("never"),
            above.first().map_or("-".into(), |v| format!("{v:.4}")),
            above.get(above.len() / 2).map_or("-".into(), |v| format!("{v:.4}"))
        )?;
    }
    md.push('\n');
    Ok(())
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "**no**" }
}
