//! Fritzen (seed 001): the dice game's turn as a stochastic DP for a goal
//! (lambda, mu) and a street pot R, normal turn and street, swept over goals
//! and pots, with simulated games, Monte-Carlo play against the DP, advice for
//! a throw, and exact verification in Z[1/6].

pub mod analysis;
mod config;
pub mod dice;
pub mod dp;
pub mod model;
pub mod penalty;
pub mod query;
mod report;
pub mod rollout;
pub mod sim;
mod tables;
mod task;
mod verify;

use crate::config::Section;
use crate::error::UserError;
use crate::exact::Rational;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict, boxed};
use analysis::{Setting, evaluate_setting, street_thresholds};
use model::Model;
use penalty::expected_penalties;
use std::sync::OnceLock;
use task::{FritzenTask, THRESHOLD_MAX_POT, goal_slug, short_hash, slug, spread};

/// The game as the registry holds it (`games::all`).
pub struct Fritzen;

/// The state space, built once per process.
fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(Model::new)
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

impl Game for Fritzen {
    fn name(&self) -> &'static str {
        "fritzen"
    }

    fn tiny_config(&self) -> &'static str {
        "goals = [[0, 0], [1, 1]]\npot = 12\n"
    }

    fn plan(&self, section: &Section) -> Result<Vec<Box<dyn Task>>, UserError> {
        Ok(boxed(config::plan(section)?))
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        report::report(data)
    }
}
