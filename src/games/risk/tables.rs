//! The Risk tasks' output tables (schemas documented in docs/tables.md).

use super::battle::{Battles, DefenderRule};
use super::dice::{Roll, round_outcomes as count_round_outcomes};
use super::long_run::{enumerate_policies, margin, optimum, roll_costs};
use super::value_iteration::value_iteration as iterate;
use crate::artifacts::columns::TableBuilder;
use crate::exact::{DiceRational, ExactScalar, Rational, Scalar, format_pq, to_f64};
use crate::game::Table;

/// `round_outcomes`: every (attacker dice, defender dice) and loss outcome, counted over all throws.
pub fn round_outcomes() -> anyhow::Result<Vec<Table>> {
    let mut rows = Vec::new();
    for attacker_dice in 1..=3u32 {
        for defender_dice in 1..=2u32 {
            let throws = 6u64.pow(attacker_dice + defender_dice);
            for ((lost_a, lost_d), count) in count_round_outcomes(attacker_dice, defender_dice) {
                rows.push((attacker_dice, defender_dice, lost_a, lost_d, count, throws));
            }
        }
    }
    let probs: Vec<Rational> = rows.iter().map(|r| Rational::from_unsigneds(r.4, r.5)).collect();
    let table = TableBuilder::new()
        .u8("attacker_dice", rows.iter().map(|r| r.0 as u8))
        .u8("defender_dice", rows.iter().map(|r| r.1 as u8))
        .u8("attacker_losses", rows.iter().map(|r| r.2))
        .u8("defender_losses", rows.iter().map(|r| r.3))
        .u64("count", rows.iter().map(|r| r.4))
        .u64("throws", rows.iter().map(|r| r.5))
        .str("probability", probs.iter().map(format_pq))
        .f64("probability_f64", probs.iter().map(to_f64))
        .build("round_outcomes")?;
    Ok(vec![table])
}

/// `long_run` (one row: the exact optimum and its proofs) and `long_run_policy`
/// (per attack roll: probability, costs, optimal dice, margin).
pub fn long_run() -> anyhow::Result<Vec<Table>> {
    let costs = roll_costs();
    let opt = optimum(&costs);
    let all = enumerate_policies(&costs);
    anyhow::ensure!(
        all.min_loss == opt.loss && all.minimiser == opt.policy,
        "enumeration found a better policy than Dinkelbach's method"
    );
    let attacker = Rational::from(1u32) - &opt.loss;
    let summary = TableBuilder::new()
        .str("loss_per_army", [format_pq(&opt.loss)])
        .f64("loss_per_army_f64", [to_f64(&opt.loss)])
        .str("attacker_loss_per_army", [format_pq(&attacker)])
        .f64("attacker_loss_per_army_f64", [to_f64(&attacker)])
        .str("rule", [opt.policy.rule()])
        .str("two_dice_rolls", [opt.policy.two_dice_rolls()])
        .u32("dinkelbach_iterations", [opt.dinkelbach_iterations])
        .u64("policies_checked", [all.checked])
        .u64("optimal_policies", [all.minimisers])
        .build("long_run")?;

    let margins: Vec<Rational> = costs.iter().map(|c| margin(c, &opt.loss)).collect();
    let policy = TableBuilder::new()
        .u8("x", costs.iter().map(|c| c.roll.x))
        .u8("y", costs.iter().map(|c| c.roll.y))
        .str("probability", costs.iter().map(|c| format_pq(&c.probability())))
        .f64("probability_f64", costs.iter().map(|c| to_f64(&c.probability())))
        .str("cost_one", costs.iter().map(|c| format_pq(&c.cost_one())))
        .f64("cost_one_f64", costs.iter().map(|c| to_f64(&c.cost_one())))
        .str("cost_two", costs.iter().map(|c| format_pq(&c.cost_two())))
        .f64("cost_two_f64", costs.iter().map(|c| to_f64(&c.cost_two())))
        .u8("dice", costs.iter().map(|c| opt.policy.dice(c.roll)))
        .str("margin", margins.iter().map(format_pq))
        .f64("margin_f64", margins.iter().map(to_f64))
        .build("long_run_policy")?;
    Ok(vec![summary, policy])
}

/// `value_iteration` (per n and roll: V_n, dice, margin) and `convergence`
/// (per n: E V_n, E V_n / n, the increment E V_n - E V_{n-1} and its gap to
/// the exact optimum g, the bias E V_n - n g, the policy).
/// Run with f64 in sweeps; the verification stage rebuilds it exactly.
pub fn value_iteration<S: Scalar>(horizon: u32) -> anyhow::Result<Vec<Table>> {
    let costs = roll_costs();
    let opt = optimum(&costs);
    let g = to_f64(&opt.loss);
    let optimal_dice: Vec<u8> = costs.iter().map(|c| opt.policy.dice(c.roll)).collect();
    let steps = iterate::<S>(&costs, horizon);

    let rolls: Vec<Roll> = Roll::pairs().collect();
    let per_state = steps.iter().flat_map(|s| (0..rolls.len()).map(move |i| (s, i)));
    let detail = TableBuilder::new()
        .u32("horizon", per_state.clone().map(|_| horizon))
        .u32("n", per_state.clone().map(|(s, _)| s.n))
        .u8("x", per_state.clone().map(|(_, i)| rolls[i].x))
        .u8("y", per_state.clone().map(|(_, i)| rolls[i].y))
        .u8("dice", per_state.clone().map(|(s, i)| s.dice[i]))
        .f64("value_f64", per_state.clone().map(|(s, i)| s.values[i].to_f64()))
        .f64("margin_f64", per_state.map(|(s, i)| s.margins.as_ref().map_or(f64::INFINITY, |m| m[i].to_f64())))
        .build("value_iteration")?;

    let two_dice = |dice: &[u8]| {
        rolls
            .iter()
            .zip(dice)
            .filter(|(_, d)| **d == 2)
            .map(|(r, _)| format!("{}{}", r.x, r.y))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let expected: Vec<f64> = steps.iter().map(|s| s.expected.to_f64()).collect();
    // E V_n - E V_{n-1}: the loss of the n-th army, which converges geometrically
    // to g, while E V_n / n = g + h/n + o(1/n) converges only like 1/n.
    let increments: Vec<f64> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| if i == 0 { s.expected.to_f64() } else { s.expected.sub(&steps[i - 1].expected).to_f64() })
        .collect();
    let convergence = TableBuilder::new()
        .u32("horizon", steps.iter().map(|_| horizon))
        .u32("n", steps.iter().map(|s| s.n))
        .f64("expected_loss_f64", expected.iter().copied())
        .f64("loss_per_army_f64", steps.iter().zip(&expected).map(|(s, e)| e / f64::from(s.n)))
        .f64("increment_f64", increments.iter().copied())
        .f64("increment_gap_f64", increments.iter().map(|v| v - g))
        .f64("bias_f64", steps.iter().zip(&expected).map(|(s, e)| e - f64::from(s.n) * g))
        .str("two_dice_rolls", steps.iter().map(|s| two_dice(&s.dice)))
        .u32("two_dice_count", steps.iter().map(|s| s.dice.iter().filter(|d| **d == 2).count() as u32))
        .bool("matches_optimal_rule", steps.iter().map(|s| s.dice == optimal_dice))
        .build("convergence")?;
    Ok(vec![detail, convergence])
}

/// `battles` (per (A, D): exact conquest probability and expected armies left)
/// and, for the optimal defender, `battle_policy` (its dice per roll where it has a choice).
pub fn battles(rule: DefenderRule, max_attackers: u32, max_defenders: u32) -> anyhow::Result<Vec<Table>> {
    battle_tables(
        rule,
        max_attackers,
        max_defenders,
        &Battles::<DiceRational>::solve(max_attackers, max_defenders, rule),
    )
}

/// Builds the battle tables from a solved grid (the run solves in Z[1/6],
/// verification with plain rationals).
pub fn battle_tables<S: ExactScalar>(
    rule: DefenderRule,
    max_attackers: u32,
    max_defenders: u32,
    solved: &Battles<S>,
) -> anyhow::Result<Vec<Table>> {
    let outcome = |a, d| {
        let o = solved.outcome(a, d);
        [o.conquest.to_rational(), o.attackers_left.to_rational(), o.defenders_left.to_rational()]
    };
    let decisions = |a, d| solved.decisions(a, d).map(<[_]>::to_vec);
    let states: Vec<(u32, u32)> = (2..=max_attackers).flat_map(|a| (1..=max_defenders).map(move |d| (a, d))).collect();
    let values: Vec<[Rational; 3]> = states.iter().map(|&(a, d)| outcome(a, d)).collect();
    let column = |i: usize| values.iter().map(move |v| &v[i]);
    let table = TableBuilder::new()
        .str("defender_rule", states.iter().map(|_| rule.as_str()))
        .u32("attackers", states.iter().map(|s| s.0))
        .u32("defenders", states.iter().map(|s| s.1))
        .str("conquest", column(0).map(format_pq))
        .f64("conquest_f64", column(0).map(to_f64))
        .str("attackers_left", column(1).map(format_pq))
        .f64("attackers_left_f64", column(1).map(to_f64))
        .str("defenders_left", column(2).map(format_pq))
        .f64("defenders_left_f64", column(2).map(to_f64))
        .build("battles")?;
    let mut tables = vec![table];
    if rule == DefenderRule::Optimal {
        let rows: Vec<(u32, u32, super::battle::Decision)> = states
            .iter()
            .flat_map(|&(a, d)| decisions(a, d).unwrap_or_default().into_iter().map(move |c| (a, d, c)))
            .collect();
        tables.push(
            TableBuilder::new()
                .u32("attackers", rows.iter().map(|r| r.0))
                .u32("defenders", rows.iter().map(|r| r.1))
                .u8("x", rows.iter().map(|r| r.2.roll.x))
                .u8("y", rows.iter().map(|r| r.2.roll.y))
                .u8("dice", rows.iter().map(|r| r.2.dice))
                .bool("tie", rows.iter().map(|r| r.2.tie))
                .build("battle_policy")?,
        );
    }
    Ok(tables)
}
