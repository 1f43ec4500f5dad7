//! Step checkpoints of unfinished tasks: a long task saves each finished step,
//! so that a rerun after a kill resumes after the last one instead of
//! starting the task over.
//!
//! ```text
//! DIR/.steps/<game>/<task>/<step>.step   the step's tables, one file
//! ```
//!
//! A step is one file written atomically (scratch file, then rename), so it is
//! complete or absent. It names the game, task and step it holds and the
//! task's settings (`Task::settings`), and is read only under that name and
//! those settings: a step file copied over another, or saved before the config
//! changed a setting, is refused (and the orchestrator discards it with a
//! warning and computes the step again). It holds each table as a Parquet image behind its name
//! and length: one write and one rename per step keeps saving cheap even when
//! steps are small (a file per table made saving a step measurably slower;
//! docs/history.md#ddaadd9-step-checkpoints-in-one-file-per-step). The
//! orchestrator removes a task's steps once the task's marker is written (or,
//! if a kill came in between, when the next run skips the done task).

use super::{OutputDir, is_safe_name, parquet_io};
use crate::game::Table;
use anyhow::Context;
use arrow::record_batch::RecordBatch;
use std::collections::BTreeMap;
use std::io::{ErrorKind, Write};
use std::path::PathBuf;

/// The first bytes of a step file (format version 3: then "game\ttask\tstep\tsettings\n").
const MAGIC: &[u8] = b"gamesweep-step-3\n";

/// Which step of which task a step file holds: the task under its settings
/// (`Task::settings` as text), so that a step saved under other settings
/// is not resumed.
#[derive(Clone, Copy)]
pub struct StepOf<'a> {
    pub game: &'a str,
    pub task: &'a str,
    pub settings: &'a str,
}

impl OutputDir {
    fn steps_dir(&self, game: &str, task: &str) -> PathBuf {
        self.root.join(".steps").join(game).join(task)
    }

    fn step_file(&self, game: &str, task: &str, step: &str) -> PathBuf {
        assert!(is_safe_name(step), "step name {step:?} of {game}/{task} is not file-name safe");
        self.steps_dir(game, task).join(format!("{step}.step"))
    }

    /// Saves one step of a task: all its tables in one atomically written file.
    pub fn write_step(&self, of: StepOf, step: &str, tables: &[Table]) -> anyhow::Result<()> {
        let mut image = MAGIC.to_vec();
        image.extend(identity(of, step).as_bytes());
        let mut names: Vec<&str> = Vec::new();
        for table in tables {
            anyhow::ensure!(!names.contains(&table.name), "table {} saved twice in step {step}", table.name);
            names.push(table.name);
            let mut parquet = Vec::new();
            parquet_io::write_batch(&mut parquet, &table.batch)?;
            image.extend((table.name.len() as u32).to_le_bytes());
            image.extend(table.name.as_bytes());
            image.extend((parquet.len() as u64).to_le_bytes());
            image.extend(parquet);
        }
        let dest = self.step_file(of.game, of.task, step);
        self.write_atomic(&dest, |file| Ok(file.write_all(&image)?))
            .with_context(|| format!("writing {}", dest.display()))
    }

    /// The tables of a saved step by name, or `None` if the step was not saved.
    pub fn read_step(&self, of: StepOf, step: &str) -> anyhow::Result<Option<BTreeMap<String, RecordBatch>>> {
        let path = self.step_file(of.game, of.task, step);
        let image = match std::fs::read(&path) {
            Ok(image) => image,
            Err(error) if error.kind() == ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
        };
        decode_step(&image, &identity(of, step)).map(Some).with_context(|| format!("decoding {}", path.display()))
    }

    /// Deletes one step (a damaged one, before it is computed again).
    pub fn remove_step(&self, game: &str, task: &str, step: &str) -> anyhow::Result<()> {
        super::remove_if_present(&self.step_file(game, task, step))
    }

    /// Deletes every step of a task (nothing to do if it has none).
    pub fn remove_steps(&self, game: &str, task: &str) -> anyhow::Result<()> {
        let dir = self.steps_dir(game, task);
        match std::fs::remove_dir_all(&dir) {
            Err(error) if error.kind() != ErrorKind::NotFound => {
                Err(error).with_context(|| format!("removing {}", dir.display()))
            }
            _ => Ok(()),
        }
    }
}

/// The line that names a step's game, task, step and the task's settings.
fn identity(of: StepOf, step: &str) -> String {
    format!("{}\t{}\t{step}\t{}\n", of.game, of.task, of.settings)
}

/// The tables of a step file's image, which must name the step `expected`.
fn decode_step(image: &[u8], expected: &str) -> anyhow::Result<BTreeMap<String, RecordBatch>> {
    let rest = image.strip_prefix(MAGIC).ok_or_else(|| anyhow::anyhow!("not a step file of this version"))?;
    let line = rest.iter().position(|&b| b == b'\n').ok_or_else(|| anyhow::anyhow!("a step file without its name"))?;
    let (named, mut rest) = (String::from_utf8_lossy(&rest[..=line]), &rest[line + 1..]);
    if named != expected {
        let split = |line: &str| -> (String, String) {
            let fields: Vec<&str> = line.trim_end().split('\t').collect();
            (fields[..fields.len().min(3)].join("/"), fields.get(3).unwrap_or(&"").to_string())
        };
        let ((held, held_settings), (wanted, wanted_settings)) = (split(&named), split(expected));
        anyhow::ensure!(held == wanted, "it holds step {held:?}, not {wanted:?} (copied over?)");
        anyhow::bail!("it was saved with settings {held_settings:?}, the config now says {wanted_settings:?}");
    }
    let mut take = |len: usize| -> anyhow::Result<&[u8]> {
        anyhow::ensure!(rest.len() >= len, "step file cut short");
        let (head, tail) = rest.split_at(len);
        rest = tail;
        Ok(head)
    };
    let mut tables = BTreeMap::new();
    loop {
        let Ok(head) = take(4) else { break };
        let name_len = u32::from_le_bytes(head.try_into()?) as usize;
        let name = String::from_utf8(take(name_len)?.to_vec())?;
        let len = u64::from_le_bytes(take(8)?.try_into()?) as usize;
        let batch = parquet_io::decode(bytes::Bytes::copy_from_slice(take(len)?))?;
        tables.insert(name, batch);
    }
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifacts::columns::{Columns, TableBuilder};

    #[test]
    fn steps_round_trip_and_are_removed_together() {
        let root = std::env::temp_dir().join(format!("gamesweep-steps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let out = OutputDir::create(&root).unwrap();
        let of = |task| StepOf { game: "g", task, settings: "tolerance=1e-10" };
        assert!(out.read_step(of("t"), "s1").unwrap().is_none());
        let tables = [
            TableBuilder::new().u32("n", [1, 2]).build("a").unwrap(),
            TableBuilder::new().str("p", ["x"]).build("b").unwrap(),
        ];
        out.write_step(of("t"), "s1", &tables).unwrap();
        out.write_step(of("t"), "s2", &[]).unwrap();
        let step = out.read_step(of("t"), "s1").unwrap().unwrap();
        assert_eq!(step.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(step["a"].u32s("n").unwrap().values().to_vec(), vec![1, 2]);
        assert!(out.read_step(of("t"), "s2").unwrap().unwrap().is_empty());

        // A damaged step is an error, not silently absent.
        let file = root.join(".steps/g/t/s1.step");
        let image = std::fs::read(&file).unwrap();
        std::fs::write(&file, &image[..image.len() - 3]).unwrap();
        assert!(out.read_step(of("t"), "s1").is_err());

        // A step copied over another (of this task or another) is refused.
        out.write_step(of("t"), "s1", &tables).unwrap();
        std::fs::copy(root.join(".steps/g/t/s2.step"), &file).unwrap();
        assert!(format!("{:#}", out.read_step(of("t"), "s1").unwrap_err()).contains("holds step \"g/t/s2\""));

        out.write_step(of("other"), "s1", &tables).unwrap();
        out.remove_steps("g", "t").unwrap();
        out.remove_steps("g", "t").unwrap();
        assert!(!root.join(".steps/g/t").exists());
        assert!(out.read_step(of("other"), "s1").unwrap().is_some(), "other tasks keep their steps");

        // A step saved under other settings is refused, naming them.
        let changed = StepOf { settings: "tolerance=1e-8", ..of("other") };
        let error = format!("{:#}", out.read_step(changed, "s1").unwrap_err());
        assert!(
            error.contains("saved with settings \"tolerance=1e-10\", the config now says \"tolerance=1e-8\""),
            "{error}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    #[should_panic(expected = "not file-name safe")]
    fn step_names_must_be_file_name_safe() {
        let out = OutputDir::at(&std::env::temp_dir().join("gamesweep-steps-unsafe"));
        let _ = out.read_step(StepOf { game: "g", task: "t", settings: "" }, "../escape");
    }
}
