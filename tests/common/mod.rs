//! Helpers for the command-line integration tests.
#![allow(dead_code)] // each test binary uses its own subset

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gamesweep"))
}

/// A fresh directory under the system temp dir, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("gamesweep-it-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
    pub fn join(&self, p: &str) -> PathBuf {
        self.0.join(p)
    }
    /// Writes a config file and returns its path.
    pub fn config(&self, name: &str, text: &str) -> PathBuf {
        let path = self.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn run(args: &[&str]) -> Output {
    binary().args(args).output().expect("runs gamesweep")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Every Parquet part under `dir`, decoded, keyed by its path relative to `dir`.
pub fn parts(dir: &Path) -> BTreeMap<String, arrow::record_batch::RecordBatch> {
    let mut out = BTreeMap::new();
    for file in files(dir) {
        if file.extension().is_some_and(|e| e == "parquet") {
            let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
                std::fs::File::open(&file).unwrap(),
            )
            .unwrap()
            .build()
            .unwrap();
            let schema = arrow::record_batch::RecordBatchReader::schema(&reader);
            let batches: Vec<_> = reader.map(Result::unwrap).collect();
            let batch = arrow::compute::concat_batches(&schema, &batches).unwrap();
            out.insert(file.strip_prefix(dir).unwrap().display().to_string(), batch);
        }
    }
    out
}

/// Every file under `dir` (recursively, hidden ones included), sorted.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() { stack.push(path) } else { out.push(path) }
        }
    }
    out.sort();
    out
}

/// Content and modification time of every file, to prove nothing changed.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)> {
    files(dir)
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(&f).unwrap();
            let modified = std::fs::metadata(&f).unwrap().modified().unwrap();
            (f, (bytes, modified))
        })
        .collect()
}

/// Rewrites one column of a Parquet part in place and reseals its marker (a
/// wrong result written consistently, as a bug would write it).
pub fn rewrite_column(path: &Path, name: &str, change: impl Fn(&arrow::array::ArrayRef) -> arrow::array::ArrayRef) {
    let batch = parts(path.parent().unwrap())[path.file_name().unwrap().to_str().unwrap()].clone();
    let index = batch.schema().index_of(name).unwrap();
    let mut columns = batch.columns().to_vec();
    columns[index] = change(&columns[index]);
    let changed = arrow::record_batch::RecordBatch::try_new(batch.schema(), columns).unwrap();
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(std::fs::File::create(path).unwrap(), changed.schema(), None).unwrap();
    writer.write(&changed).unwrap();
    writer.close().unwrap();
    reseal(path);
}

/// After a test rewrote the part at `path`, makes its task's marker record
/// the new file (size, checksum, rows), as if the run had written it: a
/// consistent but wrong result, which only the exact checks can catch.
pub fn reseal(path: &Path) {
    let table_dir = path.parent().unwrap();
    let game_dir = table_dir.parent().unwrap();
    let out = game_dir.parent().unwrap();
    let name = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();
    let task = name(path).strip_prefix("part-").unwrap().strip_suffix(".parquet").unwrap().to_string();
    let marker = out.join(".tasks").join(name(game_dir)).join(format!("{task}.json"));
    let mut record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&marker).unwrap()).unwrap();
    let bytes = std::fs::read(path).unwrap();
    let rows = parts(table_dir)[&name(path)].num_rows();
    record["tables"][name(table_dir)] = serde_json::json!({
        "rows": rows,
        "bytes": bytes.len(),
        "sha256": gamesweep::artifacts::sha256_hex(&bytes),
    });
    std::fs::write(&marker, serde_json::to_string_pretty(&record).unwrap()).unwrap();
}

/// Task ids with a completion marker for `game`.
pub fn markers(dir: &Path, game: &str) -> Vec<String> {
    let marker_dir = dir.join(".tasks").join(game);
    if !marker_dir.is_dir() {
        return Vec::new();
    }
    let mut ids: Vec<String> = std::fs::read_dir(marker_dir)
        .unwrap()
        .map(|e| e.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    ids
}
