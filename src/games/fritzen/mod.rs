//! Fritzen (seed 001): the dice game's turn as a stochastic DP for a goal
//! (lambda, mu) and a street pot R, normal turn and street, swept over goals
//! and pots, with simulated games, Monte-Carlo play against the DP, advice for
//! a throw, and exact verification in Z[1/6].

pub mod analysis;
pub mod dice;
pub mod dp;
pub mod model;
pub mod penalty;
pub mod query;
mod report;
pub mod rollout;
pub mod sim;
mod tables;
mod verify;

use crate::config::Section;
use crate::error::UserError;
use crate::exact::Rational;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict};
use crate::grid::{Bounded, Described, Distinct, ExactGrid, Pair, format_decimal};
use analysis::{Setting, evaluate_setting, street_thresholds};
use model::Model;
use penalty::expected_penalties;
use rollout::RolloutPolicy;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// Largest lambda or mu a config may ask for.
pub const MAX_WEIGHT: u32 = 1000;
/// Largest street pot.
pub const MAX_POT: u32 = 10_000;
/// The pot up to which street thresholds are searched.
const THRESHOLD_MAX_POT: f64 = 10_000.0;

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

pub struct Fritzen;

/// The state space, built once per process.
fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(Model::new)
}

/// A goal as (lambda, mu).
type GoalPair = (Rational, Rational);

#[derive(Debug, Clone)]
enum FritzenTask {
    /// U_x, state counts and the thesis's goal probabilities.
    Reference,
    /// A chunk of settings: summary, first throws, policy if asked.
    Settings {
        settings: Vec<Setting>,
        policy: bool,
        verify: usize,
    },
    Thresholds {
        goal: GoalPair,
    },
    Simulation {
        label: String,
        seats: Vec<(GoalPair, bool)>,
        games: u32,
        rounds: u32,
        seed: u64,
        fixed_pot: Option<u32>,
    },
    Rollout {
        goal: GoalPair,
        policies: Vec<RolloutPolicy>,
        rollouts: u32,
        seed: u64,
    },
}

/// A file-name-safe form of an exact number: "1.5", "1over3".
fn slug(value: &Rational) -> String {
    format_decimal(value).replace('/', "over")
}

fn goal_slug((lambda, mu): &GoalPair) -> String {
    format!("l{}-m{}", slug(lambda), slug(mu))
}

/// First 8 hex digits of the SHA-256 of `text`: ids that change when the content does.
fn short_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().take(4).map(|b| format!("{b:02x}")).collect()
}

impl Task for FritzenTask {
    fn id(&self) -> String {
        match self {
            FritzenTask::Reference => "reference".into(),
            FritzenTask::Settings { settings, policy, .. } => {
                let text: Vec<String> = settings.iter().map(Setting::label).collect();
                let first = &settings[0];
                format!(
                    "settings-{}-r{}-x{}-{}{}",
                    goal_slug(&(first.lambda.clone(), first.mu.clone())),
                    slug(&first.pot),
                    settings.len(),
                    short_hash(&text.join(";")),
                    if *policy { "-policy" } else { "" }
                )
            }
            FritzenTask::Thresholds { goal } => format!("thresholds-{}", goal_slug(goal)),
            FritzenTask::Simulation { label, games, rounds, seed, fixed_pot, .. } => {
                format!("sim-{}-{}", label, short_hash(&format!("{games}/{rounds}/{seed}/{fixed_pot:?}")))
            }
            FritzenTask::Rollout { goal, policies, rollouts, seed } => {
                let names: Vec<&str> = policies.iter().map(|p| p.as_str()).collect();
                format!("rollout-{}-k{rollouts}-{}", goal_slug(goal), short_hash(&format!("{names:?}/{seed}")))
            }
        }
    }

    fn run(&self, _context: &dyn TaskContext) -> anyhow::Result<Vec<Table>> {
        let model = model();
        let u = expected_penalties::<f64>();
        match self {
            FritzenTask::Reference => tables::reference(model),
            FritzenTask::Settings { settings, policy, verify } => {
                let outcomes: Vec<_> = settings.iter().map(|s| (s.clone(), evaluate_setting(model, &u, s))).collect();
                let mut out = tables::settings(&outcomes, &spread(settings.len(), *verify))?;
                if *policy {
                    out.push(tables::policy(model, &outcomes)?);
                }
                Ok(out)
            }
            FritzenTask::Thresholds { goal } => {
                let setting = Setting { lambda: goal.0.clone(), mu: goal.1.clone(), pot: Rational::from(0u32) };
                let values = street_thresholds(model, &u, &setting.goal(), THRESHOLD_MAX_POT);
                Ok(vec![tables::thresholds(model, &goal.0, &goal.1, &values)?])
            }
            FritzenTask::Simulation { label, seats, games, rounds, seed, fixed_pot } => {
                let players: Vec<(Setting, sim::Player)> = seats
                    .iter()
                    .map(|((lambda, mu), street)| {
                        let setting = Setting { lambda: lambda.clone(), mu: mu.clone(), pot: Rational::from(0u32) };
                        let player = sim::Player { goal: setting.goal(), street: *street };
                        (setting, player)
                    })
                    .collect();
                let table = sim::Table {
                    players: players.iter().map(|p| p.1.clone()).collect(),
                    games: *games,
                    rounds: *rounds,
                    seed: *seed,
                    fixed_pot: *fixed_pot,
                };
                let stats = sim::simulate(model, &u, &table);
                let simulated = tables::SimulatedTable {
                    label: label.clone(),
                    players,
                    games: *games,
                    rounds: *rounds,
                    seed: *seed,
                    fixed_pot: *fixed_pot,
                    stats,
                };
                Ok(vec![tables::simulations(&[simulated])?])
            }
            FritzenTask::Rollout { goal, policies, rollouts, seed } => {
                let setting = Setting { lambda: goal.0.clone(), mu: goal.1.clone(), pot: Rational::from(0u32) };
                let g = setting.goal();
                let optimal = dp::solve(model, |a| g.terminal_cost(a.pips(), &u), 0.0);
                let comparisons: Vec<_> =
                    policies.iter().map(|p| rollout::compare(model, &u, &g, &optimal, *p, *rollouts, *seed)).collect();
                Ok(vec![tables::rollouts(&setting, &comparisons, *seed)?])
            }
        }
    }

    fn verify(&self, stored: &StoredTask) -> anyhow::Result<Verdict> {
        verify::verify(model(), self, stored)
    }

    fn cost_hint(&self) -> f64 {
        // Rough seconds on one core.
        match self {
            FritzenTask::Reference => 1.0,
            FritzenTask::Settings { settings, .. } => 0.01 * settings.len() as f64,
            FritzenTask::Thresholds { .. } => 2.0,
            FritzenTask::Simulation { seats, games, rounds, .. } => {
                2e-5 * (seats.len() as f64) * f64::from(games * rounds)
            }
            FritzenTask::Rollout { policies, rollouts, .. } => 0.1 * policies.len() as f64 * f64::from(*rollouts),
        }
    }
}

/// Which of `n` items to pick for `k` evenly spread picks (first and last included).
fn spread(n: usize, k: usize) -> Vec<bool> {
    let mut picked = vec![false; n];
    if n <= k {
        picked.fill(true);
    } else if k == 1 {
        picked[0] = true;
    } else {
        for j in 0..k {
            picked[j * (n - 1) / (k - 1)] = true;
        }
    }
    picked
}

/// Reads a [lambda, mu] pair, checking the range.
fn goal_pair(section: &Section, keys: &[&str], pair: &Pair) -> Result<GoalPair, UserError> {
    for (name, value) in [("lambda", &pair.0), ("mu", &pair.1)] {
        if *value < 0u32 || *value > MAX_WEIGHT {
            return Err(section.invalid(
                keys,
                &format!(
                    "{name} = {} is out of range, expected a number from 0 to {MAX_WEIGHT}",
                    format_decimal(value)
                ),
            ));
        }
    }
    Ok((pair.0.clone(), pair.1.clone()))
}

impl Game for Fritzen {
    fn name(&self) -> &'static str {
        "fritzen"
    }

    fn tiny_config(&self) -> &'static str {
        "goals = [[0, 0], [1, 1]]\npot = 12\n"
    }

    fn plan(&self, section: &Section) -> Result<Vec<Box<dyn Task>>, UserError> {
        let config: FritzenConfig = section.parse()?;
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
        for pair in config.goals.values() {
            let goal = goal_pair(section, &["goals"], pair)?;
            if goals.contains(&goal) {
                return Err(section.invalid(
                    &["goals"],
                    &format!("goal {} is also in the lambda x mu grid; give each goal once", pair.described()),
                ));
            }
            goals.push(goal);
        }
        let mut tasks: Vec<FritzenTask> = vec![FritzenTask::Reference];
        let settings: Vec<Setting> = goals
            .iter()
            .flat_map(|(lambda, mu)| {
                config.pot.values().iter().map(|pot| Setting {
                    lambda: lambda.clone(),
                    mu: mu.clone(),
                    pot: pot.clone(),
                })
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
                    return Err(section.invalid(
                        &["simulation", "mixed"],
                        &format!("a table has {} players, allowed 2 to 6", table.len()),
                    ));
                }
                let seats = table
                    .iter()
                    .map(|pair| goal_pair(section, &["simulation", "mixed"], pair).map(|g| (g, true)))
                    .collect::<Result<Vec<_>, _>>()?;
                let label = format!("mixed-{}", seats.iter().map(|(g, _)| goal_slug(g)).collect::<Vec<_>>().join("-"));
                tasks.push(FritzenTask::Simulation { label, seats, games, rounds, seed, fixed_pot });
            }
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
        Ok(tasks.into_iter().map(|t| Box::new(t) as Box<dyn Task>).collect())
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        report::report(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreads_picks_evenly() {
        assert_eq!(spread(3, 5), vec![true; 3]);
        assert_eq!(spread(5, 2), vec![true, false, false, false, true]);
        assert_eq!(spread(7, 3), vec![true, false, false, true, false, false, true]);
        assert_eq!(spread(4, 1), vec![true, false, false, false]);
    }

    #[test]
    fn slugs_are_file_name_safe() {
        let third = Rational::from_signeds(1, 3);
        assert_eq!(goal_slug(&(Rational::from_signeds(3, 2), third)), "l1.5-m1over3");
    }
}
