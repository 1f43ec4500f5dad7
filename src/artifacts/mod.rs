//! The on-disk layout of a run and its atomic writers.
//!
//! ```text
//! DIR/<game>/<table>/part-<task>.parquet   one file per (table, task)
//! DIR/.tasks/<game>/<task>.json            marker: the task is complete
//! DIR/.steps/<game>/<task>/<step>/          finished steps of an unfinished task (see `steps`)
//! DIR/manifest.json                        summary of the markers and runs
//! DIR/.tmp/<host>-<pid>/                   scratch space of a running process
//! ```
//!
//! Every file is written in the process's scratch directory and renamed into
//! place, so a reader never sees half a file. A task counts as done only once
//! its marker exists, and the marker is written after all its parts: a kill at
//! any moment loses at most the tasks in flight. Markers, not the manifest,
//! are the source of truth, which keeps shards writing to one shared
//! directory from racing on a single file.

pub mod columns;
mod manifest;
pub mod parquet_io;
mod steps;

pub use manifest::{Manifest, RunRecord};

use crate::error::UserError;
use crate::game::{Dataset, Table};
use anyhow::Context;
use arrow::record_batch::RecordBatch;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Completion marker of one task.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TaskRecord {
    pub game: String,
    pub id: String,
    /// Rows written per table.
    pub tables: BTreeMap<String, u64>,
    /// Wall time of the task's computation (without writing).
    pub seconds: f64,
    pub finished_unix: u64,
    pub version: String,
    pub config_sha256: String,
}

/// An output directory, opened for reading or writing.
pub struct OutputDir {
    root: PathBuf,
    scratch: PathBuf,
    counter: AtomicU64,
}

impl OutputDir {
    /// Opens (creating if needed) a directory to write a run into, and removes
    /// scratch files left by killed processes on this host.
    pub fn create(root: &Path) -> anyhow::Result<Self> {
        std::fs::create_dir_all(root).with_context(|| format!("creating output directory {}", root.display()))?;
        let dir = Self::at(root);
        dir.remove_stale_scratch();
        Ok(dir)
    }

    /// Opens an existing output directory (for verify and report).
    pub fn open(root: &Path) -> Result<Self, UserError> {
        if !root.is_dir() {
            return Err(UserError::new(format!("{}: no such output directory", root.display())));
        }
        Ok(Self::at(root))
    }

    fn at(root: &Path) -> Self {
        let scratch = root.join(".tmp").join(format!("{}-{}", host_name(), std::process::id()));
        OutputDir { root: root.to_path_buf(), scratch, counter: AtomicU64::new(0) }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn part_path(&self, game: &str, table: &str, task: &str) -> PathBuf {
        self.root.join(game).join(table).join(format!("part-{task}.parquet"))
    }

    fn marker_dir(&self, game: &str) -> PathBuf {
        self.root.join(".tasks").join(game)
    }

    /// Writes `bytes` to `dest` atomically (scratch file, fsync, rename).
    pub fn write_atomic(
        &self,
        dest: &Path,
        write: impl FnOnce(&mut std::fs::File) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        std::fs::create_dir_all(&self.scratch)?;
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let tmp = self.scratch.join(format!("{n}.tmp"));
        let mut file = std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        write(&mut file)?;
        file.flush()?;
        file.sync_all()?;
        std::fs::rename(&tmp, dest).with_context(|| format!("renaming into {}", dest.display()))?;
        Ok(())
    }

    /// Writes one table of one task; returns its row count.
    pub fn write_table(&self, game: &str, task: &str, table: &Table) -> anyhow::Result<u64> {
        let dest = self.part_path(game, table.name, task);
        self.write_atomic(&dest, |file| parquet_io::write_batch(file, &table.batch))
            .with_context(|| format!("writing {}", dest.display()))?;
        Ok(table.batch.num_rows() as u64)
    }

    pub fn read_table(&self, game: &str, table: &str, task: &str) -> anyhow::Result<RecordBatch> {
        parquet_io::read_batch(&self.part_path(game, table, task))
    }

    /// Marks a task complete.
    pub fn write_marker(&self, record: &TaskRecord) -> anyhow::Result<()> {
        let dest = self.marker_dir(&record.game).join(format!("{}.json", record.id));
        self.write_atomic(&dest, |file| Ok(serde_json::to_writer_pretty(file, record)?))
    }

    /// The completed tasks of every game, by game then id.
    pub fn markers(&self) -> anyhow::Result<Vec<TaskRecord>> {
        let mut records = Vec::new();
        let base = self.root.join(".tasks");
        if !base.is_dir() {
            return Ok(records);
        }
        for game in sorted_entries(&base)? {
            for entry in sorted_entries(&game)? {
                if entry.extension().is_some_and(|e| e == "json") {
                    let text = std::fs::read_to_string(&entry)?;
                    let record: TaskRecord =
                        serde_json::from_str(&text).with_context(|| format!("reading marker {}", entry.display()))?;
                    records.push(record);
                }
            }
        }
        Ok(records)
    }

    /// Deletes scratch directories of processes on this host that no longer run.
    fn remove_stale_scratch(&self) {
        let Ok(entries) = std::fs::read_dir(self.root.join(".tmp")) else { return };
        let prefix = format!("{}-", host_name());
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name.strip_prefix(&prefix).and_then(|p| p.parse::<u32>().ok()) else { continue };
            if !Path::new(&format!("/proc/{pid}")).exists() {
                // Best effort: a failure here only leaves hidden scratch files.
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        // Best effort: nothing of value lives in a finished process's scratch dir.
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

impl Dataset for OutputDir {
    fn table(&self, game: &str, table: &str) -> anyhow::Result<Option<RecordBatch>> {
        let dir = self.root.join(game).join(table);
        if !dir.is_dir() {
            return Ok(None);
        }
        let parts: Vec<_> =
            sorted_entries(&dir)?.into_iter().filter(|p| p.extension().is_some_and(|e| e == "parquet")).collect();
        let batches = parts.iter().map(|p| parquet_io::read_batch(p)).collect::<anyhow::Result<Vec<_>>>()?;
        let Some(first) = batches.first() else { return Ok(None) };
        Ok(Some(arrow::compute::concat_batches(&first.schema(), &batches)?))
    }
}

/// Whether a task, step or table name can be a file name as it is: letters,
/// digits, `-`, `_`, `.`, and no leading `.` (no `..`, no hidden files).
pub fn is_safe_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('.') && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

fn sorted_entries(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut entries = std::fs::read_dir(dir)
        .with_context(|| format!("listing {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()?;
    entries.sort();
    Ok(entries)
}

fn host_name() -> String {
    let name = gethostname::gethostname().to_string_lossy().into_owned();
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' }).collect()
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifacts::columns::{Columns, TableBuilder};

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gamesweep-artifacts-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn writes_reads_and_concatenates_parts() {
        let root = temp_dir("parts");
        let out = OutputDir::create(&root).unwrap();
        for (task, n) in [("a", 1u32), ("b", 2)] {
            let table = TableBuilder::new().u32("n", [n, n + 10]).build("demo").unwrap();
            assert_eq!(out.write_table("g", task, &table).unwrap(), 2);
        }
        assert_eq!(out.read_table("g", "demo", "b").unwrap().u32s("n").unwrap().value(0), 2);
        let all = out.table("g", "demo").unwrap().unwrap();
        assert_eq!(all.u32s("n").unwrap().values().to_vec(), vec![1, 11, 2, 12]);
        assert!(out.table("g", "none").unwrap().is_none());
        drop(out);
        assert!(!root.join(".tmp").read_dir().unwrap().any(|_| true), "scratch removed");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn markers_round_trip() {
        let root = temp_dir("markers");
        let out = OutputDir::create(&root).unwrap();
        let record = TaskRecord {
            game: "g".into(),
            id: "t-1".into(),
            tables: BTreeMap::from([("demo".to_string(), 3)]),
            seconds: 0.25,
            finished_unix: 7,
            version: "0".into(),
            config_sha256: "abc".into(),
        };
        out.write_marker(&record).unwrap();
        assert_eq!(out.markers().unwrap(), vec![record]);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
