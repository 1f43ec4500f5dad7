//! Exact checks of stored Fritzen results, each by another route than the run.

use super::analysis::Setting;
use super::dice::{DICE, Dice};
use super::dp::{Solution, resolve_street, solve};
use super::model::Model;
use super::penalty::{MAX_X, expected_penalties};
use super::rollout::RolloutPolicy;
use super::sim;
use super::tables;
use super::task::{FritzenTask, GoalPair, THRESHOLD_MAX_POT, spread};
use crate::artifacts::columns::{Columns, TableBuilder};
use crate::exact::{DiceRational, Integer, Rational, Scalar, format_pq, parse_pq, to_f64};
use crate::game::{StoredTask, Table, Verdict};
use crate::keys::{exact_sequence, exact_tables};
use arrow::record_batch::RecordBatch;
use malachite::base::num::arithmetic::traits::Lcm;
use std::collections::{BTreeMap, HashSet};

/// Relative agreement required between a stored f64 and its exact value.
const RELATIVE: f64 = 1e-9;
/// Margins below this (in expected penalty points) count as near-ties.
const NEAR_TIE: f64 = 1e-9;

pub(super) fn verify(model: &Model, planned: &FritzenTask, task: &StoredTask) -> anyhow::Result<Verdict> {
    if let Err(why) = check_keys(model, planned, task) {
        return Ok(Verdict::failed(why));
    }
    match planned {
        FritzenTask::Reference => reference(model, task),
        FritzenTask::Settings { .. } => settings(model, task),
        FritzenTask::Thresholds { .. } => thresholds(model, task),
        FritzenTask::Simulation { .. } => simulation(model, task),
        FritzenTask::Rollout { .. } => rollout(model, task),
    }
}

/// The keys of every table against the planned task: which tables, and in
/// each the settings, throws, states, seats or policies it plans, in order.
/// The checks below then read the parameters from rows known to be planned.
fn check_keys(model: &Model, planned: &FritzenTask, task: &StoredTask) -> Result<(), String> {
    match planned {
        FritzenTask::Reference => reference_keys(model, task),
        FritzenTask::Settings { settings, policy, verify } => settings_keys(model, task, settings, *policy, *verify),
        FritzenTask::Thresholds { goal } => thresholds_keys(model, task, goal),
        FritzenTask::Simulation { label, seats, games, rounds, seed, fixed_pot } => simulation_keys(
            task,
            label,
            seats,
            (seats.len() as u32, *games, *rounds, *seed, fixed_pot.map_or(-1, i64::from)),
        ),
        FritzenTask::Rollout { goal, policies, rollouts, seed } => rollout_keys(task, goal, policies, *rollouts, *seed),
    }
}

/// (players, games, rounds, seed, fixed pot or -1) of a simulated table.
type SimRun = (u32, u32, u32, u64, i64);

fn error(e: anyhow::Error) -> String {
    e.to_string()
}

fn table<'t>(task: &'t StoredTask, name: &str) -> Result<&'t RecordBatch, String> {
    task.table(name).map_err(error)
}

/// A string column's values.
fn strs(table: &RecordBatch, name: &str) -> Result<Vec<String>, String> {
    let column = table.strs(name).map_err(error)?;
    Ok((0..table.num_rows()).map(|r| column.value(r).to_string()).collect())
}

/// Each row's setting as `setting_key` writes it.
fn settings_of(table: &RecordBatch) -> Result<Vec<String>, String> {
    let (l, m, p) = (strs(table, "lambda")?, strs(table, "mu")?, strs(table, "pot")?);
    Ok((0..table.num_rows()).map(|r| format!("lambda = {}, mu = {}, pot = {}", l[r], m[r], p[r])).collect())
}

fn setting_key(s: &Setting) -> String {
    format!("lambda = {}, mu = {}, pot = {}", format_pq(&s.lambda), format_pq(&s.mu), format_pq(&s.pot))
}

/// A goal's setting with no street pot.
fn goal_setting((lambda, mu): &(Rational, Rational)) -> Setting {
    Setting { lambda: lambda.clone(), mu: mu.clone(), pot: Rational::from(0u32) }
}

/// Every first throw of five dice, as the tables write it.
fn throws(model: &Model) -> Vec<String> {
    model.throws[DICE].iter().map(|(d, _)| d.to_string()).collect()
}

fn reference_keys(model: &Model, task: &StoredTask) -> Result<(), String> {
    exact_tables(task, &["penalties", "state_space", "goal_probabilities"])?;
    let x = table(task, "penalties")?.u8s("x").map_err(error)?.values().iter().map(|x| format!("U_{x}")).collect();
    exact_sequence("penalties", x, (0..=MAX_X).map(|x| format!("U_{x}")).collect(), String::clone)?;
    let expected = tables::reference(model).map_err(error)?;
    exact_sequence(
        "state_space",
        strs(table(task, "state_space")?, "name")?,
        strs(&expected[1].batch, "name")?,
        String::clone,
    )?;
    let goals = tables::INDICATOR_GOALS.iter().map(|g| g.0.to_string()).collect();
    exact_sequence("goal_probabilities", strs(table(task, "goal_probabilities")?, "goal")?, goals, String::clone)
}

fn settings_keys(
    model: &Model,
    task: &StoredTask,
    settings: &[Setting],
    policy: bool,
    verify: usize,
) -> Result<(), String> {
    let throws = throws(model);
    exact_tables(task, if policy { &["summary", "first_throw", "policy"] } else { &["summary", "first_throw"] })?;
    let planned_settings: Vec<String> = settings.iter().map(setting_key).collect();
    let summary = table(task, "summary")?;
    exact_sequence("summary", settings_of(summary)?, planned_settings.clone(), String::clone)?;
    let marks = summary.bools("verify_exact").map_err(error)?;
    if (0..settings.len()).map(|r| marks.value(r)).ne(spread(settings.len(), verify)) {
        return Err(format!("summary: verify_exact does not mark the {verify} evenly spread settings planned"));
    }
    let first = table(task, "first_throw")?;
    let per_throw = |keys: &[String]| -> Vec<String> {
        keys.iter().flat_map(|s| throws.iter().map(move |t| format!("{s}, throw {t}"))).collect()
    };
    exact_sequence(
        "first_throw",
        settings_of(first)?.iter().zip(strs(first, "throw")?).map(|(s, throw)| format!("{s}, throw {throw}")).collect(),
        per_throw(&planned_settings),
        String::clone,
    )?;
    if policy {
        let states: Vec<String> = tables::policy_states(model)
            .iter()
            .map(|(street, aside, throw)| {
                format!("{}, aside {aside}, throw {throw}", if *street { "street" } else { "normal" })
            })
            .collect();
        let planned: Vec<String> =
            planned_settings.iter().flat_map(|s| states.iter().map(move |k| format!("{s}, {k}"))).collect();
        let p = table(task, "policy")?;
        let (mode, aside, throw) = (strs(p, "mode")?, strs(p, "aside")?, strs(p, "throw")?);
        let stored: Vec<String> = settings_of(p)?
            .iter()
            .enumerate()
            .map(|(r, s)| format!("{s}, {}, aside {}, throw {}", mode[r], aside[r], throw[r]))
            .collect();
        exact_sequence("policy", stored, planned, String::clone)?;
    }
    Ok(())
}

fn thresholds_keys(model: &Model, task: &StoredTask, goal: &(Rational, Rational)) -> Result<(), String> {
    let throws = throws(model);
    exact_tables(task, &["street_threshold"])?;
    let t = table(task, "street_threshold")?;
    let (l, m) = (strs(t, "lambda")?, strs(t, "mu")?);
    let stored: Vec<String> = strs(t, "throw")?
        .iter()
        .enumerate()
        .map(|(r, th)| format!("lambda = {}, mu = {}, throw {th}", l[r], m[r]))
        .collect();
    let planned = throws
        .iter()
        .map(|th| format!("lambda = {}, mu = {}, throw {th}", format_pq(&goal.0), format_pq(&goal.1)))
        .collect();
    exact_sequence("street_threshold", stored, planned, String::clone)
}

/// The seats of one simulated table, each with the run's parameters.
fn simulation_keys(task: &StoredTask, label: &str, seats: &[(GoalPair, bool)], run: SimRun) -> Result<(), String> {
    exact_tables(task, &["sim"])?;
    let t = table(task, "sim")?;
    let (tables_col, seat_col, street_col) =
        (strs(t, "table")?, t.u32s("seat").map_err(error)?, t.bools("street_option").map_err(error)?);
    let (players, g, r, sd, fp) = (
        t.u32s("players").map_err(error)?,
        t.u32s("games").map_err(error)?,
        t.u32s("rounds").map_err(error)?,
        t.u64s("seed").map_err(error)?,
        t.i64s("fixed_pot").map_err(error)?,
    );
    let settings = settings_of(t)?;
    let row_key = |table: &str, seat: u32, setting: &str, street: bool, run: (u32, u32, u32, u64, i64)| {
        format!(
            "table {table}, seat {seat}: {setting}, street {street}, (players, games, rounds, seed, fixed pot) {run:?}"
        )
    };
    let stored = (0..t.num_rows())
        .map(|k| {
            let run = (players.value(k), g.value(k), r.value(k), sd.value(k), fp.value(k));
            row_key(&tables_col[k], seat_col.value(k), &settings[k], street_col.value(k), run)
        })
        .collect();
    let planned = seats
        .iter()
        .enumerate()
        .map(|(k, (goal, street))| row_key(label, k as u32, &setting_key(&goal_setting(goal)), *street, run))
        .collect();
    exact_sequence("sim", stored, planned, String::clone)
}

fn rollout_keys(
    task: &StoredTask,
    goal: &(Rational, Rational),
    policies: &[RolloutPolicy],
    rollouts: u32,
    seed: u64,
) -> Result<(), String> {
    exact_tables(task, &["rollout"])?;
    let t = table(task, "rollout")?;
    let (per_action, sd) = (t.u32s("rollouts_per_action").map_err(error)?, t.u64s("seed").map_err(error)?);
    let settings = settings_of(t)?;
    let stored = strs(t, "policy")?
        .iter()
        .enumerate()
        .map(|(k, p)| format!("{}, {p}, {} rollouts, seed {}", settings[k], per_action.value(k), sd.value(k)))
        .collect();
    let setting = setting_key(&goal_setting(goal));
    let planned =
        policies.iter().map(|p| format!("{setting}, {}, {rollouts} rollouts, seed {seed}", p.as_str())).collect();
    exact_sequence("rollout", stored, planned, String::clone)
}

fn close(stored: f64, exact: &Rational) -> bool {
    let e = to_f64(exact);
    (stored - e).abs() <= RELATIVE * e.abs().max(1.0)
}

/// U_x in Z[1/6] (the run uses plain rationals), the state space recounted
/// over ordered dice as the thesis counted it, and the goal probabilities by
/// the DP in plain rationals (the run uses Z[1/6]).
fn reference(model: &Model, task: &StoredTask) -> anyhow::Result<Verdict> {
    let p = task.table("penalties")?;
    let u: [DiceRational; MAX_X + 1] = expected_penalties();
    for (i, ux) in u.iter().enumerate() {
        if parse_pq(p.strs("u")?.value(i)).map_err(anyhow::Error::msg)? != ux.to_rational() {
            return Ok(Verdict::failed(format!("U_{i} differs from the recomputation in Z[1/6]")));
        }
    }
    // Every ordered configuration of six dice, each aside or not.
    let mut states = HashSet::new();
    let mut street = HashSet::new();
    for outcome in 0..6usize.pow(6) {
        let faces: Vec<u8> = (0..6).map(|i| (outcome / 6usize.pow(i) % 6) as u8 + 1).collect();
        for mask in 0..64usize {
            let aside: Vec<u8> = (0..6).filter(|i| mask >> i & 1 == 1).map(|i| faces[i]).collect();
            let throw: Vec<u8> = (0..6).filter(|i| mask >> i & 1 == 0).map(|i| faces[i]).collect();
            let key = (Dice::from_faces(&aside).expect("six faces"), Dice::from_faces(&throw).expect("six faces"));
            if key.0.is_set() {
                street.insert(key);
            }
            states.insert(key);
        }
    }
    let counts = task.table("state_space")?;
    let stored: BTreeMap<&str, u64> = (0..counts.num_rows())
        .map(|r| Ok((counts.strs("name")?.value(r), counts.u64s("count")?.value(r))))
        .collect::<anyhow::Result<_>>()?;
    if stored.get("normal_states") != Some(&(states.len() as u64))
        || stored.get("street_states") != Some(&(street.len() as u64))
    {
        return Ok(Verdict::failed(format!(
            "state counts differ from the recount over ordered dice ({} normal, {} street)",
            states.len(),
            street.len()
        )));
    }
    let goals = task.table("goal_probabilities")?;
    let recomputed = goal_probabilities_rational(model);
    for (r, (name, exact)) in recomputed.iter().enumerate() {
        if goals.strs("goal")?.value(r) != *name
            || parse_pq(goals.strs("probability")?.value(r)).ok().as_ref() != Some(exact)
        {
            return Ok(Verdict::failed(format!("goal probability {name} differs from the recomputation")));
        }
    }
    Ok(Verdict::certified(format!(
        "U_0..U_6 equal in Z[1/6]; {} normal and {} street states recounted over ordered dice; {} goal probabilities equal",
        states.len(),
        street.len(),
        recomputed.len()
    )))
}

fn goal_probabilities_rational(model: &Model) -> Vec<(&'static str, Rational)> {
    tables::INDICATOR_GOALS
        .iter()
        .map(|&(name, holds)| {
            let cost = |a: &Dice| Rational::from(-i64::from(u8::from(holds(a.pips()))));
            (name, -solve(model, cost, Rational::from(0u32)).normal_turn(model))
        })
        .collect()
}

/// A setting read back from a row.
fn setting_at(t: &RecordBatch, row: usize) -> anyhow::Result<Setting> {
    let get =
        |name: &str| -> anyhow::Result<Rational> { parse_pq(t.strs(name)?.value(row)).map_err(anyhow::Error::msg) };
    Ok(Setting { lambda: get("lambda")?, mu: get("mu")?, pot: get("pot")? })
}

/// The exact DP of a setting, in Z[1/6] after scaling every cost by the
/// common denominator D of lambda mu, lambda and lambda mu R (no gcds).
pub struct ExactSetting {
    pub solution: Solution<DiceRational>,
    scale: Integer,
}

impl ExactSetting {
    pub fn solve(model: &Model, setting: &Setting) -> ExactSetting {
        let weight = &setting.lambda * &setting.mu;
        let street = &weight * &setting.pot;
        let scale = [&weight, &setting.lambda, &street]
            .iter()
            .map(|r| r.to_denominator())
            .fold(malachite::Natural::from(1u32), |a, b| a.lcm(b));
        let scaled = |r: &Rational| -> Integer {
            let v = r * Rational::from(scale.clone());
            let (numerator, denominator) = v.to_numerator_and_denominator();
            assert_eq!(denominator, 1u32, "the scale clears every denominator");
            Integer::from_sign_and_abs(v >= 0u32, numerator)
        };
        let times = |r: &Rational, sign: i64| -> Integer { scaled(r) * Integer::from(sign) };
        let (low, lambda_d, street_d, d) =
            (times(&weight, -10), scaled(&setting.lambda), times(&street, -1), Integer::from(scale.clone()));
        let u: [DiceRational; MAX_X + 1] = expected_penalties();
        let integer = |n: &Integer| DiceRational::from_integer(n.clone());
        let solution = solve(
            model,
            |a| match a.pips() {
                0..=10 => integer(&low),
                t @ 11..=29 => integer(&(&d * Integer::from(30 - i64::from(t)))),
                t => DiceRational::zero().sub(&integer(&lambda_d).mul(&u[t as usize - 30])),
            },
            integer(&street_d),
        );
        ExactSetting { solution, scale: Integer::from(scale) }
    }

    pub fn value(&self, v: &DiceRational) -> Rational {
        v.to_rational() / Rational::from(self.scale.clone())
    }
}

/// Exact values of a first throw.
struct ExactThrow {
    v0: Rational,
    w0: Rational,
    /// Best normal action's exact value and the runner-up's.
    second_normal: Option<Rational>,
}

fn exact_throw(model: &Model, exact: &ExactSetting, throw: &Dice) -> ExactThrow {
    let s = &exact.solution;
    let normal = s.normal_actions(model, &Dice::EMPTY, throw);
    ExactThrow {
        v0: exact.value(&normal[0].value),
        w0: exact.value(&s.street_actions(model, &Dice::EMPTY, throw)[0].value),
        second_normal: normal.iter().find(|a| a.value != normal[0].value).map(|a| exact.value(&a.value)),
    }
}

/// Recomputes the marked settings exactly: stored values to 1e-9 relative,
/// the stored best actions optimal, the street decisions right; marks exact
/// ties and near-ties (findings table `exact_first_throw`). Unmarked settings
/// get consistency checks. Wrong street decisions are repaired.
fn settings(model: &Model, task: &StoredTask) -> anyhow::Result<Verdict> {
    let summary = task.table("summary")?;
    let first = task.table("first_throw")?;
    let mut check = FirstThrows {
        model,
        first,
        throws: model.throws[DICE].iter().map(|(d, _)| *d).collect(),
        findings: Vec::new(),
        wrong_decisions: Vec::new(),
    };
    if first.num_rows() != check.throws.len() * summary.num_rows() {
        return Ok(Verdict::failed("first_throw does not have 462 rows per setting"));
    }
    let mut verified = 0;
    for row in 0..summary.num_rows() {
        let setting = setting_at(summary, row)?;
        if let Err(why) = check.consistent(row, &setting)? {
            return Ok(Verdict::failed(why));
        }
        if summary.bools("verify_exact")?.value(row) {
            verified += 1;
            if let Err(why) = check.exactly(summary, row, &setting)? {
                return Ok(Verdict::failed(why));
            }
        }
    }
    let ties: Vec<String> = check
        .findings
        .iter()
        .filter(|f| !f.3.is_empty())
        .map(|(row, throw, _, kind)| {
            format!("{} {throw}: {kind}", setting_at(summary, *row).map(|s| s.label()).unwrap_or_default())
        })
        .collect();
    let findings_table = exact_first_throw(summary, &check.findings)?;
    let detail = format!(
        "{} settings, {verified} recomputed exactly in Z[1/6]: values within {RELATIVE:e}, best actions optimal; {} ties or near-ties{}",
        summary.num_rows(),
        ties.len(),
        if ties.is_empty() { String::new() } else { format!(" ({})", ties.join("; ")) }
    );
    if check.wrong_decisions.is_empty() {
        return Ok(Verdict::certified(detail).with_findings(vec![findings_table]));
    }
    // Exact ties or sub-rounding margins decided the wrong way: flip them.
    let flipped: HashSet<usize> = check.wrong_decisions.iter().copied().collect();
    let go = first.bools("go_street")?;
    let go_fixed: Vec<bool> = (0..first.num_rows()).map(|r| go.value(r) != flipped.contains(&r)).collect();
    let replacement = replace_bool(first, "go_street", &go_fixed)?;
    Ok(Verdict::repaired(
        format!(
            "{detail}; street decision repaired at {} first throws (exact ties or sub-rounding margins)",
            flipped.len()
        ),
        vec![replacement],
    )
    .with_findings(vec![findings_table]))
}

/// One exact first throw of a setting: (summary row, throw, exact values, tie kind or "").
type Finding = (usize, Dice, ExactThrow, &'static str);

/// The check of a settings task's `first_throw` rows, setting by setting.
struct FirstThrows<'a> {
    model: &'a Model,
    first: &'a RecordBatch,
    /// The 462 first throws, in the order of each setting's rows.
    throws: Vec<Dice>,
    findings: Vec<Finding>,
    /// Rows whose stored street decision the exact values contradict.
    wrong_decisions: Vec<usize>,
}

impl FirstThrows<'_> {
    /// The rows of summary row `row`'s setting: throws in order, margin and go_street consistent.
    fn consistent(&self, row: usize, setting: &Setting) -> anyhow::Result<Result<(), String>> {
        let first = self.first;
        let (v0s, w0s, go, margin) =
            (first.f64s("v0")?, first.f64s("w0")?, first.bools("go_street")?, first.f64s("margin")?);
        let stored_throws = first.strs("throw")?;
        for (k, throw) in self.throws.iter().enumerate() {
            let r = row * self.throws.len() + k;
            if stored_throws.value(r) != throw.to_string() {
                return Ok(Err(format!("{}: first throws out of order at row {r}", setting.label())));
            }
            if margin.value(r) != w0s.value(r) - v0s.value(r) || go.value(r) != (w0s.value(r) < v0s.value(r)) {
                return Ok(Err(format!("{}: row {r} is inconsistent (margin or go_street)", setting.label())));
            }
        }
        Ok(Ok(()))
    }

    /// The setting of summary row `row` solved exactly: every stored value,
    /// best action and the expected costs; street decisions and ties noted.
    fn exactly(&mut self, summary: &RecordBatch, row: usize, setting: &Setting) -> anyhow::Result<Result<(), String>> {
        let (model, first) = (self.model, self.first);
        let (v0s, w0s, go) = (first.f64s("v0")?, first.f64s("w0")?, first.bools("go_street")?);
        let (best_normal, best_street) = (first.strs("best_normal")?, first.strs("best_street")?);
        let exact = ExactSetting::solve(model, setting);
        let mut turn = Rational::from(0u32);
        for (k, throw) in self.throws.iter().enumerate() {
            let r = row * self.throws.len() + k;
            let e = exact_throw(model, &exact, throw);
            if !close(v0s.value(r), &e.v0) || !close(w0s.value(r), &e.w0) {
                return Ok(Err(format!(
                    "{}, throw {throw}: stored V0 {} / W0 {} vs exact {} / {}",
                    setting.label(),
                    v0s.value(r),
                    w0s.value(r),
                    to_f64(&e.v0),
                    to_f64(&e.w0)
                )));
            }
            let part =
                |text: &str| Dice::from_faces(&text.split(',').filter_map(|f| f.parse().ok()).collect::<Vec<u8>>());
            let stored_normal = part(best_normal.value(r)).map_err(anyhow::Error::msg)?;
            let stored_street = part(best_street.value(r)).map_err(anyhow::Error::msg)?;
            let p = model.position(&stored_normal);
            let q = model.position(&stored_street);
            if exact.value(&exact.solution.normal[p]) != e.v0 || exact.value(&exact.solution.street[q]) != e.w0 {
                return Ok(Err(format!("{}, throw {throw}: the stored best action is not optimal", setting.label())));
            }
            let go_exact = e.w0 < e.v0;
            if go.value(r) != go_exact {
                self.wrong_decisions.push(r);
            }
            let count = model.throws[DICE][k].1;
            turn += Rational::from_unsigneds(count, 46_656u32) * (if go_exact { &e.w0 } else { &e.v0 });
            let kind = tie_kind(&e);
            self.findings.push((row, *throw, e, kind));
        }
        if !close(summary.f64s("expected_cost")?.value(row), &turn) {
            return Ok(Err(format!("{}: expected cost differs from the exact {}", setting.label(), to_f64(&turn))));
        }
        let no_street = exact.value(&exact.solution.normal_turn(model));
        if !close(summary.f64s("expected_cost_no_street")?.value(row), &no_street) {
            return Ok(Err(format!("{}: expected cost without street differs", setting.label())));
        }
        Ok(Ok(()))
    }
}

/// Whether a first throw's best choices tie exactly or nearly ("" if neither).
fn tie_kind(e: &ExactThrow) -> &'static str {
    let street_margin = to_f64(&(&e.w0 - &e.v0)).abs();
    let normal_margin = e.second_normal.as_ref().map(|s| to_f64(&(s - &e.v0)));
    if e.w0 == e.v0 {
        "exact tie: street = normal"
    } else if street_margin < NEAR_TIE {
        "near tie: street vs normal"
    } else if normal_margin == Some(0.0) {
        "exact tie: two best normal actions"
    } else if normal_margin.is_some_and(|m| m < NEAR_TIE) {
        "near tie: two best normal actions"
    } else {
        ""
    }
}

/// `table` with one boolean column replaced.
fn replace_bool(table: &RecordBatch, name: &str, values: &[bool]) -> anyhow::Result<Table> {
    let index = table.schema().index_of(name)?;
    let mut columns = table.columns().to_vec();
    columns[index] = std::sync::Arc::new(arrow::array::BooleanArray::from(values.to_vec()));
    Ok(Table { name: "first_throw", batch: RecordBatch::try_new(table.schema(), columns)? })
}

/// The findings table: exact V0, W0 and margin of every first throw of the
/// recomputed settings, with the tie marks.
fn exact_first_throw(summary: &RecordBatch, rows: &[Finding]) -> anyhow::Result<Table> {
    let col = |name: &str| -> anyhow::Result<Vec<String>> {
        let c = summary.strs(name)?;
        Ok(rows.iter().map(|(r, ..)| c.value(*r).to_string()).collect())
    };
    TableBuilder::new()
        .str("lambda", col("lambda")?)
        .str("mu", col("mu")?)
        .str("pot", col("pot")?)
        .str("throw", rows.iter().map(|r| r.1.to_string()))
        .str("v0", rows.iter().map(|r| format_pq(&r.2.v0)))
        .str("w0", rows.iter().map(|r| format_pq(&r.2.w0)))
        .str("margin", rows.iter().map(|r| format_pq(&(&r.2.w0 - &r.2.v0))))
        .f64("margin_f64", rows.iter().map(|r| to_f64(&(&r.2.w0 - &r.2.v0))))
        .bool("go_street", rows.iter().map(|r| r.2.w0 < r.2.v0))
        .str("tie", rows.iter().map(|r| r.3))
        .build("exact_first_throw")
}

/// Each threshold checked from both sides by the street DP at the pots just
/// below and above it (the run found it by Newton's method).
fn thresholds(model: &Model, task: &StoredTask) -> anyhow::Result<Verdict> {
    let t = task.table("street_threshold")?;
    let setting = Setting {
        lambda: parse_pq(t.strs("lambda")?.value(0)).map_err(anyhow::Error::msg)?,
        mu: parse_pq(t.strs("mu")?.value(0)).map_err(anyhow::Error::msg)?,
        pot: Rational::from(0u32),
    };
    let goal = setting.goal();
    let u = expected_penalties::<f64>();
    let mut solution = solve(model, |a| goal.terminal_cost(a.pips(), &u), 0.0);
    let throws: Vec<Dice> = model.throws[DICE].iter().map(|(d, _)| *d).collect();
    let mut street_at = |pot: f64, k: usize| {
        resolve_street(model, &mut solution, goal.street_cost(&pot));
        solution.state_value(model, &Dice::EMPTY, &throws[k], true)
            < solution.state_value(model, &Dice::EMPTY, &throws[k], false)
    };
    let (kind, value) = (t.strs("kind")?, t.f64s("threshold")?);
    let mut above = 0;
    for (k, throw) in throws.iter().enumerate() {
        let ok = match kind.value(k) {
            "always" => street_at(0.0, k),
            "never" => !street_at(THRESHOLD_MAX_POT, k),
            _ => {
                above += 1;
                let r = value.value(k);
                !street_at(r * (1.0 - 1e-7), k) && street_at(r * (1.0 + 1e-7) + 1e-9, k)
            }
        };
        if !ok {
            return Ok(Verdict::failed(format!("{}: the threshold of {throw} does not separate", setting.label())));
        }
    }
    Ok(Verdict::certified(format!(
        "{}: {} thresholds confirmed from both sides (relative 1e-7), always/never at 0 and {}",
        setting.label(),
        above,
        THRESHOLD_MAX_POT
    )))
}

/// Replays the simulation (same seeds, one thread): identical results; and a
/// player of the one-person goal without street must match the exact DP.
fn simulation(model: &Model, task: &StoredTask) -> anyhow::Result<Verdict> {
    let t = task.table("sim")?;
    let u = expected_penalties::<f64>();
    let seats: Vec<(Setting, sim::Player)> = (0..t.num_rows())
        .map(|r| {
            let setting = setting_at(t, r)?;
            let player = sim::Player { goal: setting.goal(), street: t.bools("street_option")?.value(r) };
            Ok((setting, player))
        })
        .collect::<anyhow::Result<_>>()?;
    let table = sim::Table {
        players: seats.iter().map(|s| s.1.clone()).collect(),
        games: t.u32s("games")?.value(0),
        rounds: t.u32s("rounds")?.value(0),
        seed: t.u64s("seed")?.value(0),
        fixed_pot: u32::try_from(t.i64s("fixed_pot")?.value(0)).ok(),
    };
    let replay = rayon::ThreadPoolBuilder::new().num_threads(1).build()?.install(|| sim::simulate(model, &u, &table));
    for (r, stats) in replay.iter().enumerate() {
        if t.f64s("own_mean")?.value(r) != stats.own.mean || t.f64s("dealt_mean")?.value(r) != stats.dealt.mean {
            return Ok(Verdict::failed(format!("seat {r}: the replay with one thread differs")));
        }
    }
    let mut checked = Vec::new();
    for (r, (setting, player)) in seats.iter().enumerate() {
        if setting.lambda == 0u32 && setting.mu == 0u32 && !player.street {
            let exact = ExactSetting::solve(model, setting);
            let expected = to_f64(&exact.value(&exact.solution.normal_turn(model)));
            let z = (replay[r].own.mean - expected) / replay[r].own.se;
            if z.abs() > 5.0 {
                return Ok(Verdict::failed(format!(
                    "seat {r}: own penalty {} is {z:.1} SE from the exact {expected}",
                    replay[r].own.mean
                )));
            }
            checked.push(format!("seat {r} own penalty {z:+.2} SE from the exact expectation"));
        }
    }
    Ok(Verdict::certified(format!(
        "replayed with one thread: identical{}",
        if checked.is_empty() { String::new() } else { format!("; {}", checked.join(", ")) }
    )))
}

/// The optimal turn cost against the exact DP; the Monte-Carlo costs can
/// only be worse.
fn rollout(model: &Model, task: &StoredTask) -> anyhow::Result<Verdict> {
    let t = task.table("rollout")?;
    let setting = setting_at(t, 0)?;
    let exact = ExactSetting::solve(model, &setting);
    let optimum = exact.value(&exact.solution.normal_turn(model));
    for r in 0..t.num_rows() {
        let (states, agreeing) = (t.u64s("states")?.value(r), t.u64s("agreeing")?.value(r));
        if !close(t.f64s("optimal_turn_cost")?.value(r), &optimum) {
            return Ok(Verdict::failed(format!("optimal turn cost differs from the exact {}", to_f64(&optimum))));
        }
        if t.f64s("turn_cost")?.value(r) < to_f64(&optimum) - 1e-9 || agreeing > states {
            return Ok(Verdict::failed(format!(
                "row {r}: the Monte-Carlo policy beats the optimum or agrees too often"
            )));
        }
    }
    Ok(Verdict::certified(format!("optimal turn cost equals the exact {} to {RELATIVE:e}", format_pq(&optimum))))
}
