//! The one interface between the orchestrator and a game.
//!
//! A game expands its config section into tasks; a task computes tables and
//! later verifies what was stored of them in exact arithmetic. The
//! orchestrator (`sweep`, `verify`, `report`) sees games only through these
//! traits, so adding a game never touches it.

use crate::config::Section;
use crate::error::UserError;
use crate::plot::Plot;
use arrow::record_batch::RecordBatch;
use std::collections::BTreeMap;

/// One output table of one task: it becomes `DIR/<game>/<name>/part-<task>.parquet`.
/// A task may return several tables of one name (say one per step of a long
/// chain): they are written in order as that one part, never concatenated in
/// memory first.
pub struct Table {
    pub name: &'static str,
    pub batch: RecordBatch,
}

/// A game's part of the report: Markdown, the analyses behind it as tables
/// (written to DIR/report/<game>/<table>.parquet), and figures (written to
/// DIR/report/figures/; the Markdown links them as `figures/<file>`).
pub struct ReportSection {
    pub markdown: String,
    pub tables: Vec<Table>,
    pub figures: Vec<Figure>,
}

/// A figure of the report: drawn by `report` as DIR/report/figures/<name>.png
/// (and <name>.svg when asked), so a game describes it once for both.
pub struct Figure {
    /// File name under DIR/report/figures/ without extension, e.g. "higher_lower_value".
    pub name: String,
    pub plot: Plot,
}

impl Figure {
    /// The PNG's file name under DIR/report/figures/.
    pub fn png_file(&self) -> String {
        format!("{}.png", self.name)
    }

    /// The SVG's file name under DIR/report/figures/.
    pub fn svg_file(&self) -> String {
        format!("{}.svg", self.name)
    }

    /// The Markdown that shows the figure (its PNG) with its caption.
    pub fn markdown(&self, caption: &str) -> String {
        format!("![{caption}](figures/{})\n\n*{caption}*\n\n", self.png_file())
    }
}

/// A unit of work: deterministic, independent of every other task.
pub trait Task: Send + Sync {
    /// Stable id derived from the task's parameters; unique within its game and
    /// safe in file names (letters, digits, `-`, `_`, `.`, not starting with `.`).
    fn id(&self) -> String;
    /// Computes the task's tables; long tasks report what they have done so
    /// far and may checkpoint finished steps through `context`.
    fn run(&self, context: &dyn TaskContext) -> anyhow::Result<Vec<Table>>;
    /// Re-derives this task's stored tables in exact arithmetic. The task is
    /// its own plan: the check fails unless the tables hold exactly the keys
    /// it plans (every N, every row index, each once) with the right values.
    fn verify(&self, stored: &StoredTask) -> anyhow::Result<Verdict>;
    /// Rough expected run time in seconds on one core (only the order across
    /// all tasks of a run matters). The orchestrator starts the longest tasks
    /// first, so that a long task does not start last and run alone while the
    /// other cores idle.
    fn cost_hint(&self) -> f64 {
        1.0
    }
    /// Rough peak memory in MB of one worker thread running this task, for
    /// cluster resource requests (`gamesweep plan`, scripts/slurm-sweep.sh).
    fn memory_hint_mb(&self) -> u64 {
        DEFAULT_MEMORY_HINT_MB
    }
    /// Ids of tasks of the same game whose finished tables this task reads
    /// (through [`Inputs`], when it runs and when it is verified). The
    /// orchestrator starts it only once they are done, and fails it if one
    /// cannot be (not planned, failed, or damaged).
    fn inputs(&self) -> Vec<String> {
        Vec::new()
    }
    /// Settings that change what the task computes but that its id does not
    /// name (a solver tolerance, a claim's statement), by key. The marker and
    /// the saved steps record them: a rerun names the finished tasks whose
    /// settings the config changed (`--redo-changed` recomputes them), and
    /// never resumes steps saved under other settings.
    fn settings(&self) -> BTreeMap<&'static str, String> {
        BTreeMap::new()
    }
}

/// A task's settings as one line, `key=value` joined by `, ` (how steps record them).
pub fn settings_text(settings: &BTreeMap<&'static str, String>) -> String {
    settings.iter().map(|(key, value)| format!("{key}={}", value.escape_debug())).collect::<Vec<_>>().join(", ")
}

/// Read access to the finished tables of other tasks of the same game.
pub trait Inputs {
    /// A table of a finished task, read only if its part is the one its
    /// marker records (size and SHA-256).
    fn input(&self, task: &str, table: &str) -> anyhow::Result<RecordBatch>;

    /// The last `verify` verdict of a finished task, where it has one. When
    /// tasks are verified, their inputs are verified first, so a task can rest
    /// on what its inputs' verification proved; a run does not ask.
    fn input_verdict(&self, _task: &str) -> Option<Status> {
        None
    }
}

/// The most tasks one config section may plan: a plan is held in memory
/// and listed by `gamesweep plan`, and a run of more tasks than this is a
/// typo more often than a plan (each game refuses more before it builds them).
pub const MAX_TASKS: u64 = 100_000;

/// `Err` with a message naming the count and the bound when `count` tasks
/// are more than `MAX_TASKS`.
pub fn check_task_count(count: u64) -> Result<(), String> {
    if count > MAX_TASKS {
        Err(format!("this plans {count} tasks, at most {MAX_TASKS} allowed (raise chunk, or ask for fewer values)"))
    } else {
        Ok(())
    }
}

/// The longest task id used as it is; a longer one is cut and made unique
/// by a hash (`bounded_id`), so that it stays a file name.
pub const MAX_ID: usize = 100;

/// A task's id as the orchestrator files it: the id itself when at most
/// `MAX_ID` characters, else its first 60 characters, `-h` and 16 hex digits
/// of its SHA-256 (stable, so resume still finds it).
pub fn bounded_id(id: &str) -> String {
    use sha2::Digest;
    if id.len() <= MAX_ID {
        return id.to_string();
    }
    let head: String = id.chars().take(60).collect();
    let hash: String = sha2::Sha256::digest(id.as_bytes()).iter().take(8).map(|b| format!("{b:02x}")).collect();
    format!("{head}-h{hash}")
}

/// A game's planned tasks of one type, as `Game::plan` returns them.
pub fn boxed<T: Task + 'static>(tasks: Vec<T>) -> Vec<Box<dyn Task>> {
    tasks.into_iter().map(|t| Box::new(t) as Box<dyn Task>).collect()
}

/// The memory hint of a task that gives none: above the peak RSS, with one
/// worker, of the shipped configs' tasks that give none
/// (docs/history.md#43701e3-memory-hints-for-cluster-requests).
pub const DEFAULT_MEMORY_HINT_MB: u64 = 512;

/// What a running task may ask of the orchestrator. A task is the unit of
/// resume, so a long one saves each finished step here: a rerun after a kill
/// loads the saved steps instead of computing them again. The orchestrator
/// drops a task's steps once the task is complete.
pub trait TaskContext: Inputs {
    /// Notes what the task has done so far (shown beside the progress bar).
    fn progress(&self, note: &str);
    /// Saves a finished step's tables, complete or not at all. `step` must be
    /// file-name safe (letters, digits, `-`, `_`, `.`, not starting with `.`).
    fn save_step(&self, step: &str, tables: &[Table]) -> anyhow::Result<()>;
    /// The tables, by name, of a step an earlier run of this task saved, or
    /// `None` if there is no complete step of that name.
    fn load_step(&self, step: &str) -> anyhow::Result<Option<BTreeMap<String, RecordBatch>>>;
}

/// A task's tables as read back from disk, with read access to its inputs'.
pub struct StoredTask<'a> {
    pub id: String,
    pub tables: BTreeMap<String, RecordBatch>,
    pub inputs: &'a dyn Inputs,
}

impl StoredTask<'_> {
    pub fn table(&self, name: &str) -> anyhow::Result<&RecordBatch> {
        self.tables.get(name).ok_or_else(|| anyhow::anyhow!("task {} has no table {name}", self.id))
    }
}

/// Outcome of the exact check of one task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The stored result is proven correct.
    Certified,
    /// Floating point was wrong and exact arithmetic corrected it: either at
    /// run time by the game's own exact stage, so the stored result is the
    /// corrected one (higher-lower: the float basis was not optimal and exact
    /// pivots repaired it; `exact_status` in `values` is "repaired"), or by
    /// `verify` itself, which then writes the `replacement` tables.
    Repaired,
    /// The stored result is wrong or unprovable and could not be repaired.
    Failed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Certified => "certified",
            Status::Repaired => "repaired",
            Status::Failed => "failed",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        [Status::Certified, Status::Repaired, Status::Failed].into_iter().find(|s| s.as_str() == text)
    }
}

/// The verification stage's finding for one task, with the corrected tables
/// when `verify` itself repaired it.
pub struct Verdict {
    pub status: Status,
    pub detail: String,
    pub replacement: Vec<Table>,
    /// Tables the exact check derived (for example exact values behind the
    /// stored floats), written next to the task's tables whatever the status.
    pub findings: Vec<Table>,
}

impl Verdict {
    pub fn certified(detail: impl Into<String>) -> Self {
        Verdict { status: Status::Certified, detail: detail.into(), replacement: Vec::new(), findings: Vec::new() }
    }
    pub fn failed(detail: impl Into<String>) -> Self {
        Verdict { status: Status::Failed, detail: detail.into(), replacement: Vec::new(), findings: Vec::new() }
    }
    pub fn repaired(detail: impl Into<String>, replacement: Vec<Table>) -> Self {
        Verdict { status: Status::Repaired, detail: detail.into(), replacement, findings: Vec::new() }
    }
    pub fn with_findings(mut self, findings: Vec<Table>) -> Self {
        self.findings = findings;
        self
    }
}

/// Read access to everything a run wrote, for reports: all parts of a table
/// concatenated.
pub trait Dataset {
    /// The rows of `DIR/<game>/<table>/`, or `None` if no part exists.
    fn table(&self, game: &str, table: &str) -> anyhow::Result<Option<RecordBatch>>;
}

/// A game that plugs into the pipeline.
pub trait Game: Send + Sync {
    /// Name of its config section and of its output directory.
    fn name(&self) -> &'static str;
    /// Expands the game's config section into tasks, in a stable order.
    fn plan(&self, section: &Section) -> Result<Vec<Box<dyn Task>>, UserError>;
    /// The game's section of the report: published numbers beside ours.
    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection>;
    /// The body of a config section small enough to run in seconds, with at
    /// least two tasks: the conformance test (tests/conformance.rs) runs it
    /// through plan, run, verify, report, rerun and resume for every game.
    fn tiny_config(&self) -> &'static str;
}
