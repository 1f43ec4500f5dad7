//! The orchestrator: expands a config into tasks, selects a shard, skips
//! finished tasks, runs the rest in parallel with a progress bar, keeps the
//! steps long tasks checkpoint, and writes each task's tables atomically
//! followed by its completion marker.
//!
//! It knows games only through the [`Game`] and [`Task`] traits.

use crate::artifacts::leases::{Acquisition, HEARTBEAT, Leases};
use crate::artifacts::manifest::{Manifest, RunRecord};
use crate::artifacts::steps::StepOf;
use crate::artifacts::{OutputDir, TaskProblem, TaskRecord, is_safe_name, unix_now};
use crate::config::ConfigFile;
use crate::error::UserError;
use crate::game::{Game, Inputs, Status, Table, Task, TaskContext, bounded_id, settings_text};
use crate::panics;
use arrow::record_batch::RecordBatch;
use indicatif::{ProgressBar, ProgressStyle};
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// `K/N`: run the tasks whose index in the plan is congruent to K modulo N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    pub fn contains(self, task_index: usize) -> bool {
        task_index % self.count == self.index
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let (k, n) = text.split_once('/').ok_or_else(|| format!("expected K/N (for example 0/4), got {text:?}"))?;
        let index =
            k.trim().parse::<usize>().map_err(|_| format!("shard index {k:?} is not a non-negative integer"))?;
        let count = n.trim().parse::<usize>().map_err(|_| format!("shard count {n:?} is not a positive integer"))?;
        if count == 0 {
            return Err("shard count must be at least 1".into());
        }
        if index >= count {
            return Err(format!(
                "shard index {index} must be below the shard count {count} (allowed: 0 to {})",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A task with the game it belongs to and its position in the plan.
pub struct PlannedTask<'g> {
    pub game: &'g dyn Game,
    pub task: Box<dyn Task>,
    pub id: String,
    pub index: usize,
}

/// Expands every game section of `config` into tasks, in a stable order
/// (games in registry order, then each game's own order).
pub fn plan<'g>(games: &'g [Box<dyn Game>], config: &ConfigFile) -> Result<Vec<PlannedTask<'g>>, UserError> {
    let names: Vec<&str> = games.iter().map(|g| g.name()).collect();
    config.check_keys(&names)?;
    let mut planned = Vec::new();
    for game in games {
        let Some(section) = config.section(game.name()) else { continue };
        let mut seen = HashSet::new();
        for task in game.plan(&section)? {
            let id = bounded_id(&task.id());
            // Games reject repeated values with their position; these guard the
            // orchestrator's own invariants should a game miss one.
            if !is_safe_name(&id) || !seen.insert(id.clone()) {
                let problem = if seen.contains(&id) { "twice (a value is repeated)" } else { "with an unsafe id" };
                return Err(UserError::new(format!(
                    "{}: [{}] plans task {id:?} {problem}; remove the repeated value",
                    config.path.display(),
                    game.name()
                )));
            }
            planned.push(PlannedTask { game: game.as_ref(), task, id, index: planned.len() });
        }
    }
    if let Err(why) = crate::game::check_task_count(planned.len() as u64) {
        return Err(UserError::new(format!("{}: {why}", config.path.display())));
    }
    if planned.is_empty() {
        let present: Vec<String> =
            names.iter().filter(|name| config.section(name).is_some()).map(|name| format!("[{name}]")).collect();
        return Err(UserError::new(if present.is_empty() {
            format!(
                "{}: no tasks: the config has no game section (expected one of {})",
                config.path.display(),
                names.join(", ")
            )
        } else {
            format!(
                "{}: no tasks: {} turns nothing on (configs/ shows each game's keys)",
                config.path.display(),
                present.join(", ")
            )
        }));
    }
    Ok(planned)
}

pub struct RunOptions {
    /// Output directory; defaults to the config's `output` or `data/<config name>`.
    pub out: Option<PathBuf>,
    pub shard: Shard,
    /// Worker threads; defaults to all cores.
    pub jobs: Option<usize>,
    /// Recompute tasks that are already done, ignoring steps saved by earlier runs.
    pub force: bool,
    /// Recompute the finished tasks whose settings (`Task::settings`) the config changed.
    pub redo_changed: bool,
}

pub struct RunSummary {
    pub out: PathBuf,
    pub planned: usize,
    pub ran: usize,
    pub skipped: usize,
    /// Tasks another run on the same directory computed while this one ran.
    pub elsewhere: usize,
    /// Every task that failed, with its error.
    pub failed: Vec<TaskProblem>,
    pub wall: Duration,
}

/// The output directory a run writes to.
pub fn output_dir(config: &ConfigFile, out: Option<&Path>) -> PathBuf {
    out.map(Path::to_path_buf).or_else(|| config.output.clone()).unwrap_or_else(|| {
        let stem = config.path.file_stem().map_or("run".into(), |s| s.to_string_lossy().into_owned());
        PathBuf::from("data").join(stem)
    })
}

/// The state of a task's result on disk: whether a rerun can skip it.
enum TaskState {
    /// Marker readable, every part intact, and `verify` has not failed it.
    Done,
    /// Never finished: computed without comment.
    Absent,
    /// Finished once but damaged or failed by `verify`: recomputed, saying why.
    Damaged(String),
}

/// Checks what a rerun would skip: the marker, every part's size and
/// checksum, and the last verification.
fn task_state(out: &OutputDir, game: &str, id: &str) -> TaskState {
    match out.marker(game, id) {
        Ok(None) => TaskState::Absent,
        Err(why) => TaskState::Damaged(why),
        Ok(Some(record)) => match (out.check_parts(&record), out.verification(game, id)) {
            (Err(why), _) => TaskState::Damaged(why),
            (Ok(()), Some((Status::Failed, detail))) => {
                TaskState::Damaged(format!("`gamesweep verify` failed it ({})", shorten(&detail, 160)))
            }
            (Ok(()), _) => TaskState::Done,
        },
    }
}

/// `text` cut to about `max` characters, for one-line messages.
fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

/// How often a run looks again at tasks another process holds.
const POLL: Duration = Duration::from_millis(500);

/// Runs a config file. Bad input is detected before anything is written.
pub fn run(games: &[Box<dyn Game>], config_path: &Path, options: &RunOptions) -> anyhow::Result<RunSummary> {
    run_config(games, &ConfigFile::load(config_path)?, options)
}

/// Runs a config (from a file, or written by a command such as `gamesweep
/// conjecture`): planned and stored under DIR/.configs/ before anything is
/// computed, like a file's.
pub fn run_config(games: &[Box<dyn Game>], config: &ConfigFile, options: &RunOptions) -> anyhow::Result<RunSummary> {
    let started = Instant::now();
    let started_unix = unix_now();
    let planned = plan(games, config)?;
    let out_path = output_dir(config, options.out.as_deref());
    let out = OutputDir::create(&out_path)?;
    out.write_config(&config.sha256, config.text())?;

    let in_shard: Vec<&PlannedTask> = planned.iter().filter(|t| options.shard.contains(t.index)).collect();
    let (todo, changed) = to_compute(&out, &in_shard, options)?;
    if !changed.is_empty() {
        eprintln!("{}", changed_note(&changed, config, &out_path, options.redo_changed));
    }
    let skipped = in_shard.len() - todo.len();
    let jobs = options.jobs.unwrap_or_else(rayon::current_num_threads);
    eprintln!(
        "gamesweep: {} tasks in {} (shard {}: {}, already done: {skipped}), {jobs} threads, output {}",
        planned.len(),
        config.path.display(),
        options.shard,
        in_shard.len(),
        out_path.display()
    );
    let record = RunRecord {
        config_path: config.path.display().to_string(),
        config_sha256: config.sha256.clone(),
        shard: options.shard.to_string(),
        jobs,
        started_unix,
        wall_seconds: 0.0,
        tasks_planned: planned.len(),
        tasks_ran: 0,
        tasks_skipped: skipped,
        tasks_failed: 0,
    };
    let execution = Execution::new(&out, &config.sha256, options.force, todo, record, started);
    execution.run(jobs)?;
    let (record, failed) = execution.finish();
    Manifest::update(&out, &record)?;
    Ok(RunSummary {
        out: out_path,
        planned: planned.len(),
        ran: record.tasks_ran,
        skipped,
        elsewhere: record.tasks_skipped - skipped,
        failed,
        wall: started.elapsed(),
    })
}

/// A finished task ("game/id") whose settings the config changed.
struct Changed {
    task: String,
    settings: Vec<ChangedSetting>,
}

/// A setting recorded in a task's marker that the plan now sets otherwise.
struct ChangedSetting {
    key: String,
    was: String,
    now: String,
}

/// The tasks of the shard to compute, longest first: those not done (or all
/// with `force`; or done under settings the config changed, with
/// `redo_changed`), and the done tasks whose settings changed. The steps of
/// a done task are removed: they are never read again, and a kill between
/// its marker and their removal leaves them.
fn to_compute<'a, 'g>(
    out: &OutputDir,
    in_shard: &[&'a PlannedTask<'g>],
    options: &RunOptions,
) -> anyhow::Result<(Vec<&'a PlannedTask<'g>>, Vec<Changed>)> {
    let (mut todo, mut changed) = (Vec::new(), Vec::new());
    for &task in in_shard {
        match task_state(out, task.game.name(), &task.id) {
            TaskState::Done if !options.force => {
                let keys = out
                    .marker(task.game.name(), &task.id)
                    .ok()
                    .flatten()
                    .map_or(Vec::new(), |record| changed_settings(&record.settings, &task.task.settings()));
                if keys.is_empty() {
                    out.remove_steps(task.game.name(), &task.id)?;
                } else {
                    if options.redo_changed {
                        todo.push(task);
                    }
                    changed.push(Changed { task: format!("{}/{}", task.game.name(), task.id), settings: keys });
                }
            }
            TaskState::Done | TaskState::Absent => todo.push(task),
            TaskState::Damaged(why) => {
                eprintln!("recomputing {}/{}: {why}", task.game.name(), task.id);
                todo.push(task);
            }
        }
    }
    // Tasks that read other tasks' tables after all others; then longest
    // first (stable, so equal hints keep the plan's order): with a shared
    // queue this bounds the wall time by the total work / jobs plus one
    // task, instead of leaving a long task for last.
    todo.sort_by(|a, b| {
        let reads = |t: &PlannedTask| !t.task.inputs().is_empty();
        reads(a).cmp(&reads(b)).then(b.task.cost_hint().total_cmp(&a.task.cost_hint()))
    });
    Ok((todo, changed))
}

/// Each setting recorded in a marker that the plan now sets otherwise; a
/// key the marker lacks (written before settings were recorded) is unknown,
/// not changed.
fn changed_settings(
    stored: &BTreeMap<String, String>,
    planned: &BTreeMap<&'static str, String>,
) -> Vec<ChangedSetting> {
    planned
        .iter()
        .filter_map(|(&key, now)| {
            let was = stored.get(key)?;
            (was != now).then(|| ChangedSetting { key: key.to_string(), was: was.clone(), now: now.clone() })
        })
        .collect()
}

/// One line on the finished tasks whose settings the config changed: which
/// tasks, which keys, and what recomputes them (or that this run does).
fn changed_note(changed: &[Changed], config: &ConfigFile, out: &Path, redone: bool) -> String {
    const SHOWN: usize = 4;
    let mut tasks: Vec<String> = changed
        .iter()
        .take(SHOWN)
        .map(|changed| {
            let keys: Vec<String> = changed
                .settings
                .iter()
                .map(|s| format!("{} {} -> {}", s.key, shorten(&s.was, 60), shorten(&s.now, 60)))
                .collect();
            format!("{} ({})", changed.task, keys.join(", "))
        })
        .collect();
    if changed.len() > SHOWN {
        tasks.push(format!("and {} more", changed.len() - SHOWN));
    }
    let what = format!("the config changes settings of {} finished task(s): {}", changed.len(), tasks.join(", "));
    if redone {
        format!("gamesweep: {what}; recomputing them (--redo-changed)")
    } else {
        format!(
            "gamesweep: {what}; they are kept as they were computed. To recompute them: gamesweep run {} --out {} --redo-changed",
            config.path.display(),
            out.display()
        )
    }
}

/// What the worker threads of one run share: a queue of tasks taken in
/// order, the leases of this process, the progress bar and the counts.
struct Execution<'a, 'g> {
    out: &'a OutputDir,
    config_sha256: &'a str,
    force: bool,
    todo: Vec<&'a PlannedTask<'g>>,
    /// The markers of the tasks to compute as they were before this run, to
    /// tell a marker a concurrent run wrote meanwhile from an old one.
    before: HashMap<(&'a str, &'a str), Option<TaskRecord>>,
    /// The index in `todo` of the next task to take.
    next: AtomicUsize,
    /// Tasks another process held when their turn came, or whose inputs were
    /// not done yet, looked at again once the queue is empty.
    held: Mutex<Vec<&'a PlannedTask<'g>>>,
    /// (game, id) of the tasks of `todo` this run has not finished (done or failed).
    unfinished: Mutex<HashSet<(String, String)>>,
    leases: Leases<'a>,
    progress: ProgressBar,
    /// This run's record as it started; `record` adds the counts so far.
    start_record: RunRecord,
    started: Instant,
    ran: AtomicUsize,
    /// Tasks a concurrent run finished before this one took them.
    elsewhere: AtomicUsize,
    failed: Mutex<Vec<TaskProblem>>,
    last_manifest: Mutex<Instant>,
}

impl<'a, 'g> Execution<'a, 'g> {
    fn new(
        out: &'a OutputDir,
        config_sha256: &'a str,
        force: bool,
        todo: Vec<&'a PlannedTask<'g>>,
        start_record: RunRecord,
        started: Instant,
    ) -> Self {
        let before = todo
            .iter()
            .map(|task| ((task.game.name(), task.id.as_str()), out.marker(task.game.name(), &task.id).ok().flatten()))
            .collect();
        Execution {
            out,
            config_sha256,
            force,
            before,
            next: AtomicUsize::new(0),
            held: Mutex::new(Vec::new()),
            unfinished: Mutex::new(todo.iter().map(|t| (t.game.name().to_string(), t.id.clone())).collect()),
            leases: Leases::new(out),
            progress: progress_bar(todo.len() as u64),
            todo,
            start_record,
            started,
            ran: AtomicUsize::new(0),
            elsewhere: AtomicUsize::new(0),
            failed: Mutex::new(Vec::new()),
            last_manifest: Mutex::new(Instant::now()),
        }
    }

    /// Runs every task on `jobs` workers of a rayon pool, with a heartbeat
    /// thread renewing this run's leases until the workers are done.
    fn run(&self, jobs: usize) -> anyhow::Result<()> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
        let finished = AtomicBool::new(false);
        std::thread::scope(|threads| {
            threads.spawn(|| {
                let mut last = Instant::now();
                while !finished.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    if last.elapsed() >= HEARTBEAT {
                        self.leases.beat();
                        last = Instant::now();
                    }
                }
            });
            pool.scope(|scope| {
                for _ in 0..jobs {
                    scope.spawn(|_| self.work());
                }
            });
            finished.store(true, Ordering::Relaxed);
        });
        self.progress.finish_and_clear();
        Ok(())
    }

    /// One worker: takes the next task of the queue in order, then waits for
    /// the held tasks: done by their holder, or taken over when it dies.
    fn work(&self) {
        while let Some(&planned) = self.todo.get(self.next.fetch_add(1, Ordering::Relaxed)) {
            if !self.attempt(planned) {
                if self.inputs_ready(planned) == Ok(true) {
                    self.progress.suspend(|| {
                        eprintln!("waiting for {}/{}: another run computes it", planned.game.name(), planned.id)
                    });
                }
                self.held.lock().unwrap().push(planned);
            }
        }
        loop {
            let Some(planned) = self.held.lock().unwrap().pop() else { break };
            if !self.attempt(planned) {
                self.held.lock().unwrap().insert(0, planned);
                std::thread::sleep(POLL);
            }
        }
    }

    /// Whether the task's inputs are done: `Ok(false)` while one is still
    /// to be computed (by this run or a live other one), `Err` when one
    /// cannot be (not planned here, failed, or damaged).
    fn inputs_ready(&self, planned: &PlannedTask) -> Result<bool, String> {
        let game = planned.game.name();
        for input in planned.task.inputs().iter().map(|id| bounded_id(id)) {
            match task_state(self.out, game, &input) {
                TaskState::Done => continue,
                _ if self.unfinished.lock().unwrap().contains(&(game.to_string(), input.clone())) => return Ok(false),
                _ if self.leases.held_by_anyone(game, &input) => return Ok(false),
                TaskState::Absent => {
                    return Err(format!("it reads {game}/{input}, which is not done (run the config that plans it)"));
                }
                TaskState::Damaged(why) => return Err(format!("it reads {game}/{input}, which is damaged: {why}")),
            }
        }
        Ok(true)
    }

    /// Takes the lease of one task and computes it; `false` if another live process holds
    /// it or its inputs are not done yet.
    fn attempt(&self, planned: &PlannedTask) -> bool {
        match self.inputs_ready(planned) {
            Ok(false) => return false,
            Ok(true) => match self.leases.acquire(planned.game.name(), &planned.id) {
                Ok(Acquisition::Acquired) => self.compute(planned),
                Ok(Acquisition::HeldBy(_)) => return false,
                Err(error) => self.fail(planned, &error),
            },
            Err(why) => self.fail(planned, &anyhow::anyhow!(why)),
        }
        self.unfinished.lock().unwrap().remove(&(planned.game.name().to_string(), planned.id.clone()));
        self.progress.inc(1);
        // Keep the manifest roughly current during long sweeps.
        let mut last = self.last_manifest.lock().unwrap();
        if last.elapsed() > Duration::from_secs(10) {
            *last = Instant::now();
            if let Err(error) = Manifest::update(self.out, &self.record()) {
                self.progress.suspend(|| eprintln!("warning: manifest not updated: {error:#}"));
            }
        }
        true
    }

    /// Computes a leased task, unless a concurrent run finished it meanwhile.
    fn compute(&self, planned: &PlannedTask) {
        let game = planned.game.name();
        let done_meanwhile = matches!(task_state(self.out, game, &planned.id), TaskState::Done)
            && self.out.marker(game, &planned.id).ok().flatten() != self.before[&(game, planned.id.as_str())];
        if done_meanwhile {
            self.leases.release(game, &planned.id);
            self.elsewhere.fetch_add(1, Ordering::Relaxed);
            self.progress.suspend(|| eprintln!("skipped {game}/{}: another run finished it", planned.id));
            return;
        }
        self.progress.set_message(format!("{game} {}", planned.id));
        let start = Instant::now();
        let result = run_task(self.out, planned, self.config_sha256, &self.progress, self.force);
        self.leases.release(game, &planned.id);
        match result {
            Ok(resumed) => {
                self.ran.fetch_add(1, Ordering::Relaxed);
                if self.progress.is_hidden() {
                    let resumed =
                        if resumed > 0 { format!(", resumed from {resumed} saved steps") } else { String::new() };
                    eprintln!("done {game}/{} in {:.2}s{resumed}", planned.id, start.elapsed().as_secs_f64());
                }
            }
            Err(error) => {
                if let Err(e) = self.out.write_failure(game, &planned.id, &format!("{error:#}")) {
                    self.progress
                        .suspend(|| eprintln!("warning: failure of {game}/{} not recorded: {e:#}", planned.id));
                }
                self.fail(planned, &error);
            }
        }
    }

    fn fail(&self, planned: &PlannedTask, error: &anyhow::Error) {
        let game = planned.game.name();
        self.progress.suspend(|| eprintln!("FAILED {game}/{}: {error:#}", planned.id));
        self.failed.lock().unwrap().push(TaskProblem::new(game, &planned.id, format!("{error:#}")));
    }

    /// The run's record with the counts so far.
    fn record(&self) -> RunRecord {
        RunRecord {
            wall_seconds: self.started.elapsed().as_secs_f64(),
            tasks_ran: self.ran.load(Ordering::Relaxed),
            tasks_skipped: self.start_record.tasks_skipped + self.elsewhere.load(Ordering::Relaxed),
            tasks_failed: self.failed.lock().unwrap().len(),
            ..self.start_record.clone()
        }
    }

    /// Releases this run's leases; the final record and the failures.
    fn finish(self) -> (RunRecord, Vec<TaskProblem>) {
        let record = self.record();
        (record, self.failed.into_inner().unwrap())
    }
}

/// Computes one task and writes its tables, then its marker, then drops the
/// steps it saved on the way; returns how many saved steps it loaded. An
/// earlier marker of the task (damaged, or --force) is removed just before
/// the new parts are written, so the task counts as done only once they are
/// all in place (and a kill while computing leaves an intact old result
/// done). `force` ignores steps of an earlier run.
fn run_task(
    out: &OutputDir,
    planned: &PlannedTask,
    config_sha256: &str,
    bar: &ProgressBar,
    force: bool,
) -> anyhow::Result<usize> {
    let start = Instant::now();
    let game = planned.game.name();
    if force {
        out.remove_steps(game, &planned.id)?;
    }
    let settings = settings_text(&planned.task.settings());
    let context = RunningTask {
        out,
        step_of: StepOf { game, task: &planned.id, settings: &settings },
        bar,
        last_line: Cell::new(Instant::now()),
        resumed: Cell::new(0),
    };
    let tables =
        panics::catching(|| planned.task.run(&context)).map_err(|panic| anyhow::anyhow!("panicked: {panic}"))??;
    let seconds = start.elapsed().as_secs_f64();
    out.remove_marker(game, &planned.id)?;
    let mut parts = BTreeMap::new();
    for table in &tables {
        if !parts.contains_key(table.name) {
            let batches: Vec<&RecordBatch> = tables.iter().filter(|t| t.name == table.name).map(|t| &t.batch).collect();
            parts.insert(table.name.to_string(), out.write_part(game, &planned.id, table.name, &batches)?);
        }
    }
    out.remove_other_parts(game, &planned.id, &tables.iter().map(|t| t.name).collect())?;
    out.write_marker(&TaskRecord {
        game: game.to_string(),
        id: planned.id.clone(),
        tables: parts,
        seconds,
        finished_unix: unix_now(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        config_sha256: config_sha256.to_string(),
        settings: planned.task.settings().into_iter().map(|(key, value)| (key.to_string(), value)).collect(),
    })?;
    // The task is done, so its steps can never be read again; a failure to
    // remove them leaves only hidden files behind.
    if let Err(error) = out.remove_steps(game, &planned.id) {
        bar.suspend(|| eprintln!("warning: steps of {game}/{} not removed: {error:#}", planned.id));
    }
    Ok(context.resumed.get())
}

/// The orchestrator's side of [`TaskContext`] for one running task.
struct RunningTask<'a> {
    out: &'a OutputDir,
    /// The task, under its settings, whose steps it saves and loads.
    step_of: StepOf<'a>,
    bar: &'a ProgressBar,
    /// When a progress line was last printed (without a terminal).
    last_line: Cell<Instant>,
    /// Steps loaded from an earlier run.
    resumed: Cell<usize>,
}

impl Inputs for RunningTask<'_> {
    fn input(&self, task: &str, table: &str) -> anyhow::Result<RecordBatch> {
        self.out.read_finished_table(self.step_of.game, &bounded_id(task), table).map_err(anyhow::Error::msg)
    }
}

impl TaskContext for RunningTask<'_> {
    /// The bar's message, or (without a terminal) a line at most every 30 s.
    fn progress(&self, note: &str) {
        let message = format!("{} {}: {note}", self.step_of.game, self.step_of.task);
        if self.bar.is_hidden() {
            if self.last_line.get().elapsed() > Duration::from_secs(30) {
                self.last_line.set(Instant::now());
                eprintln!("{message}");
            }
        } else {
            self.bar.set_message(message);
        }
    }

    fn save_step(&self, step: &str, tables: &[Table]) -> anyhow::Result<()> {
        self.out.write_step(self.step_of, step, tables)
    }

    /// A damaged step is discarded with a warning and computed again.
    fn load_step(&self, step: &str) -> anyhow::Result<Option<BTreeMap<String, RecordBatch>>> {
        let (game, task) = (self.step_of.game, self.step_of.task);
        let loaded = match self.out.read_step(self.step_of, step) {
            Ok(loaded) => loaded,
            Err(error) => {
                self.bar.suspend(|| {
                    eprintln!("warning: {game}/{task}: discarding damaged step {step} ({error:#}); computing it again")
                });
                self.out.remove_step(game, task, step)?;
                None
            }
        };
        self.resumed.set(self.resumed.get() + usize::from(loaded.is_some()));
        Ok(loaded)
    }
}

/// A bar with tasks done / total, elapsed, ETA and the task in progress; hidden
/// when stderr is not a terminal (logs then get one line per task).
pub(crate) fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:32.cyan/blue} {pos}/{len} tasks, ETA {eta} | {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifacts::columns::{Columns, TableBuilder};
    use crate::config::Section;
    use crate::game::{Dataset, ReportSection, StoredTask, Verdict};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// What the test sets and sees of the `stepper` game's one task.
    #[derive(Default)]
    struct Script {
        /// Fail after the second step, as a kill would stop the task.
        fail: AtomicBool,
        /// The steps the task computed (not loaded).
        computed: Mutex<Vec<u32>>,
    }

    /// A game with one task of three steps; its table holds every step's rows.
    struct Stepper(Arc<Script>);
    struct StepperTask(Arc<Script>);

    impl Task for StepperTask {
        fn id(&self) -> String {
            "t".into()
        }
        fn run(&self, context: &dyn TaskContext) -> anyhow::Result<Vec<Table>> {
            let mut batches = Vec::new();
            for k in 1..=3u32 {
                let step = format!("s{k}");
                let batch = match context.load_step(&step)? {
                    Some(mut saved) => saved.remove("k").unwrap(),
                    None => {
                        self.0.computed.lock().unwrap().push(k);
                        let table = TableBuilder::new().u32("k", [k]).build("k")?;
                        context.save_step(&step, std::slice::from_ref(&table))?;
                        table.batch
                    }
                };
                batches.push(batch);
                anyhow::ensure!(!(k == 2 && self.0.fail.load(Ordering::Relaxed)), "stopped after step 2");
            }
            let batch = arrow::compute::concat_batches(&batches[0].schema(), &batches)?;
            Ok(vec![Table { name: "k", batch }])
        }
        fn verify(&self, _stored: &StoredTask) -> anyhow::Result<Verdict> {
            unreachable!("not verified")
        }
    }

    impl Game for Stepper {
        fn name(&self) -> &'static str {
            "stepper"
        }
        fn plan(&self, _section: &Section) -> Result<Vec<Box<dyn Task>>, UserError> {
            Ok(vec![Box::new(StepperTask(self.0.clone()))])
        }
        fn report(&self, _data: &dyn Dataset) -> anyhow::Result<ReportSection> {
            unreachable!("not reported")
        }
        fn tiny_config(&self) -> &'static str {
            ""
        }
    }

    #[test]
    fn saves_steps_resumes_after_the_last_and_drops_them_when_done() {
        let root = std::env::temp_dir().join(format!("gamesweep-sweep-steps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        let config = root.join("steps.toml");
        std::fs::write(&config, "[stepper]\n").unwrap();
        let script = Arc::new(Script::default());
        let games: Vec<Box<dyn Game>> = vec![Box::new(Stepper(script.clone()))];
        let out = root.join("out");
        let steps = out.join(".steps/stepper/t");
        let run_with = |fail: bool, force: bool| {
            script.fail.store(fail, Ordering::Relaxed);
            script.computed.lock().unwrap().clear();
            let options =
                RunOptions { out: Some(out.clone()), shard: Shard::ALL, jobs: Some(1), force, redo_changed: false };
            let summary = run(&games, &config, &options).unwrap();
            (summary.failed.len(), std::mem::take(&mut *script.computed.lock().unwrap()))
        };
        let rows =
            || OutputDir::open(&out).unwrap().read_table("stepper", "k", "t").unwrap().u32s("k").unwrap().clone();

        // Stopped after two steps: no marker, both steps kept.
        assert_eq!(run_with(true, false), (1, vec![1, 2]));
        assert!(!out.join(".tasks/stepper/t.json").exists());
        assert!(steps.join("s1.step").exists() && steps.join("s2.step").exists());
        // The rerun loads them and computes the third; done, the steps go.
        assert_eq!(run_with(false, false), (0, vec![3]));
        assert_eq!(rows().values().to_vec(), vec![1, 2, 3]);
        assert!(out.join(".tasks/stepper/t.json").exists());
        assert!(!steps.exists());

        // A killed --force rerun leaves steps of a done task: a plain run drops them.
        assert_eq!(run_with(true, true), (1, vec![1, 2]));
        assert!(steps.join("s2.step").exists());
        assert_eq!(run_with(false, false), (0, vec![]));
        assert!(!steps.exists());
        // --force ignores and clears steps an earlier run left behind.
        assert_eq!(run_with(true, true), (1, vec![1, 2]));
        assert_eq!(run_with(false, true), (0, vec![1, 2, 3]));
        assert_eq!(rows().values().to_vec(), vec![1, 2, 3]);
        assert!(!steps.exists());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn parses_shards() {
        assert_eq!("1/3".parse::<Shard>().unwrap(), Shard { index: 1, count: 3 });
        assert!("3/2".parse::<Shard>().unwrap_err().contains("must be below the shard count 2"));
        assert!("1/0".parse::<Shard>().unwrap_err().contains("at least 1"));
        assert!("x/2".parse::<Shard>().is_err());
        assert!("2".parse::<Shard>().unwrap_err().contains("K/N"));
        let shards: Vec<Shard> = (0..3).map(|k| Shard { index: k, count: 3 }).collect();
        for task in 0..10 {
            assert_eq!(shards.iter().filter(|s| s.contains(task)).count(), 1);
        }
    }
}
