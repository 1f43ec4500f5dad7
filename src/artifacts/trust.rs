//! Which tasks' rows a reader may take as checked: the rule that
//! `gamesweep export` applies, and that the Python reader
//! (`python/gamesweep_data`) applies alike (docs/tables.md#checked-rows).
//!
//! A task is checked when its marker reads, every part it lists is the one
//! that was written (size and SHA-256), and its last `verify` verdict is
//! certified or repaired. Every other task with a marker or a part is left
//! out, with a reason whose first words name its kind. The parts a checked
//! task's marker does not list (its verification row, the findings of its
//! check) are what `verify` wrote after the marker, and count as checked.

use super::OutputDir;
use crate::game::Status;
use std::collections::BTreeMap;

/// A task of a game, and whether its rows are checked.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskTrust {
    pub task: String,
    pub trust: Trust,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Trust {
    /// Intact, and `verify` certified or repaired it.
    Checked(Status),
    /// Left out, and why: "damaged marker: ...", "damaged part: ...",
    /// "failed by verify: ...", "never verified", or "no marker (...)".
    LeftOut(String),
}

/// The reason for a part whose task has no marker.
pub const NO_MARKER: &str = "no marker (unfinished, or being rewritten)";
/// The reason for an intact task without a verdict.
pub const NEVER_VERIFIED: &str = "never verified";

impl OutputDir {
    /// Every task of `game` that has a marker or a part, in task order, with
    /// whether its rows are checked.
    pub fn trust(&self, game: &str) -> anyhow::Result<Vec<TaskTrust>> {
        let mut tasks: BTreeMap<String, Trust> = BTreeMap::new();
        let markers = self.markers()?;
        for problem in markers.unreadable.into_iter().filter(|p| p.game == game) {
            tasks.insert(problem.task, Trust::LeftOut(format!("damaged marker: {}", problem.why)));
        }
        for record in markers.records.into_iter().filter(|r| r.game == game) {
            let trust = match (self.check_parts(&record), self.verification(game, &record.id)) {
                (Err(why), _) => Trust::LeftOut(format!("damaged part: {why}")),
                (Ok(()), Some((Status::Failed, detail))) => Trust::LeftOut(format!("failed by verify: {detail}")),
                (Ok(()), Some((status, _))) => Trust::Checked(status),
                (Ok(()), None) => Trust::LeftOut(NEVER_VERIFIED.to_string()),
            };
            tasks.insert(record.id, trust);
        }
        for (_, task) in self.parts(game)? {
            tasks.entry(task).or_insert_with(|| Trust::LeftOut(NO_MARKER.to_string()));
        }
        Ok(tasks.into_iter().map(|(task, trust)| TaskTrust { task, trust }).collect())
    }
}
