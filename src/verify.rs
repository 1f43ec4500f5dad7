//! The verification stage: every finished task on disk is re-derived by its
//! game in exact arithmetic. Each task gets a row in
//! `DIR/<game>/verification/part-<task>.parquet` with status certified,
//! repaired (the stored result was wrong and has been replaced) or failed.

use crate::artifacts::columns::TableBuilder;
use crate::artifacts::{OutputDir, TaskRecord, unix_now};
use crate::error::UserError;
use crate::game::{Game, Status, StoredTask, Verdict};
use crate::sweep::{panic_message, progress_bar};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::Instant;

/// Name of the table each game gets for its verification rows.
pub const VERIFICATION_TABLE: &str = "verification";

/// One task's verification outcome.
pub struct Outcome {
    pub game: String,
    pub task: String,
    pub status: Status,
    pub detail: String,
}

/// Verifies every finished task in `dir` with `jobs` threads.
pub fn verify(games: &[Box<dyn Game>], dir: &Path, jobs: Option<usize>) -> anyhow::Result<Vec<Outcome>> {
    let out = OutputDir::open(dir)?;
    let markers = out.markers()?;
    let known: BTreeMap<&str, &dyn Game> = games.iter().map(|g| (g.name(), g.as_ref())).collect();
    let tasks: Vec<(&dyn Game, &TaskRecord)> =
        markers.iter().filter_map(|m| known.get(m.game.as_str()).map(|g| (*g, m))).collect();
    if tasks.is_empty() {
        return Err(UserError::new(format!(
            "{}: no finished tasks to verify (run `gamesweep run CONFIG --out {}` first)",
            dir.display(),
            dir.display()
        ))
        .into());
    }
    eprintln!("gamesweep: verifying {} tasks in {}", tasks.len(), dir.display());
    let progress = progress_bar(tasks.len() as u64);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs.unwrap_or_else(rayon::current_num_threads)).build()?;
    let outcomes = pool.install(|| {
        tasks
            .par_iter()
            .with_max_len(1)
            .map(|(game, record)| {
                progress.set_message(format!("{} {}", record.game, record.id));
                let outcome = verify_task(&out, *game, record);
                progress.inc(1);
                outcome
            })
            .collect::<anyhow::Result<Vec<_>>>()
    })?;
    progress.finish_and_clear();
    Ok(outcomes)
}

fn verify_task(out: &OutputDir, game: &dyn Game, record: &TaskRecord) -> anyhow::Result<Outcome> {
    let start = Instant::now();
    let verdict = match load(out, record) {
        Ok(stored) => match catch_unwind(AssertUnwindSafe(|| game.verify(&stored))) {
            Ok(Ok(verdict)) => verdict,
            Ok(Err(error)) => Verdict::failed(format!("verification error: {error:#}")),
            Err(panic) => Verdict::failed(format!("verification panicked: {}", panic_message(&panic))),
        },
        Err(error) => Verdict::failed(format!("cannot read the task's tables: {error:#}")),
    };
    if verdict.status == Status::Repaired {
        let mut repaired = record.clone();
        for table in &verdict.replacement {
            let rows = out.write_table(&record.game, &record.id, table)?;
            repaired.tables.insert(table.name.to_string(), rows);
        }
        out.write_marker(&repaired)?;
    }
    for table in &verdict.findings {
        out.write_table(&record.game, &record.id, table)?;
    }
    let row = TableBuilder::new()
        .str("task_id", [&record.id])
        .str("status", [verdict.status.as_str()])
        .str("detail", [&verdict.detail])
        .f64("seconds", [start.elapsed().as_secs_f64()])
        .u64("verified_unix", [unix_now()])
        .str("version", [env!("CARGO_PKG_VERSION")])
        .build(VERIFICATION_TABLE)?;
    out.write_table(&record.game, &record.id, &row)?;
    Ok(Outcome { game: record.game.clone(), task: record.id.clone(), status: verdict.status, detail: verdict.detail })
}

fn load(out: &OutputDir, record: &TaskRecord) -> anyhow::Result<StoredTask> {
    let tables = record
        .tables
        .keys()
        .map(|name| Ok((name.clone(), out.read_table(&record.game, name, &record.id)?)))
        .collect::<anyhow::Result<_>>()?;
    Ok(StoredTask { id: record.id.clone(), tables })
}
