//! The on-disk layout of a run and its atomic writers.
//!
//! ```text
//! DIR/<game>/<table>/part-<task>.parquet   one file per (table, task)
//! DIR/.tasks/<game>/<task>.json            marker: the task is complete (each part's rows, size, SHA-256)
//! DIR/.tasks/<game>/<task>.failed.txt      why the task's last run failed (until it succeeds)
//! DIR/.steps/<game>/<task>/<step>.step      finished steps of an unfinished task (see `steps`)
//! DIR/.claims/<game>/<task>.json            lease of the process computing a task (see `leases`)
//! DIR/.configs/<sha256>.toml                every config run into DIR, the plan `verify` checks against
//! DIR/manifest.json                        summary of the markers and runs
//! DIR/.tmp/<host>-<pid>/                   scratch space of a running process
//! ```
//!
//! Every file is written in the process's scratch directory and renamed into
//! place, so a reader never sees half a file. A task counts as done only once
//! its marker exists, and the marker is written after all its parts: a kill at
//! any moment loses at most the tasks in flight. The marker records each
//! part's size and SHA-256, so a part damaged later is detected before it is
//! trusted. Markers, not the manifest, are the source of truth, which keeps
//! shards writing to one shared directory from racing on a single file.

pub mod columns;
pub mod leases;
pub mod manifest;
pub mod parquet_io;
pub mod steps;
pub mod trust;

use crate::error::UserError;
use crate::game::{Dataset, Status, Table};
use anyhow::Context;
use arrow::record_batch::RecordBatch;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// Name of the table each game gets for its verification rows.
pub const VERIFICATION_TABLE: &str = "verification";

/// What a marker records of one part: enough to tell that the file on disk is
/// the one that was written.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(from = "PartRepr")]
pub struct PartRecord {
    pub rows: u64,
    /// Size and hex SHA-256 of the file; absent in markers of gamesweep 0.1
    /// before checksums (then the footer and row count are checked instead).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// A part as markers store it: `{rows, bytes, sha256}`, or only the row count
/// in markers written before checksums.
#[derive(Deserialize)]
#[serde(untagged)]
enum PartRepr {
    Rows(u64),
    Full { rows: u64, bytes: Option<u64>, sha256: Option<String> },
}

impl From<PartRepr> for PartRecord {
    fn from(repr: PartRepr) -> Self {
        match repr {
            PartRepr::Rows(rows) => PartRecord { rows, bytes: None, sha256: None },
            PartRepr::Full { rows, bytes, sha256 } => PartRecord { rows, bytes, sha256 },
        }
    }
}

/// Completion marker of one task.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TaskRecord {
    pub game: String,
    pub id: String,
    /// Every part the task wrote, by table.
    pub tables: BTreeMap<String, PartRecord>,
    /// Wall time of the task's computation (without writing).
    pub seconds: f64,
    pub finished_unix: u64,
    pub version: String,
    pub config_sha256: String,
    /// The task's settings when it ran (`Task::settings`), so that a rerun
    /// can name what a changed config would compute differently.
    #[serde(default)]
    pub settings: BTreeMap<String, String>,
}

/// A task, and what is wrong with it: a damaged marker or part, or the
/// error it failed with.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskProblem {
    pub game: String,
    pub task: String,
    pub why: String,
}

impl TaskProblem {
    pub fn new(game: &str, task: &str, why: impl Into<String>) -> Self {
        TaskProblem { game: game.to_string(), task: task.to_string(), why: why.into() }
    }
}

/// The markers of a directory: those that read, and those that do not.
#[derive(Default)]
pub struct Markers {
    pub records: Vec<TaskRecord>,
    /// Every marker file that cannot be read, and why.
    pub unreadable: Vec<TaskProblem>,
}

/// A config as stored in `DIR/.configs/`: its text, or why it cannot be used.
pub struct StoredConfig {
    pub path: PathBuf,
    pub text: Result<String, String>,
}

/// An output directory, opened for reading or writing.
pub struct OutputDir {
    root: PathBuf,
    scratch: PathBuf,
    counter: AtomicU64,
    /// The finished tasks whose parts are the ones their markers record,
    /// and the others with why, checked once for reports (`checked_tasks`).
    checked: OnceLock<CheckedTasks>,
}

impl OutputDir {
    /// Opens (creating if needed) a directory to write a run into, and removes
    /// scratch files left by killed processes on this host. A directory that
    /// cannot be created or written is bad input: nothing has been computed yet.
    pub fn create(root: &Path) -> Result<Self, UserError> {
        let bad = |what: &str, e: std::io::Error| {
            UserError::new(format!("{}: {what} the output directory: {e} (choose another with --out)", root.display()))
        };
        if root.as_os_str().to_string_lossy().trim().is_empty() {
            return Err(UserError::new("the output directory is an empty path (give one, e.g. --out data/run)"));
        }
        if root.exists() && !root.is_dir() {
            return Err(UserError::new(format!(
                "{}: the output directory is a file, not a directory (choose another with --out)",
                root.display()
            )));
        }
        std::fs::create_dir_all(root).map_err(|e| bad("cannot create", e))?;
        let dir = Self::at(root);
        let scratch_root = root.join(".tmp");
        if scratch_root.exists() && !scratch_root.is_dir() {
            return Err(UserError::new(format!(
                "{}: exists and is not a directory; gamesweep keeps its scratch files there (remove it, or choose \
                 another output directory with --out)",
                scratch_root.display()
            )));
        }
        std::fs::create_dir_all(&dir.scratch).map_err(|e| {
            UserError::new(format!("{}: cannot create the scratch directory: {e}", dir.scratch.display()))
        })?;
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
        OutputDir { root: root.to_path_buf(), scratch, counter: AtomicU64::new(0), checked: OnceLock::new() }
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

    pub fn marker_path(&self, game: &str, task: &str) -> PathBuf {
        self.marker_dir(game).join(format!("{task}.json"))
    }

    /// Writes a file to `dest` atomically (scratch file, fsync, rename); every
    /// error names `dest` (a full disk says which file it stopped).
    pub fn write_atomic(
        &self,
        dest: &Path,
        write: impl FnOnce(&mut std::fs::File) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let tmp = self.scratch.join(format!("{n}.tmp"));
        let result = (|| {
            std::fs::create_dir_all(&self.scratch)?;
            if let Some(parent) = dest.parent() {
                std::fs::create_dir_all(parent)?;
            }
            let mut file = std::fs::File::create(&tmp)?;
            write(&mut file)?;
            file.flush()?;
            file.sync_all()?;
            std::fs::rename(&tmp, dest)?;
            anyhow::Ok(())
        })();
        if result.is_err() {
            // Best effort: a half-written scratch file is never read.
            let _ = std::fs::remove_file(&tmp);
        }
        result.with_context(|| format!("writing {}", dest.display()))
    }

    /// Writes one table of one task; returns what its marker records of it.
    pub fn write_table(&self, game: &str, task: &str, table: &Table) -> anyhow::Result<PartRecord> {
        self.write_part(game, task, table.name, &[&table.batch])
    }

    /// Writes one table of one task, its rows in `batches` in order; returns
    /// what its marker records of it.
    pub fn write_part(
        &self,
        game: &str,
        task: &str,
        name: &str,
        batches: &[&RecordBatch],
    ) -> anyhow::Result<PartRecord> {
        let dest = self.part_path(game, name, task);
        let mut bytes = Vec::new();
        parquet_io::write_batches(&mut bytes, batches).with_context(|| format!("encoding {}", dest.display()))?;
        self.write_atomic(&dest, |file| Ok(file.write_all(&bytes)?))?;
        Ok(PartRecord {
            rows: batches.iter().map(|batch| batch.num_rows() as u64).sum(),
            bytes: Some(bytes.len() as u64),
            sha256: Some(sha256_hex(&bytes)),
        })
    }

    pub fn read_table(&self, game: &str, table: &str, task: &str) -> anyhow::Result<RecordBatch> {
        parquet_io::read_batch(&self.part_path(game, table, task))
    }

    /// One table of a finished task, read only if its part is the one its
    /// marker records (size and SHA-256, checked on the bytes that are then
    /// decoded). `Err` says why not: no marker, a damaged marker or part, no
    /// such table.
    pub fn read_finished_table(&self, game: &str, task: &str, table: &str) -> Result<RecordBatch, String> {
        let record = match self.marker(game, task) {
            Ok(Some(record)) => record,
            Ok(None) => return Err(format!("task {game}/{task} is not finished")),
            Err(why) => return Err(format!("task {game}/{task}: {why}")),
        };
        let part = record.tables.get(table).ok_or_else(|| format!("task {game}/{task} has no table {table}"))?;
        let path = self.part_path(game, table, task);
        let shown = self.relative(&path);
        let data = std::fs::read(&path).map_err(|e| format!("{shown}: cannot be read: {e}"))?;
        let intact = match (&part.bytes, &part.sha256) {
            (Some(bytes), Some(sha256)) => data.len() as u64 == *bytes && sha256_hex(&data) == *sha256,
            _ => false,
        };
        if !intact {
            return Err(format!("{shown}: not the part its marker records (size or SHA-256 differs)"));
        }
        parquet_io::decode(bytes::Bytes::from(data)).map_err(|e| format!("{shown}: {e:#}"))
    }

    /// Checks that every part a marker lists is the file that was written: its
    /// size and SHA-256 (or, in markers without checksums, a readable footer
    /// with the recorded row count). Returns the first damage found.
    pub fn check_parts(&self, record: &TaskRecord) -> Result<(), String> {
        for (table, part) in &record.tables {
            let path = self.part_path(&record.game, table, &record.id);
            let shown = self.relative(&path);
            match (&part.bytes, &part.sha256) {
                (Some(bytes), Some(sha256)) => {
                    let data = std::fs::read(&path).map_err(|e| format!("{shown}: cannot be read: {e}"))?;
                    if data.len() as u64 != *bytes {
                        return Err(format!("{shown}: {} bytes, the marker recorded {bytes}", data.len()));
                    }
                    if sha256_hex(&data) != *sha256 {
                        return Err(format!("{shown}: content changed since it was written (SHA-256 differs)"));
                    }
                }
                _ => {
                    let rows = parquet_io::count_rows(&path).map_err(|e| format!("{shown}: {e:#}"))?;
                    if rows != part.rows {
                        return Err(format!("{shown}: {rows} rows, the marker recorded {}", part.rows));
                    }
                }
            }
        }
        Ok(())
    }

    /// Marks a task complete.
    pub fn write_marker(&self, record: &TaskRecord) -> anyhow::Result<()> {
        let dest = self.marker_path(&record.game, &record.id);
        self.write_atomic(&dest, |file| Ok(serde_json::to_writer_pretty(file, record)?))?;
        remove_if_present(&self.failure_path(&record.game, &record.id))
    }

    fn failure_path(&self, game: &str, task: &str) -> PathBuf {
        self.marker_dir(game).join(format!("{task}.failed.txt"))
    }

    /// Records why a task's last run failed (`verify` says it of the missing task).
    pub fn write_failure(&self, game: &str, task: &str, error: &str) -> anyhow::Result<()> {
        self.write_atomic(&self.failure_path(game, task), |file| Ok(file.write_all(error.as_bytes())?))
    }

    /// Why the task's last run failed, if it did and has not succeeded since.
    pub fn failure(&self, game: &str, task: &str) -> Option<String> {
        std::fs::read_to_string(self.failure_path(game, task)).ok()
    }

    /// Marks a task not done (before it is recomputed).
    pub fn remove_marker(&self, game: &str, task: &str) -> anyhow::Result<()> {
        remove_if_present(&self.marker_path(game, task))
    }

    /// The marker of one task: `None` if there is none, an error if it cannot be read.
    pub fn marker(&self, game: &str, task: &str) -> Result<Option<TaskRecord>, String> {
        let path = self.marker_path(game, task);
        match std::fs::read_to_string(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: cannot be read: {e}", self.relative(&path))),
            Ok(text) => match serde_json::from_str::<TaskRecord>(&text) {
                Ok(record) if record.game == game && record.id == task => Ok(Some(record)),
                Ok(record) => Err(format!(
                    "{}: names task {}/{}, not {game}/{task}",
                    self.relative(&path),
                    record.game,
                    record.id
                )),
                Err(e) => Err(format!("{}: not a task marker ({e})", self.relative(&path))),
            },
        }
    }

    /// Every task's marker, by game then id; a marker that cannot be read is
    /// listed with the reason instead of stopping the caller.
    pub fn markers(&self) -> anyhow::Result<Markers> {
        let mut markers = Markers::default();
        let base = self.root.join(".tasks");
        if !base.is_dir() {
            return Ok(markers);
        }
        for game_dir in sorted_entries(&base)? {
            let Some(game) = file_name(&game_dir) else { continue };
            if !game_dir.is_dir() {
                continue;
            }
            for entry in sorted_entries(&game_dir)? {
                let Some(id) = entry.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".json")) else {
                    continue;
                };
                match self.marker(&game, id) {
                    Ok(Some(record)) => markers.records.push(record),
                    Ok(None) => {}
                    Err(why) => markers.unreadable.push(TaskProblem::new(&game, id, why)),
                }
            }
        }
        Ok(markers)
    }

    /// The status and detail `verify` last gave a task, if its verification row reads.
    pub fn verification(&self, game: &str, task: &str) -> Option<(Status, String)> {
        let path = self.part_path(game, VERIFICATION_TABLE, task);
        let batch = parquet_io::read_batch(&path).ok()?;
        let (status, detail) =
            (columns::Columns::strs(&batch, "status").ok()?, columns::Columns::strs(&batch, "detail").ok()?);
        if arrow::array::Array::len(status) != 1 || arrow::array::Array::len(detail) != 1 {
            return None;
        }
        Some((Status::parse(status.value(0))?, detail.value(0).to_string()))
    }

    /// Every part file of every table of `game`, as (table, task id).
    pub fn parts(&self, game: &str) -> anyhow::Result<Vec<(String, String)>> {
        let mut parts = Vec::new();
        let base = self.root.join(game);
        if !base.is_dir() {
            return Ok(parts);
        }
        for table_dir in sorted_entries(&base)? {
            let Some(table) = file_name(&table_dir).filter(|_| table_dir.is_dir()) else { continue };
            for file in sorted_entries(&table_dir)? {
                let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                if let Some(task) = name.strip_prefix("part-").and_then(|n| n.strip_suffix(".parquet")) {
                    parts.push((table.clone(), task.to_string()));
                }
            }
        }
        Ok(parts)
    }

    /// Deletes the parts of a task other than `keep` (verification rows and
    /// findings of an earlier computation), so a recomputed task carries no
    /// verdict about data it no longer has.
    pub fn remove_other_parts(&self, game: &str, task: &str, keep: &BTreeSet<&str>) -> anyhow::Result<()> {
        for (table, id) in self.parts(game)? {
            if id == task && !keep.contains(table.as_str()) {
                remove_if_present(&self.part_path(game, &table, task))?;
            }
        }
        Ok(())
    }

    /// Stores the text of a config run into this directory, under its SHA-256.
    pub fn write_config(&self, sha256: &str, text: &str) -> anyhow::Result<()> {
        let path = self.root.join(".configs").join(format!("{sha256}.toml"));
        if std::fs::read_to_string(&path).is_ok_and(|stored| stored == text) {
            return Ok(());
        }
        self.write_atomic(&path, |file| Ok(file.write_all(text.as_bytes())?))
    }

    /// Every config run into this directory, checked against its name's SHA-256.
    pub fn configs(&self) -> anyhow::Result<Vec<StoredConfig>> {
        let base = self.root.join(".configs");
        if !base.is_dir() {
            return Ok(Vec::new());
        }
        let mut configs = Vec::new();
        for path in sorted_entries(&base)? {
            let Some(name) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".toml")) else {
                continue;
            };
            let text = match std::fs::read_to_string(&path) {
                Ok(text) if sha256_hex(text.as_bytes()) == name => Ok(text),
                Ok(_) => Err("its content does not match its SHA-256 name (damaged)".to_string()),
                Err(e) => Err(format!("cannot be read: {e}")),
            };
            configs.push(StoredConfig { path, text });
        }
        Ok(configs)
    }

    /// `path` relative to the directory's root, for messages.
    pub fn relative(&self, path: &Path) -> String {
        path.strip_prefix(&self.root).unwrap_or(path).display().to_string()
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

/// Reports read the parts of tasks with a readable marker only: a part without
/// one (an orphan of a deleted marker or an unfinished recomputation) is not a
/// result.
/// A directory's finished tasks, sorted by whether their parts still are
/// the ones their markers record.
#[derive(Debug, Default)]
pub struct CheckedTasks {
    /// (game, task) with a readable marker and every part intact.
    pub intact: BTreeSet<(String, String)>,
    /// The others: a damaged marker or a changed part, or failed by `verify`.
    pub damaged: Vec<TaskProblem>,
}

impl OutputDir {
    /// Every marker read and every part it lists checked (size, SHA-256),
    /// and the last verification read, once: what a report may show is what
    /// `verify` would accept (intact, and not failed by it).
    pub fn checked_tasks(&self) -> anyhow::Result<&CheckedTasks> {
        if let Some(checked) = self.checked.get() {
            return Ok(checked);
        }
        let markers = self.markers()?;
        let mut checked = CheckedTasks::default();
        for TaskProblem { game, task, why } in markers.unreadable {
            checked.damaged.push(TaskProblem { game, task, why: format!("damaged marker: {why}") });
        }
        for record in markers.records {
            match (self.check_parts(&record), self.verification(&record.game, &record.id)) {
                (Err(why), _) => checked.damaged.push(TaskProblem { game: record.game, task: record.id, why }),
                (Ok(()), Some((Status::Failed, detail))) => {
                    let why = format!("`gamesweep verify` failed it: {detail}");
                    checked.damaged.push(TaskProblem { game: record.game, task: record.id, why });
                }
                (Ok(()), _) => {
                    checked.intact.insert((record.game, record.id));
                }
            }
        }
        Ok(self.checked.get_or_init(|| checked))
    }
}

/// A report reads the parts of intact tasks only (`checked_tasks`).
impl Dataset for OutputDir {
    fn table(&self, game: &str, table: &str) -> anyhow::Result<Option<RecordBatch>> {
        let dir = self.root.join(game).join(table);
        if !dir.is_dir() {
            return Ok(None);
        }
        let intact = &self.checked_tasks()?.intact;
        let parts: Vec<_> = self
            .parts(game)?
            .into_iter()
            .filter(|(t, task)| t == table && intact.contains(&(game.to_string(), task.clone())))
            .map(|(_, task)| self.part_path(game, table, &task))
            .collect();
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

fn file_name(path: &Path) -> Option<String> {
    path.file_name().and_then(|n| n.to_str()).map(str::to_string)
}

fn remove_if_present(path: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("removing {}", path.display()))
        }
        _ => Ok(()),
    }
}

/// Hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

pub(crate) fn host_name() -> String {
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
        for (task, n) in [("a", 1u32), ("b", 2), ("c", 3)] {
            let table = TableBuilder::new().u32("n", [n, n + 10]).build("demo").unwrap();
            let part = out.write_table("g", task, &table).unwrap();
            assert_eq!(part.rows, 2);
            let bytes = std::fs::read(out.part_path("g", "demo", task)).unwrap();
            assert_eq!(part.bytes, Some(bytes.len() as u64));
            assert_eq!(part.sha256, Some(sha256_hex(&bytes)));
            let record = TaskRecord {
                game: "g".into(),
                id: task.into(),
                tables: BTreeMap::from([("demo".to_string(), part)]),
                seconds: 0.0,
                finished_unix: 0,
                version: "0".into(),
                config_sha256: "abc".into(),
                settings: BTreeMap::new(),
            };
            // Task c is left without a marker (an orphan part).
            if task != "c" {
                out.write_marker(&record).unwrap();
                assert_eq!(out.check_parts(&record), Ok(()));
            }
        }
        assert_eq!(out.read_table("g", "demo", "b").unwrap().u32s("n").unwrap().value(0), 2);
        let all = out.table("g", "demo").unwrap().unwrap();
        assert_eq!(all.u32s("n").unwrap().values().to_vec(), vec![1, 11, 2, 12], "parts with a marker only");
        // A part changed after its marker was written is found out.
        let b = out.part_path("g", "demo", "b");
        let mut bytes = std::fs::read(&b).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&b, &bytes).unwrap();
        let record = out.marker("g", "b").unwrap().unwrap();
        assert!(out.check_parts(&record).unwrap_err().contains("content changed"));
        std::fs::write(&b, &bytes[..middle]).unwrap();
        assert!(out.check_parts(&record).unwrap_err().contains("bytes, the marker recorded"));
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
            tables: BTreeMap::from([("demo".to_string(), PartRecord { rows: 3, bytes: None, sha256: None })]),
            seconds: 0.25,
            finished_unix: 7,
            version: "0".into(),
            config_sha256: "abc".into(),
            settings: BTreeMap::new(),
        };
        out.write_marker(&record).unwrap();
        assert_eq!(out.markers().unwrap().records, vec![record.clone()]);
        // A marker of an older version (rows only) still reads.
        let legacy = r#"{"game": "g", "id": "t-1", "tables": {"demo": 3}, "seconds": 0.25, "finished_unix": 7,
            "version": "0", "config_sha256": "abc"}"#;
        std::fs::write(out.marker_path("g", "t-1"), legacy).unwrap();
        assert_eq!(out.marker("g", "t-1").unwrap(), Some(record));
        // One damaged marker is listed, not fatal.
        std::fs::write(out.marker_path("g", "bad"), "garbage").unwrap();
        let markers = out.markers().unwrap();
        assert_eq!(markers.records.len(), 1);
        assert_eq!(markers.unreadable[0].task, "bad");
        assert!(markers.unreadable[0].why.contains("not a task marker"), "{:?}", markers.unreadable);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
