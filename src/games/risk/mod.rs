//! Risk defender dice (seed 004): the article's long-run optimal rule by value
//! iteration and as an exact fraction, and finite battles with exact
//! conquest probabilities for two defender rules.

pub mod battle;
pub mod dice;
pub mod long_run;
pub mod query;
mod report;
mod tables;
pub mod value_iteration;
mod verify;

use crate::config::Section;
use crate::error::UserError;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict};
use crate::grid::{Bounded, Distinct, IntGrid};
use battle::DefenderRule;
use serde::Deserialize;

/// Largest value-iteration horizon: exact verification costs grow with its square.
pub const MAX_HORIZON: u32 = 10_000;
/// Largest army count of the battle grid.
pub const MAX_ARMIES: u32 = 300;

/// The `[risk]` config section.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiskConfig {
    /// Write the single-round outcome table (every dice combination).
    #[serde(default)]
    round_outcomes: bool,
    /// Solve the long-run problem exactly (optimal stationary rule and loss per army).
    #[serde(default)]
    long_run: bool,
    value_iteration: Option<ValueIterationConfig>,
    battles: Option<BattlesConfig>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ValueIterationConfig {
    /// One task per horizon; each writes n = 1..=horizon.
    horizon: IntGrid<1, MAX_HORIZON>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BattlesConfig {
    /// Largest attacking army; the table covers every A from 2.
    attackers: Bounded<2, MAX_ARMIES>,
    /// Largest defending army; the table covers every D from 1.
    defenders: Bounded<1, MAX_ARMIES>,
    /// Defender rules to solve, one task each.
    #[serde(default = "all_rules")]
    defender: Distinct<DefenderRule>,
}

fn all_rules() -> Distinct<DefenderRule> {
    Distinct::from(vec![DefenderRule::MaxDice, DefenderRule::Optimal])
}

pub struct Risk;

/// The Risk tasks; each variant is one independent computation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RiskTask {
    RoundOutcomes,
    LongRun,
    ValueIteration { horizon: u32 },
    Battles { rule: DefenderRule, attackers: u32, defenders: u32 },
}

impl Task for RiskTask {
    fn id(&self) -> String {
        match self {
            RiskTask::RoundOutcomes => "round-outcomes".into(),
            RiskTask::LongRun => "long-run".into(),
            RiskTask::ValueIteration { horizon } => format!("value-iteration-h{horizon}"),
            RiskTask::Battles { rule, attackers, defenders } => {
                format!("battles-{}-a{attackers}-d{defenders}", rule.as_str())
            }
        }
    }

    fn run(&self, _context: &dyn TaskContext) -> anyhow::Result<Vec<Table>> {
        match *self {
            RiskTask::RoundOutcomes => tables::round_outcomes(),
            RiskTask::LongRun => tables::long_run(),
            RiskTask::ValueIteration { horizon } => tables::value_iteration::<f64>(horizon),
            RiskTask::Battles { rule, attackers, defenders } => tables::battles(rule, attackers, defenders),
        }
    }

    fn verify(&self, stored: &StoredTask) -> anyhow::Result<Verdict> {
        match *self {
            RiskTask::RoundOutcomes => verify::round_outcomes(stored),
            RiskTask::LongRun => verify::long_run(stored),
            RiskTask::ValueIteration { horizon } => verify::value_iteration(stored, horizon),
            RiskTask::Battles { rule, attackers, defenders } => verify::battles(stored, rule, attackers, defenders),
        }
    }
}

impl Game for Risk {
    fn name(&self) -> &'static str {
        "risk"
    }

    fn tiny_config(&self) -> &'static str {
        "round_outcomes = true\nvalue_iteration = { horizon = [50, 60] }\nbattles = { attackers = 5, defenders = 5 }\n"
    }

    fn plan(&self, section: &Section) -> Result<Vec<Box<dyn Task>>, UserError> {
        let config: RiskConfig = section.parse()?;
        let mut tasks: Vec<RiskTask> = Vec::new();
        if config.round_outcomes {
            tasks.push(RiskTask::RoundOutcomes);
        }
        if config.long_run {
            tasks.push(RiskTask::LongRun);
        }
        if let Some(vi) = &config.value_iteration {
            tasks.extend(vi.horizon.values().iter().map(|&horizon| RiskTask::ValueIteration { horizon }));
        }
        if let Some(b) = &config.battles {
            let mut rules = b.defender.values().to_vec();
            rules.sort();
            tasks.extend(rules.into_iter().map(|rule| RiskTask::Battles {
                rule,
                attackers: b.attackers.get(),
                defenders: b.defenders.get(),
            }));
        }
        Ok(tasks.into_iter().map(|t| Box::new(t) as Box<dyn Task>).collect())
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        let (markdown, figures) = report::report(data)?;
        Ok(ReportSection { markdown, tables: Vec::new(), figures })
    }
}
