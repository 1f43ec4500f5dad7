//! The verification stage: compares what the configs run into a directory
//! planned with what is on disk, and re-derives every finished task in exact
//! arithmetic through the task that planned it.
//!
//! The plan comes from the configs stored under `DIR/.configs/` by `run`.
//! Every planned task ends in one of: certified, repaired (the stored result
//! was wrong and has been replaced), failed (wrong, damaged or unprovable),
//! missing (no marker). Beside them `verify` reports markers no stored config
//! plans (unverifiable), parts without a marker (orphaned) and stored configs
//! that cannot be read. Each verified task gets a row in
//! `DIR/<game>/verification/part-<task>.parquet`; a task is certified only
//! if its parts are byte for byte the ones written, every `_f64` column is
//! the nearest double of its exact `"p/q"` column, and its own exact check
//! (keys against the plan, values re-derived) passes.

use crate::artifacts::columns::{Columns, TableBuilder};
use crate::artifacts::{OutputDir, PartRecord, StoredConfig, TaskProblem, TaskRecord, VERIFICATION_TABLE, unix_now};
use crate::config::ConfigFile;
use crate::error::UserError;
use crate::exact::{parse_canonical_pq, to_f64};
use crate::game::{Game, Inputs, Status, StoredTask, Task, Verdict, bounded_id};
use crate::panics;
use crate::sweep::{PlannedTask, plan, progress_bar};
use arrow::array::{Array, StringArray};
use arrow::datatypes::DataType;
use arrow::record_batch::RecordBatch;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

/// What `verify` found about one planned or stored task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finding {
    /// The task was verified with this outcome.
    Verified(Status),
    /// Planned, but no marker: never finished (or its marker was deleted).
    Missing,
    /// A marker no stored config plans, so there is nothing to check it against.
    Unverifiable,
    /// Parts on disk without a marker, of a task no stored config plans.
    Orphaned,
}

impl Finding {
    pub fn as_str(self) -> &'static str {
        match self {
            Finding::Verified(status) => status.as_str(),
            Finding::Missing => "missing",
            Finding::Unverifiable => "unverifiable",
            Finding::Orphaned => "orphaned",
        }
    }

    /// Whether this finding keeps the directory from being fully certified.
    pub fn is_problem(self) -> bool {
        !matches!(self, Finding::Verified(Status::Certified | Status::Repaired))
    }
}

/// One task's verification outcome.
pub struct Outcome {
    pub game: String,
    pub task: String,
    pub finding: Finding,
    pub detail: String,
}

/// Everything `verify` found in a directory.
pub struct Report {
    pub outcomes: Vec<Outcome>,
    /// Problems of the directory itself (a damaged stored config or manifest).
    pub problems: Vec<String>,
    /// Why the verdicts of these tasks could not be written into the
    /// directory ("game/task: error"), e.g. when it is read-only.
    pub unrecorded: Vec<String>,
}

impl Report {
    /// Every planned task certified or repaired, and nothing else wrong.
    pub fn all_certified(&self) -> bool {
        self.problems.is_empty() && !self.outcomes.iter().any(|o| o.finding.is_problem())
    }
}

/// (game, task id).
type TaskKey = (String, String);

/// Verifies everything in `dir` with `jobs` threads.
pub fn verify(games: &[Box<dyn Game>], dir: &Path, jobs: Option<usize>) -> anyhow::Result<Report> {
    let out = OutputDir::open(dir)?;
    let mut problems = Vec::new();
    let configs = out.configs()?;
    if configs.is_empty() {
        return Err(UserError::new(format!(
            "{}: no stored config to verify against (run `gamesweep run CONFIG --out {}` first; \
             directories written before gamesweep stored its configs need that rerun once)",
            dir.display(),
            dir.display()
        ))
        .into());
    }
    let plans = stored_plans(games, &out, &configs, &mut problems);
    // The plan: every task of every stored config, by (game, id), with the
    // configs that plan it (a marker is checked against its own config).
    let mut planned: BTreeMap<TaskKey, Vec<(&str, &dyn Task)>> = BTreeMap::new();
    for (sha, tasks) in &plans {
        for task in tasks {
            planned.entry((task.game.name().to_string(), task.id.clone())).or_default().push((sha, task.task.as_ref()));
        }
    }
    if let Err(why) = out.manifest_readable() {
        problems.push(format!("manifest.json: {why}; the next `gamesweep run` rebuilds it"));
    }

    let markers = out.markers()?;
    let mut outcomes = Vec::new();
    let mut to_verify: Vec<(&dyn Task, &TaskRecord)> = Vec::new();
    let mut marked: BTreeSet<TaskKey> = BTreeSet::new();
    for record in &markers.records {
        let key = (record.game.clone(), record.id.clone());
        marked.insert(key.clone());
        match planned.get(&key) {
            Some(tasks) => {
                let own = tasks.iter().find(|(sha, _)| *sha == record.config_sha256).unwrap_or(&tasks[0]);
                to_verify.push((own.1, record));
            }
            None => outcomes.push(Outcome {
                game: record.game.clone(),
                task: record.id.clone(),
                finding: Finding::Unverifiable,
                detail: "no stored config plans this task (its config changed or was never run here)".into(),
            }),
        }
    }
    for TaskProblem { game, task, why } in &markers.unreadable {
        marked.insert((game.clone(), task.clone()));
        outcomes.push(Outcome {
            game: game.clone(),
            task: task.clone(),
            finding: Finding::Verified(Status::Failed),
            detail: format!("damaged marker: {why}; a plain rerun recomputes the task"),
        });
    }
    outcomes.extend(unmarked(games, &out, planned.keys(), &marked)?);
    eprintln!("gamesweep: verifying {} tasks in {}", to_verify.len(), dir.display());
    let mut unrecorded = Vec::new();
    for (outcome, error) in verify_all(&out, &to_verify, jobs)? {
        unrecorded.extend(error.map(|e| format!("{}/{}: {e}", outcome.game, outcome.task)));
        outcomes.push(outcome);
    }
    outcomes.sort_by(|a, b| (&a.game, &a.task).cmp(&(&b.game, &b.task)));
    Ok(Report { outcomes, problems, unrecorded })
}

/// Each stored config's sha256 and plan; a config that cannot be read or
/// planned by this version is a problem of the directory.
fn stored_plans<'g>(
    games: &'g [Box<dyn Game>],
    out: &OutputDir,
    configs: &[StoredConfig],
    problems: &mut Vec<String>,
) -> Vec<(String, Vec<PlannedTask<'g>>)> {
    let mut plans = Vec::new();
    for stored in configs {
        let shown = out.relative(&stored.path);
        match &stored.text {
            Err(why) => problems.push(format!("{shown}: {why}; rerun its config to store it again")),
            Ok(text) => match ConfigFile::from_text(&stored.path, text.clone()).and_then(|c| {
                let tasks = plan(games, &c)?;
                Ok((c.sha256.clone(), tasks))
            }) {
                Ok(plan) => plans.push(plan),
                Err(why) => problems.push(format!("{shown}: cannot be planned by this version: {why}")),
            },
        }
    }
    plans
}

/// Planned tasks without a marker (missing, with the parts and the failure
/// they left), and parts of tasks no stored config plans (orphaned).
fn unmarked<'k>(
    games: &[Box<dyn Game>],
    out: &OutputDir,
    planned: impl Iterator<Item = &'k TaskKey>,
    marked: &BTreeSet<TaskKey>,
) -> anyhow::Result<Vec<Outcome>> {
    let mut outcomes = Vec::new();
    let mut unmarked_parts: BTreeMap<TaskKey, Vec<String>> = BTreeMap::new();
    for game in games {
        for (table, id) in out.parts(game.name())? {
            let key = (game.name().to_string(), id);
            if !marked.contains(&key) {
                unmarked_parts.entry(key).or_default().push(table);
            }
        }
    }
    for key in planned.filter(|k| !marked.contains(*k)) {
        let left = unmarked_parts.remove(key).map_or(String::new(), |tables| {
            format!(" (parts without a marker: {}; a plain rerun recomputes them)", tables.join(", "))
        });
        let why = out.failure(&key.0, &key.1).map_or(String::new(), |error| format!("; its last run failed: {error}"));
        outcomes.push(Outcome {
            game: key.0.clone(),
            task: key.1.clone(),
            finding: Finding::Missing,
            detail: format!("planned but not finished{left}{why}"),
        });
    }
    for ((game, task), tables) in unmarked_parts {
        outcomes.push(Outcome {
            game,
            task,
            finding: Finding::Orphaned,
            detail: format!("parts without a marker ({}), not planned by any stored config", tables.join(", ")),
        });
    }
    Ok(outcomes)
}

/// Each marked task's own check, in parallel on `jobs` threads, with a progress bar.
fn verify_all(
    out: &OutputDir,
    to_verify: &[(&dyn Task, &TaskRecord)],
    jobs: Option<usize>,
) -> anyhow::Result<Vec<(Outcome, Option<String>)>> {
    let progress = progress_bar(to_verify.len() as u64);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs.unwrap_or_else(rayon::current_num_threads)).build()?;
    // Tasks that read other tasks' tables after all others: they rest on
    // their inputs' verdicts of this run (`Inputs::input_verdict`).
    let (first, then): (Vec<_>, Vec<_>) = to_verify.iter().partition(|(task, _)| task.inputs().is_empty());
    let verified = pool.install(|| {
        [first, then]
            .iter()
            .flat_map(|batch| {
                batch
                    .par_iter()
                    .with_max_len(1)
                    .map(|(task, record)| {
                        progress.set_message(format!("{} {}", record.game, record.id));
                        let outcome = verify_task(out, *task, record);
                        progress.inc(1);
                        outcome
                    })
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    });
    progress.finish_and_clear();
    Ok(verified)
}

/// Verifies one task and records the verdict (the verification row, any
/// findings, a repair). What could not be recorded (a read-only directory)
/// comes back beside the outcome: the verdict still counts, but a repair
/// that could not be written leaves the stored result wrong, so it fails.
fn verify_task(out: &OutputDir, task: &dyn Task, record: &TaskRecord) -> (Outcome, Option<String>) {
    let start = Instant::now();
    let mut verdict = match out.check_parts(record) {
        Err(why) => Verdict::failed(format!("damaged part: {why}; a plain rerun recomputes the task")),
        Ok(()) => match load(out, record, &FinishedTasks { out, game: &record.game }) {
            Err(error) => Verdict::failed(format!("cannot read the task's tables: {error:#}")),
            Ok(stored) => match check_columns(&stored, record) {
                Err(why) => Verdict::failed(why),
                Ok(()) => match panics::catching(|| task.verify(&stored)) {
                    Ok(Ok(verdict)) => verdict,
                    Ok(Err(error)) => Verdict::failed(format!("verification error: {error:#}")),
                    Err(panic) => Verdict::failed(format!("verification panicked: {panic}")),
                },
            },
        },
    };
    let unrecorded = record_verdict(out, record, &verdict, start.elapsed().as_secs_f64()).err().map(|error| {
        if verdict.status == Status::Repaired && !verdict.replacement.is_empty() {
            verdict.status = Status::Failed;
            verdict.detail = format!("{}; the repair could not be written ({error:#})", verdict.detail);
        }
        format!("{error:#}")
    });
    let outcome = Outcome {
        game: record.game.clone(),
        task: record.id.clone(),
        finding: Finding::Verified(verdict.status),
        detail: verdict.detail,
    };
    (outcome, unrecorded)
}

/// Writes a verdict next to the task: the repaired tables and their marker,
/// the findings, and the verification row.
fn record_verdict(out: &OutputDir, record: &TaskRecord, verdict: &Verdict, seconds: f64) -> anyhow::Result<()> {
    if verdict.status == Status::Repaired && !verdict.replacement.is_empty() {
        let mut repaired = record.clone();
        for table in &verdict.replacement {
            let part: PartRecord = out.write_table(&record.game, &record.id, table)?;
            repaired.tables.insert(table.name.to_string(), part);
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
        .f64("seconds", [seconds])
        .u64("verified_unix", [unix_now()])
        .str("version", [env!("CARGO_PKG_VERSION")])
        .build(VERIFICATION_TABLE)?;
    out.write_table(&record.game, &record.id, &row)?;
    Ok(())
}

fn load<'a>(out: &'a OutputDir, record: &TaskRecord, inputs: &'a FinishedTasks) -> anyhow::Result<StoredTask<'a>> {
    let tables = record
        .tables
        .keys()
        .map(|name| Ok((name.clone(), out.read_table(&record.game, name, &record.id)?)))
        .collect::<anyhow::Result<_>>()?;
    Ok(StoredTask { id: record.id.clone(), tables, inputs })
}

/// The finished tasks of one game in an output directory, as a task's inputs.
struct FinishedTasks<'a> {
    out: &'a OutputDir,
    game: &'a str,
}

impl Inputs for FinishedTasks<'_> {
    fn input(&self, task: &str, table: &str) -> anyhow::Result<RecordBatch> {
        self.out.read_finished_table(self.game, &bounded_id(task), table).map_err(anyhow::Error::msg)
    }

    fn input_verdict(&self, task: &str) -> Option<Status> {
        self.out.verification(self.game, &bounded_id(task)).map(|(status, _)| status)
    }
}

/// The checks every table of every game gets, whatever the game: the row
/// count the marker recorded, no nulls (gamesweep never writes one), and each
/// `X_f64` column beside a string column `X` the nearest double of the
/// reduced fraction `X` holds.
fn check_columns(stored: &StoredTask, record: &TaskRecord) -> Result<(), String> {
    for (name, batch) in &stored.tables {
        let rows = record.tables.get(name).map_or(0, |p| p.rows);
        if batch.num_rows() as u64 != rows {
            return Err(format!("{name}: {} rows, the marker recorded {rows}", batch.num_rows()));
        }
        for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
            if column.null_count() > 0 {
                return Err(format!("{name}: column {} has {} empty (null) values", field.name(), column.null_count()));
            }
        }
        for field in batch.schema().fields() {
            let Some(exact_name) = field.name().strip_suffix("_f64") else { continue };
            let Some(exact) = batch.column_by_name(exact_name) else { continue };
            if exact.data_type() != &DataType::Utf8 {
                continue;
            }
            let exact = exact.as_any().downcast_ref::<StringArray>().expect("a Utf8 column is a StringArray");
            let floats = batch.f64s(field.name()).map_err(|e| format!("{name}: {e}"))?;
            for row in 0..batch.num_rows() {
                let text = exact.value(row);
                let at = || format!("{name}, row {row}{}", row_key(batch, row));
                let value = parse_canonical_pq(text).map_err(|e| format!("{}: {exact_name}: {e}", at()))?;
                let nearest = to_f64(&value);
                if floats.value(row).to_bits() != nearest.to_bits() {
                    return Err(format!(
                        "{}: {} = {} is not the nearest double of {exact_name} = {text} ({nearest:?})",
                        at(),
                        field.name(),
                        floats.value(row)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// " (n = 10)": the row's first column when it is a small integer key, for messages.
fn row_key(batch: &RecordBatch, row: usize) -> String {
    let (Some(field), Some(column)) = (batch.schema().fields().first().cloned(), batch.columns().first()) else {
        return String::new();
    };
    match column.data_type() {
        DataType::UInt8 | DataType::UInt32 | DataType::UInt64 | DataType::Int64 => {
            let shown = arrow::util::display::array_value_to_string(column, row).unwrap_or_default();
            format!(" ({} = {shown})", field.name())
        }
        _ => String::new(),
    }
}
