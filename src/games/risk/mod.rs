//! Risk defender dice (seed 004): the article's long-run optimal rule by value
//! iteration and as an exact fraction, and finite battles with exact
//! conquest probabilities for two defender rules.

pub mod battle;
mod config;
pub mod dice;
pub mod long_run;
pub mod query;
mod report;
mod tables;
mod task;
pub mod value_iteration;
mod verify;

use crate::config::Section;
use crate::error::UserError;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict, boxed};
use task::RiskTask;

/// The game as the registry holds it (`games::all`).
pub struct Risk;

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
        Ok(boxed(config::plan(section)?))
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        let (markdown, figures) = report::report(data)?;
        Ok(ReportSection { markdown, tables: Vec::new(), figures })
    }
}
