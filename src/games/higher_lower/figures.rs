//! The thesis's figures for higher-lower, redrawn from the tables: V(N) - lg N,
//! Alice's distributions (3.1, 3.3, 3.4), the effort per N and method (3.5)
//! and the bounds during the solve of N = 100 (3.6).

use crate::artifacts::columns::Columns;
use crate::game::{Dataset, Figure};
use crate::plot::{Axis, Plot, Series};
use arrow::record_batch::RecordBatch;
use std::collections::BTreeMap;

/// Two lines per method: (simplex pivots or upper bounds, pricing rounds or lower bounds).
type MethodLines = BTreeMap<String, (Vec<(f64, f64)>, Vec<(f64, f64)>)>;

/// (figure, caption) pairs for the report.
pub fn figures(
    data: &dyn Dataset,
    values: &RecordBatch,
    by_n: &BTreeMap<u32, usize>,
) -> anyhow::Result<Vec<(Figure, String)>> {
    let mut out = vec![value_figure(values, by_n)?];
    if let Some(alice) = data.table("higher_lower", "alice")? {
        out.extend(alice_figures(&alice, values, by_n)?);
    }
    out.push(effort_figure(values)?);
    if let Some(trace) = data.table("higher_lower", "trace")? {
        out.extend(bounds_figure(&trace, values, by_n)?);
    }
    Ok(out)
}

/// V(N) - lg N against N on a log2 axis, where its wave repeats per doubling.
fn value_figure(values: &RecordBatch, by_n: &BTreeMap<u32, usize>) -> anyhow::Result<(Figure, String)> {
    let value = values.f64s("value_f64")?;
    let v_minus_lg: Vec<(f64, f64)> =
        by_n.iter().map(|(&k, &r)| (f64::from(k), value.value(r) - f64::from(k).log2())).collect();
    Ok((
        Figure {
            name: "higher_lower_value".into(),
            plot: Plot::lines(
                "V(N) - lg N",
                Axis::log2("N (keys, log scale)"),
                Axis::real("V(N) - lg N (guesses)"),
                vec![Series { label: "V(N) - lg N".into(), points: v_minus_lg }],
            ),
        },
        "The value of the guessing game minus lg N, per N, on a log scale of N (ticks at powers of two).".into(),
    ))
}

/// Alice's distributions: for every N up to 40 and 300 (figures 3.1, 3.3),
/// and N = 253 (figure 3.4).
fn alice_figures(
    alice: &RecordBatch,
    values: &RecordBatch,
    by_n: &BTreeMap<u32, usize>,
) -> anyhow::Result<Vec<(Figure, String)>> {
    let mut out = Vec::new();
    let (an, method, i, p) = (alice.u32s("n")?, alice.strs("method")?, alice.u32s("i")?, alice.f64s("prob_f64")?);
    let chosen: BTreeMap<u32, &str> =
        by_n.iter().map(|(&k, &r)| (k, values.strs("method").map(|m| m.value(r)).unwrap_or(""))).collect();
    let max_n = by_n.keys().max().copied().unwrap_or(0);
    for (limit, figure) in [(40u32, "3.1"), (300, "3.3")] {
        if max_n < limit {
            continue;
        }
        const COLUMNS: usize = 200;
        let mut cells = Vec::new();
        for r in 0..alice.num_rows() {
            let k = an.value(r);
            if k > limit || chosen.get(&k) != Some(&method.value(r)) {
                continue;
            }
            let (lo, hi) = (f64::from(i.value(r) - 1) / f64::from(k), f64::from(i.value(r)) / f64::from(k));
            let (c0, c1) = (
                (lo * COLUMNS as f64) as usize,
                ((hi * COLUMNS as f64) as usize).max((lo * COLUMNS as f64) as usize + 1),
            );
            for c in c0..c1.min(COLUMNS) {
                cells.push((c, (k - 1) as usize, p.value(r) * f64::from(k)));
            }
        }
        out.push((
            Figure {
                name: format!("higher_lower_alice_{limit}"),
                plot: Plot::heatmap(
                    format!("Alice's optimal strategy, N <= {limit}: N * alpha_i"),
                    (Axis::real("key i / N"), Axis::integer("N")),
                    (COLUMNS, limit as usize),
                    (0.0..1.0, 0.5..f64::from(limit) + 0.5),
                    cells,
                ),
            },
            format!("Alice's optimal distribution for every N up to {limit} (thesis figure {figure}); colour N * alpha_i, 1 = uniform."),
        ));
    }
    if chosen.contains_key(&253) {
        let points: Vec<(f64, f64)> = (0..alice.num_rows())
            .filter(|&r| an.value(r) == 253 && chosen.get(&253) == Some(&method.value(r)))
            .map(|r| (f64::from(i.value(r)), p.value(r)))
            .collect();
        out.push((
            Figure {
                name: "higher_lower_alice_253".into(),
                plot: Plot::lines(
                    "Alice's optimal strategy for N = 253",
                    Axis::integer("key i"),
                    Axis::real("alpha_i"),
                    vec![Series { label: "N = 253".into(), points }],
                ),
            },
            "Alice's optimal distribution for N = 253 (thesis figure 3.4).".into(),
        ));
    }
    Ok(out)
}

/// Simplex pivots and pricing rounds per N and method (figure 3.5).
fn effort_figure(values: &RecordBatch) -> anyhow::Result<(Figure, String)> {
    let (n, method, iterations, rounds) =
        (values.u32s("n")?, values.strs("method")?, values.u64s("iterations")?, values.u32s("rounds")?);
    let mut effort = MethodLines::new();
    for r in 0..values.num_rows() {
        let e = effort.entry(method.value(r).to_string()).or_default();
        e.0.push((f64::from(n.value(r)), iterations.value(r) as f64));
        e.1.push((f64::from(n.value(r)), f64::from(rounds.value(r))));
    }
    let mut series = Vec::new();
    for (m, (mut pivots, mut round)) in effort {
        pivots.sort_by(|a, b| a.0.total_cmp(&b.0));
        round.sort_by(|a, b| a.0.total_cmp(&b.0));
        series.push(Series { label: format!("{m}: simplex pivots"), points: pivots });
        series.push(Series { label: format!("{m}: pricing rounds"), points: round });
    }
    Ok((
        Figure {
            name: "higher_lower_effort".into(),
            plot: Plot::lines(
                "Solver effort per N and method",
                Axis::integer("N"),
                Axis::log10("count (log scale)"),
                series,
            ),
        },
        "Simplex pivots and pricing rounds per N and method (thesis figure 3.5).".into(),
    ))
}

/// The upper and lower bounds on V(100) per pricing round (figure 3.6);
/// `None` without N = 100.
fn bounds_figure(
    trace: &RecordBatch,
    values: &RecordBatch,
    by_n: &BTreeMap<u32, usize>,
) -> anyhow::Result<Option<(Figure, String)>> {
    let (tn, tm, round, upper, lower) = (
        trace.u32s("n")?,
        trace.strs("method")?,
        trace.u32s("round")?,
        trace.f64s("upper_f64")?,
        trace.f64s("lower_f64")?,
    );
    let mut per_method = MethodLines::new();
    for r in (0..trace.num_rows()).filter(|&r| tn.value(r) == 100) {
        let e = per_method.entry(tm.value(r).to_string()).or_default();
        e.0.push((f64::from(round.value(r)), upper.value(r)));
        if lower.value(r).is_finite() {
            e.1.push((f64::from(round.value(r)), lower.value(r)));
        }
    }
    let Some(&row) = by_n.get(&100) else { return Ok(None) };
    let value = values.f64s("value_f64")?;
    let v = value.value(row);
    let clip = |p: Vec<(f64, f64)>| p.into_iter().map(|(x, y)| (x, y.clamp(v - 0.5, v + 0.5))).collect();
    let series: Vec<Series> = per_method
        .into_iter()
        .flat_map(|(m, (u, l))| {
            [
                Series { label: format!("{m}: upper (master)"), points: clip(u) },
                Series { label: format!("{m}: lower (pricing)"), points: clip(l) },
            ]
        })
        .collect();
    Ok(Some((
        Figure {
            name: "higher_lower_bounds_100".into(),
            plot: Plot::lines(
                "Bounds on V(100) during the solve (clipped to V ± 0.5)",
                Axis::integer("pricing round"),
                Axis::real("bound"),
                series,
            ),
        },
        "Upper (restricted master) and lower (best pricing) bounds on V(100) per round (thesis figure 3.6).".into(),
    )))
}
