//! `gamesweep export DIR --out OUTDIR`: one file per table of checked rows
//! only (docs/tables.md#checked-rows), sorted by key, with the provenance a
//! paper can cite inside the file: the configs that planned the rows (hash
//! and text), the program's version and the commit it was built from, when
//! `verify` last ran, and what was left out and why. Parquet carries it as
//! key-value metadata; CSV in a JSON file beside it.

use crate::artifacts::OutputDir;
use crate::artifacts::parquet_io;
use crate::artifacts::trust::{TaskTrust, Trust};
use crate::error::UserError;
use crate::game::Game;
use anyhow::Context;
use arrow::array::{ArrayRef, StringArray, UInt64Array};
use arrow::compute::{SortColumn, lexsort_to_indices, take};
use arrow::datatypes::{DataType, Field, Schema};
use arrow::record_batch::RecordBatch;
use arrow::row::{RowConverter, SortField};
use arrow::util::display::{ArrayFormatter, FormatOptions};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The commit the program was built from (`build.rs`; "unknown" outside a checkout).
pub const COMMIT: &str = env!("GAMESWEEP_COMMIT");

/// The file format of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One Parquet file per table, provenance in its key-value metadata.
    Parquet,
    /// One CSV file per table, provenance in `<table>.csv.json` beside it.
    Csv,
    /// Higher-lower's exact values as the OEIS b-files of A286676 and A286677.
    Oeis,
}

/// What an export does with tasks whose rows are not checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unchecked {
    /// Export nothing and name them (exit 1).
    Refuse,
    /// Export the checked rows and report the rest as left out.
    LeaveOut,
}

/// A task whose rows an export leaves out, and why.
#[derive(Debug, Clone, Serialize)]
pub struct LeftOut {
    pub game: String,
    pub task: String,
    pub reason: String,
}

/// The tasks whose rows are not checked; an export that refuses them stops with this.
#[derive(Debug)]
pub struct NotAllChecked(pub Vec<LeftOut>);

impl std::fmt::Display for NotAllChecked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} task(s) are not checked (export them with --leave-out to leave them out)", self.0.len())
    }
}

impl std::error::Error for NotAllChecked {}

/// One game's tasks, split by the checked rule.
pub struct GameTasks {
    pub game: String,
    pub checked: BTreeSet<String>,
    pub left_out: Vec<LeftOut>,
}

/// The tasks in DIR of each game named, split by the checked rule (games
/// without tasks left out); an error naming the tasks left out if
/// `unchecked` refuses them.
pub fn classify(out: &OutputDir, games: &[&str], unchecked: Unchecked) -> anyhow::Result<Vec<GameTasks>> {
    let mut all = Vec::new();
    for &game in games {
        let (mut checked, mut left_out) = (BTreeSet::new(), Vec::new());
        for TaskTrust { task, trust } in out.trust(game)? {
            match trust {
                Trust::Checked(_) => {
                    checked.insert(task);
                }
                Trust::LeftOut(reason) => left_out.push(LeftOut { game: game.to_string(), task, reason }),
            }
        }
        if !checked.is_empty() || !left_out.is_empty() {
            all.push(GameTasks { game: game.to_string(), checked, left_out });
        }
    }
    let left_out: Vec<LeftOut> = all.iter().flat_map(|g| g.left_out.iter().cloned()).collect();
    if unchecked == Unchecked::Refuse && !left_out.is_empty() {
        return Err(NotAllChecked(left_out).into());
    }
    Ok(all)
}

/// The checked rows of one table as batches in key order: the parts of
/// `tasks` (checked tasks), each sorted by key and put in the order of their
/// first rows, or, where the parts' key ranges overlap, sorted as one. A part its task's marker records with a
/// checksum is read only if it is still that part; the others (the
/// verification row and findings `verify` wrote after the marker, and parts
/// of markers from before checksums, whose row counts `trust` checked) are
/// read as they are.
pub fn checked_rows(out: &OutputDir, game: &str, table: &str, tasks: &[&String]) -> anyhow::Result<Vec<RecordBatch>> {
    let mut batches = Vec::new();
    for task in tasks {
        let record = out.marker(game, task).map_err(anyhow::Error::msg)?;
        let summed = record.is_some_and(|r| r.tables.get(table).is_some_and(|part| part.sha256.is_some()));
        let batch = if summed {
            out.read_finished_table(game, task, table).map_err(anyhow::Error::msg)?
        } else {
            out.read_table(game, table, task)?
        };
        batches.push(sorted_by_key(batch)?);
    }
    in_key_order(batches)
}

/// Sorted parts in the order of their first rows, kept apart (a table's
/// parts are disjoint ranges of its key, N by chunks, so no copy of the
/// whole table is made); parts whose key ranges overlap are sorted as one.
fn in_key_order(parts: Vec<RecordBatch>) -> anyhow::Result<Vec<RecordBatch>> {
    let schema = parts.first().map(RecordBatch::schema).context("no parts")?;
    let keys: Vec<usize> = (0..schema.fields().len()).filter(|&i| is_key(schema.field(i).data_type())).collect();
    let fields = keys.iter().map(|&i| SortField::new(schema.field(i).data_type().clone())).collect();
    let converter = RowConverter::new(fields)?;
    let ends = |batch: &RecordBatch| -> anyhow::Result<Option<(Vec<u8>, Vec<u8>)>> {
        let n = batch.num_rows();
        if n == 0 {
            return Ok(None);
        }
        let columns: Vec<ArrayRef> = keys.iter().map(|&i| batch.column(i).clone()).collect();
        let rows = converter.convert_columns(&columns)?;
        Ok(Some((rows.row(0).as_ref().to_vec(), rows.row(n - 1).as_ref().to_vec())))
    };
    let mut ranged = Vec::new();
    for part in parts {
        if let Some(range) = ends(&part)? {
            ranged.push((range, part));
        }
    }
    ranged.sort_by(|a, b| a.0.0.cmp(&b.0.0));
    if ranged.windows(2).all(|pair| pair[0].0.1 < pair[1].0.0) {
        return Ok(ranged.into_iter().map(|(_, part)| part).collect());
    }
    let parts: Vec<RecordBatch> = ranged.into_iter().map(|(_, part)| part).collect();
    Ok(vec![sorted_by_key(arrow::compute::concat_batches(&schema, &parts)?)?])
}

/// Whether a column orders rows (every column but lists: trees' depths).
fn is_key(data_type: &DataType) -> bool {
    !matches!(data_type, DataType::List(_) | DataType::LargeList(_))
}

/// The rows sorted by every column that has an order, in schema order: the
/// key columns come first in every table (`n`, `method`, `i`, ...), and
/// the rest only breaks ties.
fn sorted_by_key(batch: RecordBatch) -> anyhow::Result<RecordBatch> {
    let keys: Vec<SortColumn> = batch
        .columns()
        .iter()
        .filter(|c| is_key(c.data_type()))
        .map(|c| SortColumn { values: c.clone(), options: None })
        .collect();
    if keys.is_empty() || batch.num_rows() < 2 {
        return Ok(batch);
    }
    let order = lexsort_to_indices(&keys, None)?;
    let columns: Vec<ArrayRef> = batch.columns().iter().map(|c| take(c, &order, None)).collect::<Result<_, _>>()?;
    Ok(RecordBatch::try_new(batch.schema(), columns)?)
}

/// Where a table's rows came from, as an export records it.
#[derive(Debug, Serialize)]
pub struct Provenance {
    pub program: String,
    pub version: String,
    pub commit: String,
    pub source: String,
    pub game: String,
    pub table: String,
    pub rows: usize,
    pub tasks: usize,
    /// The configs that planned the exported tasks: SHA-256 and text.
    pub configs: BTreeMap<String, String>,
    /// When `verify` last verified one of the exported tasks (Unix seconds).
    pub verified_unix: u64,
    pub left_out: Vec<LeftOut>,
}

impl Provenance {
    /// As Parquet key-value metadata: one key per field, JSON values.
    fn key_values(&self) -> anyhow::Result<Vec<(String, String)>> {
        let json = serde_json::to_value(self)?;
        let fields = json.as_object().context("provenance is an object")?;
        Ok(fields
            .iter()
            .map(|(key, value)| {
                let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
                (format!("gamesweep.{key}"), text)
            })
            .collect())
    }
}

/// The provenance of one exported table.
fn provenance(out: &OutputDir, tasks: &GameTasks, table: &str, batches: &[RecordBatch]) -> anyhow::Result<Provenance> {
    let stored: BTreeMap<String, String> = out
        .configs()?
        .into_iter()
        .filter_map(|c| {
            let name = c.path.file_stem()?.to_str()?.to_string();
            Some((name, c.text.ok()?))
        })
        .collect();
    let mut configs = BTreeMap::new();
    let mut verified_unix = 0;
    for task in &tasks.checked {
        if let Ok(Some(record)) = out.marker(&tasks.game, task)
            && let Some(text) = stored.get(&record.config_sha256)
        {
            configs.insert(record.config_sha256.clone(), text.clone());
        }
        verified_unix = verified_unix.max(last_verified(out, &tasks.game, task));
    }
    Ok(Provenance {
        program: "gamesweep".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        commit: COMMIT.into(),
        source: out.root().display().to_string(),
        game: tasks.game.clone(),
        table: table.into(),
        rows: batches.iter().map(RecordBatch::num_rows).sum(),
        tasks: tasks.checked.len(),
        configs,
        verified_unix,
        left_out: tasks.left_out.clone(),
    })
}

/// When `verify` last verified a task (0 if its row does not say).
fn last_verified(out: &OutputDir, game: &str, task: &str) -> u64 {
    out.read_table(game, crate::artifacts::VERIFICATION_TABLE, task)
        .ok()
        .and_then(|batch| {
            let column = batch.column_by_name("verified_unix")?.as_any().downcast_ref::<UInt64Array>()?.clone();
            column.iter().flatten().max()
        })
        .unwrap_or(0)
}

/// What an export wrote.
pub struct Exported {
    pub files: Vec<(PathBuf, u64)>,
    pub left_out: Vec<LeftOut>,
}

/// Exports every table of DIR's checked rows to `dest` in `format`
/// (Parquet or CSV), with progress per table.
pub fn export(
    games: &[Box<dyn Game>],
    dir: &Path,
    dest: &Path,
    format: Format,
    unchecked: Unchecked,
) -> anyhow::Result<Exported> {
    let out = OutputDir::open(dir)?;
    if dest.exists() && !dest.is_dir() {
        return Err(UserError::new(format!("--out {}: exists and is not a directory", dest.display())).into());
    }
    let names: Vec<&str> = games.iter().map(|g| g.name()).collect();
    let all = classify(&out, &names, unchecked)?;
    // (game's tasks, table, the checked tasks with a part of it).
    let mut plan = Vec::new();
    for tasks in &all {
        let mut by_table: BTreeMap<String, Vec<&String>> = BTreeMap::new();
        for (table, task) in out.parts(&tasks.game)? {
            let entry = by_table.entry(table).or_default();
            if let Some(checked) = tasks.checked.get(&task) {
                entry.push(checked);
            }
        }
        plan.extend(by_table.into_iter().map(|(table, included)| (tasks, table, included)));
    }
    let bar = crate::sweep::progress_bar(plan.len() as u64);
    let mut files = Vec::new();
    for (tasks, table, included) in plan {
        bar.set_message(format!("{}/{table}", tasks.game));
        if !included.is_empty() {
            let batches = checked_rows(&out, &tasks.game, &table, &included)?;
            let provenance = provenance(&out, tasks, &table, &batches)?;
            files.extend(write_table(dest, &tasks.game, &table, &batches, &provenance, format)?);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(Exported { files, left_out: all.into_iter().flat_map(|g| g.left_out).collect() })
}

/// Writes one table in `format`; the files written with their sizes.
fn write_table(
    dest: &Path,
    game: &str,
    table: &str,
    batches: &[RecordBatch],
    provenance: &Provenance,
    format: Format,
) -> anyhow::Result<Vec<(PathBuf, u64)>> {
    let base = dest.join(game);
    match format {
        Format::Parquet => {
            let mut bytes = Vec::new();
            parquet_io::write_batches_with_metadata(&mut bytes, batches, provenance.key_values()?)?;
            Ok(vec![write_file(&base.join(format!("{table}.parquet")), &bytes)?])
        }
        Format::Csv => {
            let csv = write_file(&base.join(format!("{table}.csv")), &csv_bytes(batches)?)?;
            let json = serde_json::to_vec_pretty(provenance)?;
            Ok(vec![csv, write_file(&base.join(format!("{table}.csv.json")), &json)?])
        }
        Format::Oeis => anyhow::bail!("the OEIS format is written by its game, not per table"),
    }
}

/// The table as CSV with a header; list columns (trees' depths) as "[2, 1, 2]".
fn csv_bytes(batches: &[RecordBatch]) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut writer = arrow::csv::WriterBuilder::new().with_header(true).build(&mut bytes);
    for batch in batches {
        writer.write(&flattened(batch)?)?;
    }
    drop(writer);
    Ok(bytes)
}

/// The batch with its list columns as text, for CSV.
fn flattened(batch: &RecordBatch) -> anyhow::Result<RecordBatch> {
    let mut fields = Vec::new();
    let mut columns: Vec<ArrayRef> = Vec::new();
    for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
        if matches!(field.data_type(), DataType::List(_)) {
            let formatter = ArrayFormatter::try_new(column.as_ref(), &FormatOptions::default())?;
            let text: StringArray = (0..column.len()).map(|i| Some(formatter.value(i).to_string())).collect();
            columns.push(Arc::new(text));
            fields.push(Field::new(field.name(), DataType::Utf8, false));
        } else {
            columns.push(column.clone());
            fields.push(field.as_ref().clone());
        }
    }
    Ok(RecordBatch::try_new(Arc::new(Schema::new(fields)), columns)?)
}

/// Writes `bytes` to `path` atomically (a hidden file beside it, fsynced,
/// renamed into place), so a reader never sees half a file; its size.
pub fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<(PathBuf, u64)> {
    use std::io::Write;
    let parent = path.parent().context("a file has a directory")?;
    let name = path.file_name().context("a file has a name")?.to_string_lossy();
    let tmp = parent.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        std::fs::create_dir_all(parent)?;
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        anyhow::Ok(())
    })();
    if result.is_err() {
        // Best effort: a half-written hidden file is never read.
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("writing {}", path.display()))?;
    Ok((path.to_path_buf(), bytes.len() as u64))
}
