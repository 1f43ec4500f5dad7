//! Step checkpoints of unfinished tasks: a long task saves each finished step,
//! so that a rerun after a kill resumes after the last one instead of
//! starting the task over.
//!
//! ```text
//! DIR/.steps/<game>/<task>/<step>/<table>.parquet
//! DIR/.steps/<game>/<task>/<step>/done      the step's table names, written last
//! ```
//!
//! Every file is written atomically and `done` last, so a step is complete or
//! absent: one without `done` was cut short and is ignored. The orchestrator
//! removes a task's steps once the task's marker is written (or, if a kill
//! came in between, when the next run skips the done task).

use super::{OutputDir, is_safe_name, parquet_io, sorted_entries};
use crate::game::Table;
use anyhow::Context;
use arrow::record_batch::RecordBatch;
use std::collections::BTreeMap;
use std::io::{ErrorKind, Write};
use std::path::PathBuf;

/// The file that completes a step; it lists the step's tables, one a line.
const DONE: &str = "done";

impl OutputDir {
    fn steps_dir(&self, game: &str, task: &str) -> PathBuf {
        self.root.join(".steps").join(game).join(task)
    }

    fn step_dir(&self, game: &str, task: &str, step: &str) -> PathBuf {
        assert!(is_safe_name(step), "step name {step:?} of {game}/{task} is not file-name safe");
        self.steps_dir(game, task).join(step)
    }

    /// Saves one step of a task: its tables, then `done`.
    pub fn write_step(&self, game: &str, task: &str, step: &str, tables: &[Table]) -> anyhow::Result<()> {
        let dir = self.step_dir(game, task, step);
        // A step saved again must not look complete while its tables are replaced.
        remove_if_present(std::fs::remove_file(dir.join(DONE)))
            .with_context(|| format!("removing {}", dir.join(DONE).display()))?;
        let mut names: Vec<&str> = Vec::new();
        for table in tables {
            assert!(is_safe_name(table.name), "table name {:?} is not file-name safe", table.name);
            anyhow::ensure!(!names.contains(&table.name), "table {} saved twice in step {step}", table.name);
            let dest = dir.join(format!("{}.parquet", table.name));
            self.write_atomic(&dest, |file| parquet_io::write_batch(file, &table.batch))
                .with_context(|| format!("writing {}", dest.display()))?;
            names.push(table.name);
        }
        let done = dir.join(DONE);
        self.write_atomic(&done, |file| Ok(file.write_all(names.join("\n").as_bytes())?))
            .with_context(|| format!("writing {}", done.display()))
    }

    /// The tables of a complete step by name, or `None` if the step is absent
    /// or incomplete.
    pub fn read_step(
        &self,
        game: &str,
        task: &str,
        step: &str,
    ) -> anyhow::Result<Option<BTreeMap<String, RecordBatch>>> {
        let dir = self.step_dir(game, task, step);
        let names = match std::fs::read_to_string(dir.join(DONE)) {
            Ok(names) => names,
            Err(error) if error.kind() == ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error).with_context(|| format!("reading {}", dir.join(DONE).display())),
        };
        let tables = names
            .lines()
            .map(|name| Ok((name.to_string(), parquet_io::read_batch(&dir.join(format!("{name}.parquet")))?)))
            .collect::<anyhow::Result<_>>()?;
        Ok(Some(tables))
    }

    /// The tasks that have steps, as (game, task id).
    pub fn tasks_with_steps(&self) -> anyhow::Result<Vec<(String, String)>> {
        let base = self.root.join(".steps");
        if !base.is_dir() {
            return Ok(Vec::new());
        }
        let name = |path: &std::path::Path| path.file_name().map(|n| n.to_string_lossy().into_owned());
        let mut tasks = Vec::new();
        for game in sorted_entries(&base)? {
            for task in sorted_entries(&game)? {
                tasks.extend(name(&game).zip(name(&task)));
            }
        }
        Ok(tasks)
    }

    /// Deletes every step of a task (nothing to do if it has none).
    pub fn remove_steps(&self, game: &str, task: &str) -> anyhow::Result<()> {
        let dir = self.steps_dir(game, task);
        remove_if_present(std::fs::remove_dir_all(&dir)).with_context(|| format!("removing {}", dir.display()))
    }
}

/// A removal of something already gone succeeds.
fn remove_if_present(result: std::io::Result<()>) -> std::io::Result<()> {
    match result {
        Err(error) if error.kind() == ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifacts::columns::{Columns, TableBuilder};

    #[test]
    fn steps_are_complete_or_absent_and_removed_together() {
        let root = std::env::temp_dir().join(format!("gamesweep-steps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let out = OutputDir::create(&root).unwrap();
        assert!(out.read_step("g", "t", "s1").unwrap().is_none());
        let tables = [
            TableBuilder::new().u32("n", [1, 2]).build("a").unwrap(),
            TableBuilder::new().str("p", ["x"]).build("b").unwrap(),
        ];
        out.write_step("g", "t", "s1", &tables).unwrap();
        out.write_step("g", "t", "s2", &[]).unwrap();
        let step = out.read_step("g", "t", "s1").unwrap().unwrap();
        assert_eq!(step.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(step["a"].u32s("n").unwrap().values().to_vec(), vec![1, 2]);
        assert!(out.read_step("g", "t", "s2").unwrap().unwrap().is_empty());

        // A step cut short before `done` counts as absent.
        std::fs::remove_file(root.join(".steps/g/t/s1/done")).unwrap();
        assert!(out.read_step("g", "t", "s1").unwrap().is_none());

        out.write_step("g", "other", "s1", &tables).unwrap();
        assert_eq!(
            out.tasks_with_steps().unwrap(),
            [("g".to_string(), "other".to_string()), ("g".to_string(), "t".to_string())]
        );
        out.remove_steps("g", "t").unwrap();
        out.remove_steps("g", "t").unwrap();
        assert!(!root.join(".steps/g/t").exists());
        assert!(out.read_step("g", "other", "s1").unwrap().is_some(), "other tasks keep their steps");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    #[should_panic(expected = "not file-name safe")]
    fn step_names_must_be_file_name_safe() {
        let out = OutputDir::at(&std::env::temp_dir().join("gamesweep-steps-unsafe"));
        let _ = out.read_step("g", "t", "../escape");
    }
}
