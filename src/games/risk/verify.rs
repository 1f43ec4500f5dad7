//! Exact checks of stored Risk results. Each re-derives the result by a
//! different route than the run: another enumeration order, another exact
//! number type, or an optimality certificate instead of a search.

use super::battle::{Battles, DefenderRule};
use super::dice::{Roll, attack_rolls, defence_outcomes};
use super::long_run::{Policy, certify, roll_costs};
use super::tables;
use super::value_iteration::value_iteration as iterate;
use crate::artifacts::columns::{Columns, first_difference};
use crate::exact::{DiceRational, Rational, Scalar, format_pq, parse_pq, to_f64};
use crate::game::{StoredTask, Table, Verdict};
use crate::keys::{exact_keys, exact_sequence, exact_tables};
use anyhow::anyhow;
use std::collections::BTreeMap;

/// Compares stored tables with expected ones; `None` when all are identical.
fn compare(task: &StoredTask, expected: &[Table]) -> anyhow::Result<Option<String>> {
    for table in expected {
        if let Some(diff) = first_difference(task.table(table.name)?, &table.batch) {
            return Ok(Some(format!("{}: {diff}", table.name)));
        }
    }
    Ok(None)
}

/// Recounts every round outcome as attack roll first, then defence, and
/// checks it against the stored joint enumeration.
pub fn round_outcomes(task: &StoredTask) -> anyhow::Result<Verdict> {
    if let Err(why) = exact_tables(task, &["round_outcomes"]) {
        return Ok(Verdict::failed(why));
    }
    let t = task.table("round_outcomes")?;
    let (am, dk) = (t.u8s("attacker_dice")?, t.u8s("defender_dice")?);
    let (la, ld) = (t.u8s("attacker_losses")?, t.u8s("defender_losses")?);
    let (count, throws, prob, prob_f64) =
        (t.u64s("count")?, t.u64s("throws")?, t.strs("probability")?, t.f64s("probability_f64")?);
    let mut stored: BTreeMap<(u8, u8, u8, u8), u64> = BTreeMap::new();
    for i in 0..t.num_rows() {
        let exact = Rational::from_unsigneds(count.value(i), throws.value(i));
        if throws.value(i) != 6u64.pow(u32::from(am.value(i) + dk.value(i)))
            || prob.value(i) != format_pq(&exact)
            || prob_f64.value(i) != to_f64(&exact)
        {
            return Ok(Verdict::failed(format!("row {i}: probability columns inconsistent with the count")));
        }
        stored.insert((am.value(i), dk.value(i), la.value(i), ld.value(i)), count.value(i));
    }
    let mut recount = BTreeMap::new();
    for m in 1..=3u32 {
        for (roll, rolls) in attack_rolls(m) {
            for k in 1..=2u32 {
                for ((a, d), c) in defence_outcomes(roll, k) {
                    *recount.entry((m as u8, k as u8, a, d)).or_insert(0) += rolls * c;
                }
            }
        }
    }
    let keys = (0..t.num_rows()).map(|i| (am.value(i), dk.value(i), la.value(i), ld.value(i)));
    let describe = |k: &(u8, u8, u8, u8)| format!("{} vs {} dice, losses {}-{}", k.0, k.1, k.2, k.3);
    if let Err(why) = exact_keys("round_outcomes", keys, recount.keys().copied(), describe) {
        return Ok(Verdict::failed(why));
    }
    Ok(if stored == recount {
        Verdict::certified(format!("{} outcomes recounted roll by roll: identical", stored.len()))
    } else {
        Verdict::failed("stored counts differ from the roll-by-roll recount")
    })
}

/// Checks the stored optimum with the optimality certificate, in exact rationals.
pub fn long_run(task: &StoredTask) -> anyhow::Result<Verdict> {
    if let Err(why) = exact_tables(task, &["long_run", "long_run_policy"]) {
        return Ok(Verdict::failed(why));
    }
    let summary = task.table("long_run")?;
    if summary.num_rows() != 1 {
        return Ok(Verdict::failed(format!("long_run: {} rows, planned 1", summary.num_rows())));
    }
    let g = parse_pq(summary.strs("loss_per_army")?.value(0)).map_err(|e| anyhow!(e))?;
    let policy_table = task.table("long_run_policy")?;
    let (x, y, dice) = (policy_table.u8s("x")?, policy_table.u8s("y")?, policy_table.u8s("dice")?);
    let rolls = (0..policy_table.num_rows()).map(|i| (x.value(i), y.value(i)));
    let planned = roll_costs().iter().map(|c| (c.roll.x, c.roll.y)).collect::<Vec<_>>();
    if let Err(why) = exact_sequence("long_run_policy", rolls.collect(), planned, |(x, y)| format!("roll {x}-{y}")) {
        return Ok(Verdict::failed(why));
    }
    let bits = (0..policy_table.num_rows())
        .filter(|&i| dice.value(i) == 2)
        .fold(0u32, |bits, i| bits | 1 << Roll { x: x.value(i), y: y.value(i) }.pair_index());
    let policy = Policy(bits);
    if let Err(why) = certify(&roll_costs(), policy, &g) {
        return Ok(Verdict::failed(format!("optimality certificate fails: {why}")));
    }
    if let Some(diff) = compare(task, &tables::long_run()?)? {
        return Ok(Verdict::failed(format!("stored values differ from the recomputation: {diff}")));
    }
    Ok(Verdict::certified(format!(
        "certificate: the stored rule ({}) loses exactly {} per army and every roll's dice minimise c_a - a*g, \
         so no stationary policy loses less",
        policy.rule(),
        format_pq(&g)
    )))
}

/// Recomputes the value iteration in exact arithmetic. The stored policy must
/// match wherever the exact margin is not zero, and the stored f64 values must
/// be within 1e-9 (relative) of the exact ones; otherwise the tables are
/// replaced by the exact iteration's.
pub fn value_iteration(task: &StoredTask, horizon: u32) -> anyhow::Result<Verdict> {
    if let Err(why) = value_iteration_keys(task, horizon) {
        return Ok(Verdict::failed(why));
    }
    let steps = iterate::<DiceRational>(&roll_costs(), horizon);
    let t = task.table("value_iteration")?;
    let (n, x, y) = (t.u32s("n")?, t.u8s("x")?, t.u8s("y")?);
    let (dice, value, margin) = (t.u8s("dice")?, t.f64s("value_f64")?, t.f64s("margin_f64")?);
    let zero = DiceRational::zero();
    let (mut ties, mut policy_errors, mut max_error) = (0usize, 0usize, 0f64);
    for row in 0..t.num_rows() {
        let step = &steps[n.value(row) as usize - 1];
        let roll = Roll { x: x.value(row), y: y.value(row) }.pair_index();
        let exact_margin = step.margins.as_ref().map(|m| &m[roll]);
        let tie = exact_margin == Some(&zero);
        ties += usize::from(tie);
        if !tie && dice.value(row) != step.dice[roll] {
            policy_errors += 1;
        }
        let exact_value = step.values[roll].to_f64();
        max_error = max_error.max(relative_error(value.value(row), exact_value));
        if let Some(m) = exact_margin {
            // Margins cross zero, so compare them relative to the values they separate.
            max_error = max_error.max((margin.value(row) - m.to_f64()).abs() / exact_value.abs().max(1.0));
        }
    }
    let c = task.table("convergence")?;
    let (expected, increment) = (c.f64s("expected_loss_f64")?, c.f64s("increment_f64")?);
    for (i, step) in steps.iter().enumerate() {
        max_error = max_error.max(relative_error(expected.value(i), step.expected.to_f64()));
        let exact_increment = if i == 0 { step.expected.clone() } else { step.expected.sub(&steps[i - 1].expected) };
        // The increment is a difference of values of size n/2: compare relative to those.
        let scale = step.expected.to_f64().abs().max(1.0);
        max_error = max_error.max((increment.value(i) - exact_increment.to_f64()).abs() / scale);
    }
    let checked = format!("{} states x horizons recomputed exactly ({ties} exact ties)", steps.len() * 21);
    if policy_errors == 0 && max_error <= 1e-9 {
        return Ok(Verdict::certified(format!("{checked}: policy identical, max relative error {max_error:.1e}")));
    }
    Ok(Verdict::repaired(
        format!(
            "{checked}: {policy_errors} float decisions wrong, max relative error {max_error:.1e}; replaced by exact values"
        ),
        tables::value_iteration::<DiceRational>(horizon)?,
    ))
}

/// Both tables hold every planned n = 1..=horizon (and every roll of each) once, in order.
fn value_iteration_keys(task: &StoredTask, horizon: u32) -> Result<(), String> {
    exact_tables(task, &["value_iteration", "convergence"])?;
    let e = |e: anyhow::Error| e.to_string();
    let rolls: Vec<(u8, u8)> = roll_costs().iter().map(|c| (c.roll.x, c.roll.y)).collect();
    let t = task.table("value_iteration").map_err(e)?;
    let (h, n, x, y) =
        (t.u32s("horizon").map_err(e)?, t.u32s("n").map_err(e)?, t.u8s("x").map_err(e)?, t.u8s("y").map_err(e)?);
    let stored = (0..t.num_rows()).map(|r| (h.value(r), n.value(r), x.value(r), y.value(r))).collect();
    let planned = (1..=horizon).flat_map(|n| rolls.iter().map(move |&(x, y)| (horizon, n, x, y))).collect();
    exact_sequence("value_iteration", stored, planned, |k| {
        format!("horizon {}, n = {}, roll {}-{}", k.0, k.1, k.2, k.3)
    })?;
    let c = task.table("convergence").map_err(e)?;
    let (h, n) = (c.u32s("horizon").map_err(e)?, c.u32s("n").map_err(e)?);
    let stored = (0..c.num_rows()).map(|r| (h.value(r), n.value(r))).collect();
    exact_sequence("convergence", stored, (1..=horizon).map(|n| (horizon, n)).collect(), |k| {
        format!("horizon {}, n = {}", k.0, k.1)
    })
}

fn relative_error(stored: f64, exact: f64) -> f64 {
    if stored == exact { 0.0 } else { (stored - exact).abs() / exact.abs().max(f64::MIN_POSITIVE) }
}

/// Recomputes every battle with plain exact rationals (the run used the
/// integer-scaled ring Z[1/6]) and compares all values and decisions.
pub fn battles(
    task: &StoredTask,
    rule: DefenderRule,
    max_attackers: u32,
    max_defenders: u32,
) -> anyhow::Result<Verdict> {
    let solved = Battles::<Rational>::solve(max_attackers, max_defenders, rule);
    let expected = tables::battle_tables(rule, max_attackers, max_defenders, &solved)?;
    if let Err(why) = exact_tables(task, &expected.iter().map(|t| t.name).collect::<Vec<_>>()) {
        return Ok(Verdict::failed(why));
    }
    Ok(match compare(task, &expected)? {
        None => Verdict::certified(format!(
            "{} battles recomputed in exact rationals: identical",
            (max_attackers - 1) * max_defenders
        )),
        Some(diff) => Verdict::failed(format!("exact recomputation differs: {diff}")),
    })
}
