//! The Fritzen tables (schemas in docs/tables.md). Every row of a per-setting
//! table carries its setting as exact "p/q" strings and f64 columns.

use super::analysis::{Outcome, Setting, Threshold};
use super::dice::{DICE, Dice};
use super::model::Model;
use super::penalty::{MAX_X, expected_penalties};
use super::rollout::Comparison;
use super::sim::{Player, PlayerStats};
use crate::artifacts::columns::TableBuilder;
use crate::exact::{DiceRational, Rational, format_pq, to_f64};
use crate::game::Table;

/// Adds the setting columns (lambda, mu, pot; exact and f64) for `rows` rows each.
fn with_settings(builder: TableBuilder, settings: &[(&Setting, usize)]) -> TableBuilder {
    let repeat = |f: &dyn Fn(&Setting) -> &Rational| -> Vec<&Rational> {
        settings.iter().flat_map(|(s, rows)| std::iter::repeat_n(f(s), *rows)).collect()
    };
    let (lambda, mu, pot) = (repeat(&|s| &s.lambda), repeat(&|s| &s.mu), repeat(&|s| &s.pot));
    builder
        .str("lambda", lambda.iter().map(|r| format_pq(r)))
        .f64("lambda_f64", lambda.iter().map(|r| to_f64(r)))
        .str("mu", mu.iter().map(|r| format_pq(r)))
        .f64("mu_f64", mu.iter().map(|r| to_f64(r)))
        .str("pot", pot.iter().map(|r| format_pq(r)))
        .f64("pot_f64", pot.iter().map(|r| to_f64(r)))
}

/// `summary` (one row per setting) and `first_throw` (462 rows per setting);
/// `verify_exact` marks the settings that `verify` recomputes exactly.
pub fn settings(outcomes: &[(Setting, Outcome)], verify_exact: &[bool]) -> anyhow::Result<Vec<Table>> {
    let one: Vec<(&Setting, usize)> = outcomes.iter().map(|(s, _)| (s, 1)).collect();
    let summaries: Vec<_> = outcomes.iter().map(|(_, o)| &o.summary).collect();
    let summary = with_settings(TableBuilder::new(), &one)
        .f64("expected_cost", summaries.iter().map(|s| s.expected_cost))
        .f64("expected_cost_no_street", summaries.iter().map(|s| s.expected_cost_no_street))
        .f64("p_t_le_10", summaries.iter().map(|s| s.p_low))
        .f64("p_t_ge_30", summaries.iter().map(|s| s.p_high))
        .f64("p_no_own_penalty", summaries.iter().map(|s| s.p_no_own_penalty))
        .f64("p_street", summaries.iter().map(|s| s.p_street))
        .u32("street_first_throws", summaries.iter().map(|s| s.street_first_throws))
        .bool("verify_exact", verify_exact.iter().copied())
        .build("summary")?;

    let per_throw: Vec<(&Setting, usize)> = outcomes.iter().map(|(s, o)| (s, o.first_throws.len())).collect();
    let rows: Vec<_> = outcomes.iter().flat_map(|(_, o)| &o.first_throws).collect();
    let total = 6u64.pow(DICE as u32);
    let first_throw = with_settings(TableBuilder::new(), &per_throw)
        .str("throw", rows.iter().map(|r| r.throw.to_string()))
        .str("probability", rows.iter().map(|r| format_pq(&Rational::from_unsigneds(u64::from(r.count), total))))
        .f64("probability_f64", rows.iter().map(|r| f64::from(r.count) / total as f64))
        .str("best_normal", rows.iter().map(|r| r.best_normal.to_string()))
        .f64("v0", rows.iter().map(|r| r.normal_value))
        .str("best_street", rows.iter().map(|r| r.best_street.to_string()))
        .f64("w0", rows.iter().map(|r| r.street_value))
        .bool("go_street", rows.iter().map(|r| r.go_street))
        .f64("margin", rows.iter().map(|r| r.margin()))
        .build("first_throw")?;
    Ok(vec![summary, first_throw])
}

/// `policy`: the best action of every normal state (12376) and street state
/// (5336) of each setting; final states have no action and their cost as value.
pub fn policy(model: &Model, outcomes: &[(Setting, Outcome)]) -> anyhow::Result<Table> {
    struct Row {
        street: bool,
        aside: Dice,
        throw: Dice,
        action: Option<Dice>,
        value: f64,
    }
    let states = policy_states(model);
    let mut per_setting = Vec::new();
    let mut rows: Vec<Row> = Vec::with_capacity(states.len() * outcomes.len());
    for (setting, outcome) in outcomes {
        let solution = &outcome.solution;
        for &(street, aside, throw) in &states {
            let row = if aside.len() == DICE {
                let p = model.position(&aside);
                let value = if street { solution.street[p] } else { solution.normal[p] };
                Row { street, aside, throw, action: None, value }
            } else {
                let action = street
                    .then(|| solution.street_choice(model, &aside, &throw))
                    .flatten()
                    .unwrap_or_else(|| solution.normal_choice(model, &aside, &throw));
                let value = solution.state_value(model, &aside, &throw, street);
                Row { street, aside, throw, action: Some(action), value }
            };
            rows.push(row);
        }
        per_setting.push((setting, states.len()));
    }
    with_settings(TableBuilder::new(), &per_setting)
        .str("mode", rows.iter().map(|r| if r.street { "street" } else { "normal" }))
        .str("aside", rows.iter().map(|r| r.aside.to_string()))
        .str("throw", rows.iter().map(|r| r.throw.to_string()))
        .str("action", rows.iter().map(|r| r.action.map_or_else(String::new, |a| a.to_string())))
        .f64("value", rows.iter().map(|r| r.value))
        .build("policy")
}

/// The states of the policy table in its row order, the same for every
/// setting: (street, dice aside, throw), normal turn first, by dice aside.
pub fn policy_states(model: &Model) -> Vec<(bool, Dice, Dice)> {
    let mut states = Vec::new();
    for street in [false, true] {
        for t in 0..=DICE {
            for aside in model.of_size(t).filter(|a| !street || a.is_set()) {
                states.extend(model.throws[DICE - t].iter().map(|(throw, _)| (street, *aside, *throw)));
            }
        }
    }
    states
}

/// `street_threshold`: per goal and first throw, the pot above which the street is optimal.
pub fn thresholds(model: &Model, lambda: &Rational, mu: &Rational, values: &[Threshold]) -> anyhow::Result<Table> {
    let n = values.len();
    TableBuilder::new()
        .str("lambda", std::iter::repeat_n(format_pq(lambda), n))
        .f64("lambda_f64", std::iter::repeat_n(to_f64(lambda), n))
        .str("mu", std::iter::repeat_n(format_pq(mu), n))
        .f64("mu_f64", std::iter::repeat_n(to_f64(mu), n))
        .str("throw", model.throws[DICE].iter().map(|(d, _)| d.to_string()))
        .str(
            "kind",
            values.iter().map(|t| match t {
                Threshold::Always => "always",
                Threshold::Above(_) => "above",
                Threshold::Never => "never",
            }),
        )
        .f64(
            "threshold",
            values.iter().map(|t| match t {
                Threshold::Always => 0.0,
                Threshold::Above(r) => *r,
                Threshold::Never => f64::INFINITY,
            }),
        )
        .build("street_threshold")
}

/// One simulated table: its label, its players and their statistics.
pub struct SimulatedTable {
    pub label: String,
    pub players: Vec<(Setting, Player)>,
    pub games: u32,
    pub rounds: u32,
    pub seed: u64,
    pub fixed_pot: Option<u32>,
    pub stats: Vec<PlayerStats>,
}

/// `sim`: one row per seat of each simulated table.
pub fn simulations(tables: &[SimulatedTable]) -> anyhow::Result<Table> {
    let seats: Vec<(&SimulatedTable, usize)> =
        tables.iter().flat_map(|t| (0..t.players.len()).map(move |i| (t, i))).collect();
    let settings: Vec<(&Setting, usize)> = seats.iter().map(|(t, i)| (&t.players[*i].0, 1)).collect();
    let stat = |f: &dyn Fn(&PlayerStats) -> f64| -> Vec<f64> { seats.iter().map(|(t, i)| f(&t.stats[*i])).collect() };
    with_settings(TableBuilder::new(), &settings)
        .str("table", seats.iter().map(|(t, _)| t.label.as_str()))
        .u32("players", seats.iter().map(|(t, _)| t.players.len() as u32))
        .u32("seat", seats.iter().map(|(_, i)| *i as u32))
        .bool("street_option", seats.iter().map(|(t, i)| t.players[*i].1.street))
        .u32("games", seats.iter().map(|(t, _)| t.games))
        .u32("rounds", seats.iter().map(|(t, _)| t.rounds))
        .u64("seed", seats.iter().map(|(t, _)| t.seed))
        .i64("fixed_pot", seats.iter().map(|(t, _)| t.fixed_pot.map_or(-1, i64::from)))
        .f64("own_mean", stat(&|s| s.own.mean))
        .f64("own_se", stat(&|s| s.own.se))
        .f64("dealt_mean", stat(&|s| s.dealt.mean))
        .f64("dealt_se", stat(&|s| s.dealt.se))
        .f64("received_mean", stat(&|s| s.received.mean))
        .f64("received_se", stat(&|s| s.received.se))
        .u64("streets_announced", seats.iter().map(|(t, i)| t.stats[*i].streets_announced))
        .u64("streets_completed", seats.iter().map(|(t, i)| t.stats[*i].streets_completed))
        .u64("turns", seats.iter().map(|(t, i)| t.stats[*i].turns))
        .build("sim")
}

/// `rollout`: the Monte-Carlo policies against the DP, one row per policy.
pub fn rollouts(setting: &Setting, comparisons: &[Comparison], seed: u64) -> anyhow::Result<Table> {
    let settings: Vec<(&Setting, usize)> = vec![(setting, comparisons.len())];
    with_settings(TableBuilder::new(), &settings)
        .str("policy", comparisons.iter().map(|c| c.policy.as_str()))
        .u32("rollouts_per_action", comparisons.iter().map(|c| c.rollouts_per_action))
        .u64("seed", comparisons.iter().map(|_| seed))
        .u64("states", comparisons.iter().map(|c| c.states))
        .u64("agreeing", comparisons.iter().map(|c| c.agreeing))
        .f64("agreement", comparisons.iter().map(Comparison::agreement))
        .f64("turn_cost", comparisons.iter().map(|c| c.turn_cost))
        .f64("optimal_turn_cost", comparisons.iter().map(|c| c.optimal_turn_cost))
        .f64("loss", comparisons.iter().map(Comparison::loss))
        .build("rollout")
}

/// The reference numbers the thesis prints, computed: `penalties` (U_x),
/// `state_space` (state counts) and `goal_probabilities` (the optimum of each
/// indicator goal: P(T <= 10), P(T >= 30), P(no own penalty)).
pub fn reference(model: &Model) -> anyhow::Result<Vec<Table>> {
    let u: [Rational; MAX_X + 1] = expected_penalties();
    let penalties = TableBuilder::new()
        .u8("x", 0..=MAX_X as u8)
        .str("u", u.iter().map(format_pq))
        .f64("u_f64", u.iter().map(to_f64))
        .build("penalties")?;
    let first: Vec<&Dice> = model.throws[DICE].iter().map(|(d, _)| d).collect();
    let counts = [
        ("normal_states", model.normal_states()),
        ("street_states", model.street_states()),
        ("first_throws", first.len()),
        ("first_throws_at_most_10", first.iter().filter(|d| d.pips() <= 10).count()),
        ("first_throws_at_least_30", first.iter().filter(|d| d.pips() >= 30).count()),
    ];
    let state_space = TableBuilder::new()
        .str("name", counts.iter().map(|c| c.0))
        .u64("count", counts.iter().map(|c| c.1 as u64))
        .build("state_space")?;
    let goals = goal_probabilities(model);
    let goal_probabilities = TableBuilder::new()
        .str("goal", goals.iter().map(|g| g.0))
        .str("probability", goals.iter().map(|g| format_pq(&g.1)))
        .f64("probability_f64", goals.iter().map(|g| to_f64(&g.1)))
        .build("goal_probabilities")?;
    Ok(vec![penalties, state_space, goal_probabilities])
}

/// A goal that is met or not by the total T: its name and test.
pub type IndicatorGoal = (&'static str, fn(u32) -> bool);

/// The thesis's three indicator goals (section 3.3.1).
pub const INDICATOR_GOALS: [IndicatorGoal; 3] = [
    ("T <= 10", |t| t <= 10),
    ("T >= 30", |t| t >= 30),
    ("no own penalty (T <= 10 or T >= 30)", |t| t <= 10 || t >= 30),
];

/// The best achievable probability of each indicator goal (no street), exactly.
pub fn goal_probabilities(model: &Model) -> Vec<(&'static str, Rational)> {
    INDICATOR_GOALS
        .iter()
        .map(|(name, holds)| {
            // Minimise -1 on success: the optimum is minus the best probability.
            let cost = |a: &Dice| DiceRational::new(-i64::from(u8::from(holds(a.pips()))), 0);
            let solution = super::dp::solve(model, cost, DiceRational::new(0, 0));
            (*name, -solution.normal_turn(model).to_rational())
        })
        .collect()
}
