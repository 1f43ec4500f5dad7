//! The cards section of the report: win rates per strategy, pooled over the
//! tasks, beside the report's greedy and lookahead win rates
//! (data/reference/published.toml).

use crate::artifacts::columns::{Columns, TableBuilder};
use crate::game::{Dataset, Figure, ReportSection};
use crate::plot::{Axes, Series, lines};
use crate::published;
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Default)]
struct Pool {
    games: u64,
    wins: u64,
    ties: u64,
    margin: i64,
    squares: f64,
}

impl Pool {
    fn win_rate(&self) -> f64 {
        self.wins as f64 / self.games as f64
    }
    fn mean(&self) -> f64 {
        self.margin as f64 / self.games as f64
    }
    fn se(&self) -> f64 {
        let n = self.games as f64;
        if self.games < 2 {
            return f64::NAN;
        }
        ((self.squares - n * self.mean().powi(2)) / (n - 1.0) / n).sqrt()
    }
}

pub fn report(data: &dyn Dataset) -> anyhow::Result<ReportSection> {
    let source = published::section("cards");
    let mut md = format!("Source: {}.\n\n", published::text(source, "source"));
    let Some(s) = data.table("cards", "summary")? else {
        md.push_str("_No cards summary in this run._\n\n");
        return Ok(ReportSection { markdown: md, tables: Vec::new(), figures: Vec::new() });
    };
    // (n, distribution, order) -> strategy -> pooled counts.
    let mut pools: BTreeMap<(u32, String, String), BTreeMap<String, Pool>> = BTreeMap::new();
    for r in 0..s.num_rows() {
        let key = (
            s.u32s("n")?.value(r),
            s.strs("distribution")?.value(r).to_string(),
            s.strs("order")?.value(r).to_string(),
        );
        let p = pools.entry(key).or_default().entry(s.strs("strategy")?.value(r).to_string()).or_default();
        p.games += s.u64s("games")?.value(r);
        p.wins += s.u64s("wins")?.value(r);
        p.ties += s.u64s("ties")?.value(r);
        p.margin += s.i64s("margin_sum")?.value(r);
        p.squares += s.f64s("margin_square_sum")?.value(r);
    }
    let (greedy_published, lookahead_published) = (
        published::text(source, "greedy_win_rate").parse::<f64>()?,
        published::text(source, "lookahead_win_rate").parse::<f64>()?,
    );
    writeln!(md, "### Win rates against the greedy opponent (pooled over all rows)\n")?;
    writeln!(
        md,
        "| N | model | order | games | greedy (report: {greedy_published}) | lookahead (report: {lookahead_published}) | optimal | minimax (optimal opponent) | mean margin: greedy / optimal |\n|---|---|---|---|---|---|---|---|---|"
    )?;
    let mut rows: Vec<(u32, String, String, f64, f64, f64)> = Vec::new();
    for ((n, dist, order), strategies) in &pools {
        let rate = |name: &str| strategies.get(name).map(Pool::win_rate);
        let show = |name: &str| {
            strategies
                .get(name)
                .map_or("-".into(), |p| format!("{:.3} (ties {:.3})", p.win_rate(), p.ties as f64 / p.games as f64))
        };
        let margin =
            |name: &str| strategies.get(name).map_or("-".into(), |p| format!("{:.2} +- {:.2}", p.mean(), p.se()));
        writeln!(
            md,
            "| {n} | {dist} | {order} | {} | {} | {} | {} | {} | {} / {} |",
            strategies.get("greedy").map_or(0, |p| p.games),
            show("greedy"),
            show("lookahead"),
            show("optimal"),
            show("minimax"),
            margin("greedy"),
            margin("optimal")
        )?;
        if let (Some(g), Some(l)) = (rate("greedy"), rate("lookahead")) {
            let distance = (g - greedy_published).abs() + (l - lookahead_published).abs();
            rows.push((*n, dist.clone(), order.clone(), g, l, distance));
        }
    }
    // The report's simulation lets the opponent choose whether to start; with
    // either order equally likely the rates are the means of the two orders.
    let mut pooled: BTreeMap<(u32, String), Vec<(f64, f64)>> = BTreeMap::new();
    for r in &rows {
        pooled.entry((r.0, r.1.clone())).or_default().push((r.3, r.4));
    }
    for ((n, dist), rates) in pooled.into_iter().filter(|(_, v)| v.len() == 2) {
        let (g, l) = ((rates[0].0 + rates[1].0) / 2.0, (rates[0].1 + rates[1].1) / 2.0);
        rows.push((
            n,
            dist,
            "either (mean)".into(),
            g,
            l,
            (g - greedy_published).abs() + (l - lookahead_published).abs(),
        ));
    }
    rows.sort_by(|a, b| a.5.total_cmp(&b.5));
    if let Some(best) = rows.first() {
        writeln!(
            md,
            "\nClosest to the report's {greedy_published} / {lookahead_published}: N = {}, {}, {} ({:.3} / {:.3}); farthest: {}.",
            best.0,
            best.1,
            best.2,
            best.3,
            best.4,
            rows.last().map_or(String::new(), |w| format!("N = {}, {}, {} ({:.3} / {:.3})", w.0, w.1, w.2, w.3, w.4))
        )?;
        let close: Vec<String> =
            rows.iter().filter(|r| r.5 < 0.06).map(|r| format!("N = {} {} {}", r.0, r.1, r.2)).collect();
        writeln!(
            md,
            "Within 0.06 (sum of both differences): {}.",
            if close.is_empty() { "none of the models run".into() } else { close.join("; ") }
        )?;
        let lookahead_better = rows.iter().filter(|r| r.4 > r.3).count();
        writeln!(
            md,
            "The report found the lookahead metric worse than greedy ({lookahead_published} vs {greedy_published}); here it wins more often than greedy in {lookahead_better} of {} (N, model, order) cases.\n",
            rows.len()
        )?;
    }
    let table = TableBuilder::new()
        .u32("n", rows.iter().map(|r| r.0))
        .str("distribution", rows.iter().map(|r| r.1.as_str()))
        .str("order", rows.iter().map(|r| r.2.as_str()))
        .f64("greedy_win_rate", rows.iter().map(|r| r.3))
        .f64("lookahead_win_rate", rows.iter().map(|r| r.4))
        .f64("distance_to_report", rows.iter().map(|r| r.5))
        .build("win_rates_vs_report")?;
    let mut figures = Vec::new();
    for order in ["player-first", "opponent-first"] {
        let mut series: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
        for ((n, dist, o), strategies) in &pools {
            if o != order {
                continue;
            }
            for (strategy, p) in strategies {
                series.entry(format!("{strategy}, {dist}")).or_default().push((f64::from(*n), p.win_rate()));
            }
        }
        let series: Vec<Series> = series.into_iter().map(|(label, points)| Series { label, points }).collect();
        let figure = Figure {
            file: format!("cards_win_rates_{order}.png"),
            png: lines(
                &Axes {
                    title: &format!("Win rate against the greedy opponent, {order}"),
                    x: "N (cards)",
                    y: "win rate",
                },
                &series,
                false,
            )?,
        };
        md.push_str(&figure.markdown(&format!(
            "Win rates by row length, {order} (the report: {greedy_published} for greedy, {lookahead_published} for its lookahead metric)."
        )));
        figures.push(figure);
    }
    Ok(ReportSection { markdown: md, tables: vec![table], figures })
}
