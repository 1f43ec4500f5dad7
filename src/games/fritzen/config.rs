//! The `[fritzen]` config section and its expansion into tasks.

use super::analysis::Setting;
use super::rollout::RolloutPolicy;
use super::task::{FritzenTask, GoalPair, goal_slug};
use crate::config::Section;
use crate::error::UserError;
use crate::game::check_task_count;
use crate::grid::{Bounded, Described, Distinct, ExactGrid, Pair, check_exact_range};
use serde::Deserialize;
use std::collections::BTreeSet;

/// Largest lambda or mu a config may ask for.
pub const MAX_WEIGHT: u32 = 1000;
/// Largest street pot.
pub const MAX_POT: u32 = 10_000;
/// The most settings (goals x pots) a section may ask for: at the cost of a
/// setting as a sweep task (docs/benchmarks.md#benchmarks), this many take
/// hours on 2 cores.
const MAX_SETTINGS: u64 = 10_000_000;
/// The most goals a section may list in `goals`: a longer list is a
/// generated file, and the lambda x mu grid says the same in two lines.
const MAX_LISTED_GOALS: usize = 100_000;
/// The `[fritzen]` config section.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FritzenConfig {
    /// Goals as a grid: every lambda with every mu (both or neither).
    lambda: Option<ExactGrid<MAX_WEIGHT>>,
    mu: Option<ExactGrid<MAX_WEIGHT>>,
    /// Goals as [lambda, mu] pairs, e.g. the thesis's eight.
    #[serde(default)]
    goals: Distinct<Pair>,
    /// Street pots R; every goal is solved for every pot.
    #[serde(default = "default_pot")]
    pot: ExactGrid<MAX_POT>,
    /// Settings per task.
    #[serde(default = "default_chunk")]
    chunk: Bounded<1, 100_000>,
    /// Write the full policy (17712 rows per setting).
    #[serde(default)]
    policy: bool,
    /// Settings per task that `verify` recomputes exactly (evenly spread, first
    /// and last included; marked in the summary's `verify_exact` column).
    #[serde(default = "default_verify")]
    verify_per_task: Bounded<1, 100_000>,
    /// Street thresholds over the pot.
    thresholds: Option<ThresholdConfig>,
    simulation: Option<SimulationConfig>,
    rollout: Option<RolloutConfig>,
}

fn default_pot() -> ExactGrid<MAX_POT> {
    ExactGrid::integer(12)
}
fn default_chunk() -> Bounded<1, 100_000> {
    const { Bounded::new(500) }
}
fn default_verify() -> Bounded<1, 100_000> {
    const { Bounded::new(16) }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SimulationConfig {
    /// One table per goal: `players` players with that goal, with and without the street option.
    #[serde(default)]
    goals: Distinct<Pair>,
    #[serde(default = "default_players")]
    players: Bounded<2, 6>,
    /// Tables of players with different goals (2..6 each, all with the street option).
    #[serde(default)]
    mixed: Distinct<Vec<Pair>>,
    /// Games per table; each game starts with an empty pot.
    games: Bounded<1, 10_000_000>,
    /// Turns of each player per game.
    #[serde(default = "default_rounds")]
    rounds: Bounded<1, 100>,
    #[serde(default)]
    seed: u64,
    /// A fixed street pot R (the thesis's model) instead of the real pot that
    /// starts empty and grows by 2 with every announced street.
    fixed_pot: Option<Bounded<0, MAX_POT>>,
}

fn default_players() -> Bounded<2, 6> {
    const { Bounded::new(2) }
}
fn default_rounds() -> Bounded<1, 100> {
    const { Bounded::new(1) }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThresholdConfig {
    /// The goals to find thresholds for [default: every goal of the sweep].
    goals: Option<Distinct<Pair>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RolloutConfig {
    goals: Distinct<Pair>,
    #[serde(default = "default_policies")]
    policies: Distinct<RolloutPolicy>,
    /// Rollouts per action and state.
    rollouts: Bounded<1, 100_000>,
    #[serde(default)]
    seed: u64,
}

fn default_policies() -> Distinct<RolloutPolicy> {
    Distinct::from(vec![RolloutPolicy::Random, RolloutPolicy::Highest])
}

/// Reads a [lambda, mu] pair, checking the range.
fn goal_pair(section: &Section, keys: &[&str], pair: &Pair) -> Result<GoalPair, UserError> {
    for (name, value) in [("lambda", &pair.0), ("mu", &pair.1)] {
        check_exact_range(value, MAX_WEIGHT).map_err(|why| section.invalid(keys, &format!("{name} = {why}")))?;
    }
    Ok((pair.0.clone(), pair.1.clone()))
}

/// The section's tasks, in a stable order.
pub fn plan(section: &Section) -> Result<Vec<FritzenTask>, UserError> {
    let config: FritzenConfig = section.parse()?;
    let goals = goals(section, &config)?;
    let count = goals.len() as u64 * config.pot.values().len() as u64;
    if count > MAX_SETTINGS {
        return Err(section.invalid(&["pot"], &format!("{count} settings (goals x pots), at most {MAX_SETTINGS}")));
    }
    check_task_count(count.div_ceil(u64::from(config.chunk.get()))).map_err(|why| section.invalid(&["chunk"], &why))?;
    let mut tasks: Vec<FritzenTask> = vec![FritzenTask::Reference];
    let settings: Vec<Setting> = goals
        .iter()
        .flat_map(|(lambda, mu)| {
            config.pot.values().iter().map(|pot| Setting { lambda: lambda.clone(), mu: mu.clone(), pot: pot.clone() })
        })
        .collect();
    for chunk in settings.chunks(config.chunk.get() as usize) {
        tasks.push(FritzenTask::Settings {
            settings: chunk.to_vec(),
            policy: config.policy,
            verify: config.verify_per_task.get() as usize,
        });
    }
    if let Some(thresholds) = &config.thresholds {
        let chosen = match &thresholds.goals {
            Some(pairs) => pairs
                .values()
                .iter()
                .map(|pair| goal_pair(section, &["thresholds", "goals"], pair))
                .collect::<Result<Vec<_>, _>>()?,
            None => goals.clone(),
        };
        tasks.extend(chosen.into_iter().map(|goal| FritzenTask::Thresholds { goal }));
    }
    if let Some(sim) = &config.simulation {
        tasks.extend(simulation_tasks(section, sim)?);
    }
    if let Some(r) = &config.rollout {
        if r.policies.is_empty() {
            return Err(section.invalid(&["rollout", "policies"], "needs at least one of random, highest"));
        }
        for pair in r.goals.values() {
            let goal = goal_pair(section, &["rollout", "goals"], pair)?;
            tasks.push(FritzenTask::Rollout {
                goal,
                policies: r.policies.values().to_vec(),
                rollouts: r.rollouts.get(),
                seed: r.seed,
            });
        }
    }
    if tasks.len() == 1 {
        return Err(section.invalid(&[], "nothing to solve: give lambda and mu, goals, simulation or rollout"));
    }
    Ok(tasks)
}

/// The goals of the sweep: the lambda x mu grid, then the listed pairs.
fn goals(section: &Section, config: &FritzenConfig) -> Result<Vec<GoalPair>, UserError> {
    let mut goals: Vec<GoalPair> = Vec::new();
    match (&config.lambda, &config.mu) {
        (Some(lambdas), Some(mus)) => {
            for lambda in lambdas.values() {
                for mu in mus.values() {
                    goals.push((lambda.clone(), mu.clone()));
                }
            }
        }
        (None, None) => {}
        (Some(_), None) => {
            return Err(section.invalid(&["lambda"], "lambda needs mu as well (their grid is every pair)"));
        }
        (None, Some(_)) => {
            return Err(section.invalid(&["mu"], "mu needs lambda as well (their grid is every pair)"));
        }
    }
    let listed = config.goals.values().len();
    if listed > MAX_LISTED_GOALS {
        return Err(section.invalid(
            &["goals"],
            &format!("{listed} goals listed, at most {MAX_LISTED_GOALS} (a grid of goals: lambda and mu)"),
        ));
    }
    // The listed pairs are distinct among themselves (`Distinct`); each is
    // looked up among the grid's goals in a set, not a scan of the list.
    let grid: BTreeSet<GoalPair> = goals.iter().cloned().collect();
    for pair in config.goals.values() {
        let goal = goal_pair(section, &["goals"], pair)?;
        if grid.contains(&goal) {
            return Err(section.invalid(
                &["goals"],
                &format!("goal {} is also in the lambda x mu grid; give each goal once", pair.described()),
            ));
        }
        goals.push(goal);
    }
    Ok(goals)
}

/// One table per simulated goal with and without the street option, then the mixed tables.
fn simulation_tasks(section: &Section, sim: &SimulationConfig) -> Result<Vec<FritzenTask>, UserError> {
    let mut tasks = Vec::new();
    if sim.goals.is_empty() && sim.mixed.is_empty() {
        return Err(section.invalid(&["simulation"], "needs goals or mixed tables to simulate"));
    }
    let (games, rounds, seed, fixed_pot) =
        (sim.games.get(), sim.rounds.get(), sim.seed, sim.fixed_pot.map(Bounded::get));
    for pair in sim.goals.values() {
        let goal = goal_pair(section, &["simulation", "goals"], pair)?;
        for street in [false, true] {
            tasks.push(FritzenTask::Simulation {
                label: format!(
                    "{}-p{}-{}",
                    goal_slug(&goal),
                    sim.players.get(),
                    if street { "street" } else { "normal" }
                ),
                seats: vec![(goal.clone(), street); sim.players.get() as usize],
                games,
                rounds,
                seed,
                fixed_pot,
            });
        }
    }
    for table in sim.mixed.values() {
        if !(2..=6).contains(&table.len()) {
            return Err(section
                .invalid(&["simulation", "mixed"], &format!("a table has {} players, allowed 2 to 6", table.len())));
        }
        let seats = table
            .iter()
            .map(|pair| goal_pair(section, &["simulation", "mixed"], pair).map(|g| (g, true)))
            .collect::<Result<Vec<_>, _>>()?;
        let label = format!("mixed-{}", seats.iter().map(|(g, _)| goal_slug(g)).collect::<Vec<_>>().join("-"));
        tasks.push(FritzenTask::Simulation { label, seats, games, rounds, seed, fixed_pot });
    }

    Ok(tasks)
}
