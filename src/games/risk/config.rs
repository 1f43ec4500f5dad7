//! The `[risk]` config section and its expansion into tasks.

use super::battle::DefenderRule;
use super::task::RiskTask;
use crate::config::Section;
use crate::error::UserError;
use crate::grid::{Bounded, Distinct, IntGrid};
use serde::Deserialize;

/// Largest value-iteration horizon: exact verification costs grow with its square.
pub const MAX_HORIZON: u32 = 10_000;
/// Largest army count of the battle grid.
pub const MAX_ARMIES: u32 = 300;

/// The `[risk]` config section.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RiskConfig {
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

/// The section's tasks, in a stable order.
pub fn plan(section: &Section) -> Result<Vec<RiskTask>, UserError> {
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
    Ok(tasks)
}
