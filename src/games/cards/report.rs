//! The cards section of the report: win rates per strategy, pooled over the
//! tasks, beside the report's greedy and lookahead win rates
//! (data/reference/published.toml).

use crate::artifacts::columns::{Columns, TableBuilder};
use crate::game::{Dataset, Figure, ReportSection};
use crate::markdown::plain;
use crate::plot::{Axis, Plot, Series};
use crate::published;
use arrow::record_batch::RecordBatch;
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

/// (n, distribution, order) -> strategy -> pooled counts.
type Pools = BTreeMap<(u32, String, String), BTreeMap<String, Pool>>;

/// The report's win rates of greedy and of its lookahead metric.
struct Published {
    greedy: f64,
    lookahead: f64,
}

/// Our greedy and lookahead win rates for one (N, model, order), and their
/// distance to the report's (sum of both differences).
struct Comparison {
    n: u32,
    distribution: String,
    order: String,
    greedy: f64,
    lookahead: f64,
    distance: f64,
}

impl Published {
    fn compare(&self, n: u32, distribution: String, order: String, greedy: f64, lookahead: f64) -> Comparison {
        let distance = (greedy - self.greedy).abs() + (lookahead - self.lookahead).abs();
        Comparison { n, distribution, order, greedy, lookahead, distance }
    }
}

pub fn report(data: &dyn Dataset) -> anyhow::Result<ReportSection> {
    let source = published::section("cards");
    let mut md = format!("Source: {}.\n\n", published::text(source, "source"));
    let Some(summary) = data.table("cards", "summary")? else {
        md.push_str("_No cards summary in this run._\n\n");
        return Ok(ReportSection { markdown: md, tables: Vec::new(), figures: Vec::new() });
    };
    let report = Published {
        greedy: published::text(source, "greedy_win_rate").parse::<f64>()?,
        lookahead: published::text(source, "lookahead_win_rate").parse::<f64>()?,
    };
    let pools = pools(&summary)?;
    let mut comparisons = win_rates_section(&mut md, &pools, &report)?;
    comparisons.extend(either_order(&comparisons, &report));
    comparisons.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    closest_to_report(&mut md, &comparisons, &report)?;
    let table = TableBuilder::new()
        .u32("n", comparisons.iter().map(|c| c.n))
        .str("distribution", comparisons.iter().map(|c| c.distribution.as_str()))
        .str("order", comparisons.iter().map(|c| c.order.as_str()))
        .f64("greedy_win_rate", comparisons.iter().map(|c| c.greedy))
        .f64("lookahead_win_rate", comparisons.iter().map(|c| c.lookahead))
        .f64("distance_to_report", comparisons.iter().map(|c| c.distance))
        .build("win_rates_vs_report")?;
    let figures = figures(&mut md, &pools, &report)?;
    Ok(ReportSection { markdown: md, tables: vec![table], figures })
}

/// The summary's counts pooled over the tasks.
fn pools(s: &RecordBatch) -> anyhow::Result<Pools> {
    let mut pools = Pools::new();
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
    Ok(pools)
}

/// The win-rate table per (N, model, order); the comparisons with the report.
fn win_rates_section(md: &mut String, pools: &Pools, report: &Published) -> anyhow::Result<Vec<Comparison>> {
    writeln!(md, "### Win rates against the greedy opponent (pooled over all rows)\n")?;
    writeln!(
        md,
        "| N | model | order | games | greedy (report: {}) | lookahead (report: {}) | optimal | minimax (optimal opponent) | mean margin: greedy / optimal |\n|---|---|---|---|---|---|---|---|---|",
        report.greedy, report.lookahead
    )?;
    let mut comparisons = Vec::new();
    for ((n, dist, order), strategies) in pools {
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
            "| {n} | {} | {} | {} | {} | {} | {} | {} | {} / {} |",
            plain(dist),
            plain(order),
            strategies.get("greedy").map_or(0, |p| p.games),
            show("greedy"),
            show("lookahead"),
            show("optimal"),
            show("minimax"),
            margin("greedy"),
            margin("optimal")
        )?;
        if let (Some(g), Some(l)) = (rate("greedy"), rate("lookahead")) {
            comparisons.push(report.compare(*n, dist.clone(), order.clone(), g, l));
        }
    }
    Ok(comparisons)
}

/// The report's simulation lets the opponent choose whether to start; with
/// either order equally likely the rates are the means of the two orders.
fn either_order(comparisons: &[Comparison], report: &Published) -> Vec<Comparison> {
    let mut by_model: BTreeMap<(u32, String), Vec<&Comparison>> = BTreeMap::new();
    for c in comparisons {
        by_model.entry((c.n, c.distribution.clone())).or_default().push(c);
    }
    by_model
        .into_iter()
        .filter(|(_, orders)| orders.len() == 2)
        .map(|((n, dist), o)| {
            let (g, l) = ((o[0].greedy + o[1].greedy) / 2.0, (o[0].lookahead + o[1].lookahead) / 2.0);
            report.compare(n, dist, "either (mean)".into(), g, l)
        })
        .collect()
}

/// Which (N, model, order) come closest to the report's rates, sorted by distance.
fn closest_to_report(md: &mut String, sorted: &[Comparison], report: &Published) -> anyhow::Result<()> {
    let (Some(best), Some(worst)) = (sorted.first(), sorted.last()) else { return Ok(()) };
    let name = |c: &Comparison| {
        format!("N = {}, {}, {} ({:.3} / {:.3})", c.n, plain(&c.distribution), plain(&c.order), c.greedy, c.lookahead)
    };
    writeln!(
        md,
        "\nClosest to the report's {} / {}: {}; farthest: {}.",
        report.greedy,
        report.lookahead,
        name(best),
        name(worst)
    )?;
    let close: Vec<String> = sorted
        .iter()
        .filter(|c| c.distance < 0.06)
        .map(|c| format!("N = {} {} {}", c.n, plain(&c.distribution), plain(&c.order)))
        .collect();
    writeln!(
        md,
        "Within 0.06 (sum of both differences): {}.",
        if close.is_empty() { "none of the models run".into() } else { close.join("; ") }
    )?;
    let lookahead_better = sorted.iter().filter(|c| c.lookahead > c.greedy).count();
    writeln!(
        md,
        "The report found the lookahead metric worse than greedy ({} vs {}); here it wins more often than greedy in {lookahead_better} of {} (N, model, order) cases.\n",
        report.lookahead,
        report.greedy,
        sorted.len()
    )?;
    Ok(())
}

/// Win rate by row length per strategy and model, one figure per order.
fn figures(md: &mut String, pools: &Pools, report: &Published) -> anyhow::Result<Vec<Figure>> {
    let mut figures = Vec::new();
    for order in ["player-first", "opponent-first"] {
        let mut series: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
        for ((n, dist, o), strategies) in pools {
            if o != order {
                continue;
            }
            for (strategy, p) in strategies {
                series.entry(format!("{strategy}, {dist}")).or_default().push((f64::from(*n), p.win_rate()));
            }
        }
        let series: Vec<Series> = series.into_iter().map(|(label, points)| Series { label, points }).collect();
        let figure = Figure {
            name: format!("cards_win_rates_{order}"),
            plot: Plot::lines(
                format!("Win rate against the greedy opponent, {order}"),
                Axis::integer("N (cards)"),
                Axis::real("win rate"),
                series,
            ),
        };
        md.push_str(&figure.markdown(&format!(
            "Win rates by row length, {order} (the report: {} for greedy, {} for its lookahead metric).",
            report.greedy, report.lookahead
        )));
        figures.push(figure);
    }
    Ok(figures)
}
