//! What one Risk task computes: its parameters.

use super::battle::DefenderRule;

/// The Risk tasks; each variant is one independent computation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RiskTask {
    RoundOutcomes,
    LongRun,
    ValueIteration { horizon: u32 },
    Battles { rule: DefenderRule, attackers: u32, defenders: u32 },
}
