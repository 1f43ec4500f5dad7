//! `DIR/manifest.json`: what a directory holds and how it was made — program
//! version, the configs run into it (by hash), the last run, and every
//! finished task with its timing. Rebuilt from the task markers, so it is
//! complete even when several shards share the directory.

use super::{OutputDir, TaskRecord, unix_now};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One invocation of `gamesweep run`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunRecord {
    pub config_path: String,
    pub config_sha256: String,
    pub shard: String,
    pub jobs: usize,
    pub started_unix: u64,
    pub wall_seconds: f64,
    pub tasks_planned: usize,
    pub tasks_ran: usize,
    pub tasks_skipped: usize,
    pub tasks_failed: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ConfigSeen {
    pub path: String,
    pub last_run_unix: u64,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub program: String,
    pub version: String,
    pub updated_unix: u64,
    /// Configs run into this directory, by SHA-256 of the file.
    pub configs: BTreeMap<String, ConfigSeen>,
    pub last_run: Option<RunRecord>,
    pub tasks_done: usize,
    pub task_seconds_total: f64,
    pub tasks: Vec<TaskRecord>,
}

impl OutputDir {
    /// Whether `manifest.json` reads as a manifest (`verify` reports it if not).
    pub fn manifest_readable(&self) -> Result<(), String> {
        let text =
            std::fs::read_to_string(self.root().join("manifest.json")).map_err(|e| format!("cannot be read: {e}"))?;
        serde_json::from_str::<Manifest>(&text).map(|_| ()).map_err(|e| format!("damaged ({e})"))
    }
}

impl Manifest {
    /// Rewrites the manifest from the markers on disk, recording `run`.
    pub fn update(dir: &OutputDir, run: &RunRecord) -> anyhow::Result<()> {
        let path = dir.root().join("manifest.json");
        let mut configs = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| serde_json::from_str::<Manifest>(&text).ok())
            .map(|old| old.configs)
            .unwrap_or_default();
        configs.insert(
            run.config_sha256.clone(),
            ConfigSeen { path: run.config_path.clone(), last_run_unix: run.started_unix },
        );
        let tasks = dir.markers()?.records;
        let manifest = Manifest {
            program: env!("CARGO_PKG_NAME").to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            updated_unix: unix_now(),
            configs,
            last_run: Some(run.clone()),
            tasks_done: tasks.len(),
            task_seconds_total: tasks.iter().map(|t| t.seconds).sum(),
            tasks,
        };
        dir.write_atomic(&path, |file| Ok(serde_json::to_writer_pretty(file, &manifest)?))
    }
}
