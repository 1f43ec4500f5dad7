//! Risk's report section: the article's numbers beside ours, read from the
//! tables. The "published" column holds the article's printed values; every
//! other number comes from the Parquet data.

use crate::artifacts::columns::Columns;
use crate::game::{Dataset, Figure};
use crate::markdown::{code_span, plain};
use crate::plot::{Axis, Plot, Series};
use crate::published;
use crate::report::verification_summary;
use arrow::record_batch::RecordBatch;
use std::fmt::Write;

pub fn report(data: &dyn Dataset) -> anyhow::Result<(String, Vec<Figure>)> {
    let mut md = String::new();
    let mut figures = Vec::new();
    if let Some(t) = data.table("risk", "long_run")? {
        long_run(&mut md, &t)?;
    }
    if let Some(t) = data.table("risk", "long_run_policy")? {
        policy(&mut md, &t)?;
    }
    if let Some(t) = data.table("risk", "round_outcomes")? {
        rounds(&mut md, &t)?;
    }
    if let Some(t) = data.table("risk", "convergence")? {
        convergence(&mut md, &t)?;
        let figure = convergence_figure(&t)?;
        md.push_str(&figure.markdown(
            "Value iteration: the average loss per army approaches g like 1/n, the increment geometrically.",
        ));
        figures.push(figure);
    }
    if let Some(t) = data.table("risk", "battles")? {
        battles(&mut md, &t)?;
        if let Some(figure) = battles_figure(&t)? {
            md.push_str(&figure.markdown(
                "Probability that A attacking armies conquer D defending ones, defender playing the optimal rule.",
            ));
            figures.push(figure);
        }
    }
    match verification_summary(data, "risk")? {
        Some(summary) => writeln!(md, "{summary}\n")?,
        None => writeln!(md, "Verification: not run yet (`gamesweep verify DIR`).\n")?,
    }
    Ok((md, figures))
}

/// E V_n / n and the increment against n, for the longest horizon.
fn convergence_figure(t: &RecordBatch) -> anyhow::Result<Figure> {
    let (horizon, n, per_army, increment) =
        (t.u32s("horizon")?, t.u32s("n")?, t.f64s("loss_per_army_f64")?, t.f64s("increment_f64")?);
    let longest = horizon.values().iter().copied().max().unwrap_or(0);
    let rows: Vec<usize> = (0..t.num_rows()).filter(|&i| horizon.value(i) == longest && n.value(i) >= 2).collect();
    let series = vec![
        Series {
            label: "E V_n / n".into(),
            points: rows.iter().map(|&i| (f64::from(n.value(i)), per_army.value(i))).collect(),
        },
        Series {
            label: "E V_n - E V_(n-1)".into(),
            points: rows.iter().map(|&i| (f64::from(n.value(i)), increment.value(i))).collect(),
        },
    ];
    Ok(Figure {
        name: "risk_convergence".into(),
        plot: Plot::lines(
            format!("Value iteration, horizon {longest}"),
            Axis::integer("n (armies committed)"),
            Axis::real("loss per army"),
            series,
        ),
    })
}

/// Conquest probabilities for A, D <= 30 under the optimal defender rule.
fn battles_figure(t: &RecordBatch) -> anyhow::Result<Option<Figure>> {
    let (rule, a, d, p) =
        (t.strs("defender_rule")?, t.u32s("attackers")?, t.u32s("defenders")?, t.f64s("conquest_f64")?);
    const SIZE: u32 = 30;
    let cells: Vec<(usize, usize, f64)> = (0..t.num_rows())
        .filter(|&i| rule.value(i) == "optimal" && a.value(i) <= SIZE && d.value(i) <= SIZE)
        .map(|i| ((d.value(i) - 1) as usize, (a.value(i) - 1) as usize, p.value(i)))
        .collect();
    if cells.is_empty() {
        return Ok(None);
    }
    Ok(Some(Figure {
        name: "risk_battles".into(),
        plot: Plot::heatmap(
            "P(attacker conquers), defender optimal",
            (Axis::integer("defending armies D"), Axis::integer("attacking armies A")),
            (SIZE as usize, SIZE as usize),
            (0.5..f64::from(SIZE) + 0.5, 0.5..f64::from(SIZE) + 0.5),
            cells,
        ),
    }))
}

fn long_run(md: &mut String, t: &RecordBatch) -> anyhow::Result<()> {
    let article = published::section("risk");
    let loss = format!("{:.6}", t.f64s("loss_per_army_f64")?.value(0));
    let attacker = format!("{:.6}", t.f64s("attacker_loss_per_army_f64")?.value(0));
    let rule = t.strs("rule")?.value(0);
    let threshold = published::text(article, "two_dice_when_second_die_at_most");
    writeln!(md, "### Long-run defence against three dice (the article)\n")?;
    writeln!(md, "Source: {}.\n", published::text(article, "source"))?;
    writeln!(md, "| quantity | published | ours | agrees |\n|---|---|---|---|")?;
    for (name, key, ours) in [
        ("defender loss per committed army", "loss_per_army", &loss),
        ("attacker loss per defending army", "attacker_loss_per_army", &attacker),
    ] {
        let theirs = published::text(article, key);
        writeln!(md, "| {name} | {theirs} | {ours} | {} |", yes(*ours == theirs))?;
    }
    writeln!(
        md,
        "| optimal rule | two dice exactly when the second attack die is at most {threshold} | {} | {} |",
        plain(rule),
        yes(rule.ends_with(&format!("at most {threshold}")))
    )?;
    writeln!(
        md,
        "\nExact loss per army: {}, found by Dinkelbach's method in {} iterations and confirmed against all {} \
         stationary policies ({} optimal).\n",
        code_span(t.strs("loss_per_army")?.value(0)),
        t.u32s("dinkelbach_iterations")?.value(0),
        t.u64s("policies_checked")?.value(0),
        t.u64s("optimal_policies")?.value(0)
    )?;
    Ok(())
}

fn policy(md: &mut String, t: &RecordBatch) -> anyhow::Result<()> {
    writeln!(md, "Per attack roll (margin = c2 - c1 - g; negative means two dice):\n")?;
    writeln!(md, "| roll | P(roll) | c1 | c2 | dice | margin |\n|---|---|---|---|---|---|")?;
    let (x, y, p, c1, c2) =
        (t.u8s("x")?, t.u8s("y")?, t.strs("probability")?, t.strs("cost_one")?, t.strs("cost_two")?);
    let (dice, margin) = (t.u8s("dice")?, t.f64s("margin_f64")?);
    for i in 0..t.num_rows() {
        writeln!(
            md,
            "| {}-{} | {} | {} | {} | {} | {:+.6} |",
            x.value(i),
            y.value(i),
            plain(p.value(i)),
            plain(c1.value(i)),
            plain(c2.value(i)),
            dice.value(i),
            margin.value(i)
        )?;
    }
    let closest = (0..t.num_rows()).min_by(|&i, &j| margin.value(i).abs().total_cmp(&margin.value(j).abs()));
    if let Some(i) = closest {
        writeln!(
            md,
            "\nThe closest call is {}-{}: {} by a margin of exactly {}.",
            x.value(i),
            y.value(i),
            if dice.value(i) == 2 { "two dice" } else { "one die" },
            plain(t.strs("margin")?.value(i))
        )?;
    }
    md.push('\n');
    Ok(())
}

fn rounds(md: &mut String, t: &RecordBatch) -> anyhow::Result<()> {
    let published = published::section("risk")["three_vs_two"].as_table().expect("[risk.three_vs_two]");
    writeln!(md, "### One round, three attacking dice against two\n")?;
    writeln!(md, "Published: {}.\n", published::text(published, "source"))?;
    writeln!(md, "| outcome | published | ours |\n|---|---|---|")?;
    let (am, dk) = (t.u8s("attacker_dice")?, t.u8s("defender_dice")?);
    let (la, ld, count) = (t.u8s("attacker_losses")?, t.u8s("defender_losses")?, t.u64s("count")?);
    let ours = |lost_a: u8, lost_d: u8| {
        (0..t.num_rows())
            .find(|&i| am.value(i) == 3 && dk.value(i) == 2 && la.value(i) == lost_a && ld.value(i) == lost_d)
            .map(|i| count.value(i))
    };
    let mut expected = [0u64; 2];
    for (lost_a, lost_d, key) in [(0, 2, "defender_loses_two"), (1, 1, "each_loses_one"), (2, 0, "attacker_loses_two")]
    {
        let n = ours(lost_a, lost_d).unwrap_or(0);
        expected[0] += u64::from(lost_d) * n;
        expected[1] += u64::from(lost_a) * n;
        let theirs = published::text(published, key);
        writeln!(md, "| attacker loses {lost_a}, defender loses {lost_d} | {theirs}/7776 | {n}/7776 |")?;
    }
    for (name, key, ours) in [
        ("expected defender losses", "expected_defender_losses", expected[0]),
        ("expected attacker losses", "expected_attacker_losses", expected[1]),
    ] {
        let theirs = published::text(published, key);
        writeln!(md, "| {name} | {theirs} | {ours}/7776 = {:.4} |", ours as f64 / 7776.0)?;
    }
    md.push('\n');
    Ok(())
}

fn convergence(md: &mut String, t: &RecordBatch) -> anyhow::Result<()> {
    let (horizon, n, per_army, matches) =
        (t.u32s("horizon")?, t.u32s("n")?, t.f64s("loss_per_army_f64")?, t.bools("matches_optimal_rule")?);
    let (increment, gap, bias) = (t.f64s("increment_f64")?, t.f64s("increment_gap_f64")?, t.f64s("bias_f64")?);
    let longest = horizon.values().iter().copied().max().unwrap_or(0);
    writeln!(md, "### Value iteration (horizon {longest})\n")?;
    writeln!(
        md,
        "E V_n is the least expected loss over n committed armies. Its increment E V_n - E V_(n-1) converges \
         geometrically to the optimal loss g per army; the average E V_n / n = g + h/n + o(1/n) only like 1/n \
         (h is the bias column).\n"
    )?;
    writeln!(
        md,
        "| n | E V_n / n | E V_n - E V_(n-1) | increment - g | bias E V_n - n g | policy = optimal rule |\n|---|---|---|---|---|---|"
    )?;
    let shown = [1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
    for i in (0..t.num_rows()).filter(|&i| horizon.value(i) == longest && shown.contains(&n.value(i))) {
        writeln!(
            md,
            "| {} | {:.6} | {:.6} | {:+.2e} | {:.6} | {} |",
            n.value(i),
            per_army.value(i),
            increment.value(i),
            gap.value(i),
            bias.value(i),
            yes(matches.value(i))
        )?;
    }
    let settled = (0..t.num_rows())
        .filter(|&i| horizon.value(i) == longest)
        .filter(|&i| !matches.value(i))
        .map(|i| n.value(i))
        .max()
        .map_or(1, |last_miss| last_miss + 1);
    writeln!(md, "\nFrom n = {settled} on, every step's policy is the optimal stationary rule.\n")?;
    Ok(())
}

fn battles(md: &mut String, t: &RecordBatch) -> anyhow::Result<()> {
    let (rule, a, d, p) =
        (t.strs("defender_rule")?, t.u32s("attackers")?, t.u32s("defenders")?, t.f64s("conquest_f64")?);
    let lookup = |r: &str, aa: u32, dd: u32| {
        (0..t.num_rows()).find(|&i| rule.value(i) == r && a.value(i) == aa && d.value(i) == dd).map(|i| p.value(i))
    };
    writeln!(md, "### Battles: probability that A attacking armies conquer D (exact in the tables)\n")?;
    for r in ["max-dice", "optimal"] {
        if lookup(r, 2, 1).is_none() {
            continue;
        }
        writeln!(md, "Defender rule `{r}`:\n")?;
        let ds: Vec<u32> = (1..=10).filter(|&dd| lookup(r, 2, dd).is_some()).collect();
        writeln!(md, "| A \\ D | {} |", ds.iter().map(u32::to_string).collect::<Vec<_>>().join(" | "))?;
        writeln!(md, "|---|{}", "---|".repeat(ds.len()))?;
        for aa in (2..=11).filter(|&aa| lookup(r, aa, 1).is_some()) {
            let cells: Vec<String> =
                ds.iter().map(|&dd| lookup(r, aa, dd).map_or("".into(), |v| format!("{v:.3}"))).collect();
            writeln!(md, "| {aa} | {} |", cells.join(" | "))?;
        }
        md.push('\n');
    }
    // Where choosing dice helps the defender most.
    let mut gains: Vec<(f64, u32, u32)> = (0..t.num_rows())
        .filter(|&i| rule.value(i) == "max-dice")
        .filter_map(|i| lookup("optimal", a.value(i), d.value(i)).map(|o| (p.value(i) - o, a.value(i), d.value(i))))
        .collect();
    gains.sort_by(|x, y| y.0.total_cmp(&x.0));
    if let Some((gain, aa, dd)) = gains.first() {
        writeln!(
            md,
            "Choosing dice after seeing the roll lowers the conquest probability by up to {gain:.4} (at A = {aa}, D = {dd}).\n"
        )?;
    }
    Ok(())
}

fn yes(ok: bool) -> &'static str {
    if ok { "yes" } else { "**no**" }
}
