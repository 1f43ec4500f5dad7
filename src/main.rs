//! The `gamesweep` command line. Exit codes: 0 success, 1 a task or check
//! failed (or an internal error), 2 bad input.

use clap::{Parser, Subcommand};
use gamesweep::config::ConfigFile;
use gamesweep::error::UserError;
use gamesweep::export::{Format, NotAllChecked, Unchecked};
use gamesweep::game::{Game, Status};
use gamesweep::games;
use gamesweep::games::fritzen::query::FritzenQuery;
use gamesweep::games::higher_lower::conjecture_command::ConjectureArgs;
use gamesweep::games::risk::query::RiskQuery;
use gamesweep::sweep::{RunOptions, Shard};
use gamesweep::verify::Finding;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// mimalloc instead of glibc's malloc: the exact stages build and drop
/// millions of small big integers, and glibc spent a large share of the exact
/// stage consolidating and freeing them (`perf`); mimalloc makes the exact
/// stage faster and leaves the float solve as it was
/// (docs/history.md#64d1988-mimalloc-as-the-allocator).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc.h (v2 and v3; the bindings name it in
/// neither). By default mimalloc hands freed memory back to the OS shortly
/// after it is freed, and the sweep allocates it again at once: on the hard
/// chain 993..1024 the kernel spent most of the system time zeroing fresh
/// pages (`perf`: `clear_page_erms` under page faults), little with purging
/// off. The price: the peak RSS is the peak of what was allocated
/// (docs/history.md#7371c13-the-box-doubles-when-the-centre-stalls-freed-memory-is-kept).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

#[derive(Parser)]
#[command(
    name = "gamesweep",
    version,
    about = "Solve games from published work exactly, sweep their parameters, write Parquet, verify exactly.",
    long_about = "Solve games from published work exactly, sweep their parameters in parallel, write every \
                  result as Parquet under DIR/<game>/<table>/part-<task>.parquet, and verify the results in \
                  exact arithmetic.\n\nTypical use:\n  gamesweep run configs/quick.toml\n  gamesweep verify \
                  data/quick\n  gamesweep report data/quick"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a sweep config: compute every task not yet done and write its tables.
    ///
    /// Finished tasks are skipped, so rerunning after a crash or kill resumes
    /// the sweep. Parts are written atomically; a task is done once its marker
    /// under DIR/.tasks/ exists. A long task saves its finished steps under
    /// DIR/.steps/ and a rerun resumes it after the last one.
    Run {
        /// The TOML config (see configs/).
        config: PathBuf,
        /// Output directory [default: the config's `output`, else data/<config name>].
        #[arg(long)]
        out: Option<PathBuf>,
        /// Run only the tasks whose index is K modulo N (for job arrays; see scripts/slurm-sweep.sh).
        #[arg(long, value_name = "K/N", default_value = "0/1")]
        shard: Shard,
        /// Worker threads [default: all cores].
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
        jobs: Option<u16>,
        /// Recompute tasks that are already done, ignoring their saved steps.
        #[arg(long)]
        force: bool,
        /// Recompute the finished tasks whose settings the config changed
        /// (e.g. higher-lower `tolerance`, a claim's `statement`); a plain
        /// rerun names them and keeps them as they were computed.
        #[arg(long)]
        redo_changed: bool,
    },
    /// Re-derive every finished task in DIR in exact arithmetic.
    ///
    /// Writes DIR/<game>/verification/ rows (task_id, status, detail) with
    /// status certified, repaired or failed; exits with 1 if any failed.
    Verify {
        /// Output directory of a run.
        dir: PathBuf,
        /// Worker threads [default: all cores].
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
        jobs: Option<u16>,
    },
    /// List a config's tasks without running them: index, game, task id, cost
    /// hint and memory estimate, tab-separated with a header line.
    ///
    /// The index is what --shard K/N selects by (index modulo N = K), so
    /// `--shard` here lists exactly the tasks one array task runs.
    /// scripts/slurm-sweep.sh sizes its job array and memory request from it.
    Plan {
        /// The TOML config (see configs/).
        config: PathBuf,
        /// List only the tasks of this shard.
        #[arg(long, value_name = "K/N", default_value = "0/1")]
        shard: Shard,
    },
    /// Write DIR/report/index.md: the published numbers beside ours.
    Report {
        /// Output directory of a run.
        dir: PathBuf,
        /// Also write every figure as SVG beside its PNG (DIR/report/figures/<name>.svg).
        #[arg(long)]
        svg: bool,
    },
    /// Write DIR's checked rows to OUTDIR: one file per table, with provenance.
    ///
    /// Only the rows of checked tasks (parts intact, last `verify` verdict
    /// certified or repaired; docs/tables.md#checked-rows), sorted by key, exact
    /// "p/q" strings kept, into OUTDIR/<game>/<table>.parquet (or .csv with a
    /// .csv.json beside it). Each file records the configs (hash and text), the
    /// program's version and commit, when `verify` last ran, and what was left
    /// out and why. --format oeis writes OUTDIR/b286676.txt and b286677.txt:
    /// higher-lower's exact V(N) as OEIS b-files, up to the first N without a
    /// checked value. A task that is not checked stops the export (exit 1,
    /// naming it) unless --leave-out.
    Export {
        /// Output directory of a run.
        dir: PathBuf,
        /// Where to write the files (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// File format.
        #[arg(long, value_enum, default_value = "parquet")]
        format: gamesweep::export::Format,
        /// Leave out the tasks that are not checked (never verified, failed by
        /// verify, or changed since they were written) and say which.
        #[arg(long)]
        leave_out: bool,
    },
    /// Higher-lower: decide a new claim about Alice's optimal strategies on a finished sweep.
    ///
    /// The claim is a linear statement about Alice's probabilities a[1..N] at
    /// each N, decided over every optimal strategy of hers from the stored
    /// solutions, without solving any game again: "holds for every optimal
    /// alpha", "fails for every optimal alpha" (both with exact proofs) or
    /// "depends on the optimal alpha" (two exact optimal witnesses). Its rows
    /// join DIR's conjectures tables; `gamesweep verify DIR` re-proves them and
    /// `gamesweep report DIR` lists them. Rerunning the same command after a
    /// kill resumes it.
    ///
    /// The claim language (grammar, precedence, limits, every verdict):
    /// docs/claims.md#the-language.
    ///
    /// Examples:
    ///   gamesweep conjecture data/higher-lower --name a2_eq_a3_plus_a4 'a[2] = a[3] + a[4]' --from 5
    ///   gamesweep conjecture data/higher-lower --name middle_dip 'a[N/2] < a[N/2-1] and a[N/2] < a[N/2+1]' --from 6
    ///   gamesweep conjecture data/higher-lower --name outer_keys 'a[1] >= 2/N and a[N] >= 2/N' --when 'N % 2 == 1'
    ///   gamesweep conjecture data/higher-lower --name non_increasing 'for j in 2..N/4-1: a[j] >= a[j+1]' --n 100..300
    #[command(verbatim_doc_comment)]
    Conjecture(ConjectureArgs),
    /// Fritzen: advice for a throw (the best dice to set aside, normal turn or street).
    #[command(subcommand)]
    Fritzen(FritzenQuery),
    /// Risk defender dice: the long-run rule, battle odds, advice for a roll.
    #[command(subcommand)]
    Risk(RiskQuery),
}

fn main() -> ExitCode {
    // SAFETY: sets an option's value, which mimalloc reads when it would purge.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
    gamesweep::panics::install_hook();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if error.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            match std::env::args().nth(1) {
                Some(command) => eprintln!("error: {command}: which one? (see gamesweep {command} --help)"),
                None => eprintln!(
                    "error: no command given: one of run, verify, report, export, plan, conjecture, fritzen, risk (see --help)"
                ),
            }
            return ExitCode::from(2);
        }
        Err(error) if !error.use_stderr() => {
            // --help and --version.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("{} (see --help)", one_line(&error.render().to_string()));
            return ExitCode::from(2);
        }
    };
    match execute(cli.command) {
        Ok(code) => code,
        Err(error) => match error.downcast_ref::<UserError>() {
            Some(user) => {
                eprintln!("error: {user}");
                ExitCode::from(2)
            }
            None => {
                eprintln!("error: {error:#}");
                ExitCode::FAILURE
            }
        },
    }
}

/// clap's message in one line: its first line (the argument and the bad
/// value) with the indented lines that complete it (the missing argument,
/// the possible values), without the usage and help hints.
fn one_line(rendered: &str) -> String {
    let mut lines = rendered.lines().filter(|l| !l.trim().is_empty());
    let mut text = lines.next().unwrap_or("error: bad arguments").trim_end().to_string();
    for line in lines.take_while(|l| l.starts_with(' ') || l.starts_with('\t')) {
        let line = line.trim();
        if !line.is_empty() {
            text.push(' ');
            text.push_str(line);
        }
    }
    text
}

fn execute(command: Command) -> anyhow::Result<ExitCode> {
    let games = games::all();
    match command {
        Command::Run { config, out, shard, jobs, force, redo_changed } => {
            run(&games, &config, RunOptions { out, shard, jobs: jobs.map(usize::from), force, redo_changed })
        }
        Command::Verify { dir, jobs } => verify(&games, &dir, jobs.map(usize::from)),
        Command::Plan { config, shard } => plan(&games, &config, shard),
        Command::Report { dir, svg } => {
            let path = gamesweep::report::report(&games, &dir, gamesweep::report::ReportOptions { svg })?;
            println!("{}", path.display());
            Ok(ExitCode::SUCCESS)
        }
        Command::Export { dir, out, format, leave_out } => {
            let unchecked = if leave_out { Unchecked::LeaveOut } else { Unchecked::Refuse };
            export(&games, &dir, &out, format, unchecked)
        }
        Command::Conjecture(args) => {
            let done = gamesweep::games::higher_lower::conjecture_command::run(&games, &args)?;
            Ok(if done { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        Command::Fritzen(query) => {
            gamesweep::games::fritzen::query::run(&query)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Risk(query) => {
            gamesweep::games::risk::query::run(&query)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `gamesweep export`: the files written with their sizes, and the tasks
/// left out; a task that is not checked, without --leave-out, is named and
/// nothing is written (exit 1).
fn export(
    games: &[Box<dyn Game>],
    dir: &Path,
    out: &Path,
    format: Format,
    unchecked: Unchecked,
) -> anyhow::Result<ExitCode> {
    let result = match format {
        Format::Oeis => gamesweep::games::higher_lower::oeis::write(dir, out, unchecked).map(|b| {
            match b.gap {
                Some(gap) => eprintln!(
                    "gamesweep: b-files for n = 1..{}; they stop there: N = {gap} has no checked value",
                    b.last
                ),
                None => eprintln!("gamesweep: b-files for n = 1..{}, every stored N", b.last),
            }
            (b.files, b.left_out)
        }),
        _ => gamesweep::export::export(games, dir, out, format, unchecked).map(|e| (e.files, e.left_out)),
    };
    let (files, left_out) = match result {
        Ok(done) => done,
        Err(error) => match error.downcast_ref::<NotAllChecked>() {
            Some(NotAllChecked(tasks)) => {
                for task in tasks {
                    eprintln!("  not checked: {}/{}: {}", task.game, task.task, task.reason);
                }
                eprintln!("gamesweep: {error}; nothing written");
                return Ok(ExitCode::FAILURE);
            }
            None => return Err(error),
        },
    };
    for (path, bytes) in &files {
        println!("{}\t{bytes}", path.display());
    }
    for task in &left_out {
        eprintln!("  left out: {}/{}: {}", task.game, task.task, task.reason);
    }
    eprintln!("gamesweep: {} file(s) written to {}, {} task(s) left out", files.len(), out.display(), left_out.len());
    Ok(ExitCode::SUCCESS)
}

/// `gamesweep run`: the summary, each failed task, and what to do next.
fn run(games: &[Box<dyn Game>], config: &Path, options: RunOptions) -> anyhow::Result<ExitCode> {
    let summary = gamesweep::sweep::run(games, config, &options)?;
    eprintln!(
        "gamesweep: ran {} tasks, skipped {} already done, {} done by another run, {} failed, in {:.1}s -> {}",
        summary.ran,
        summary.skipped,
        summary.elsewhere,
        summary.failed.len(),
        summary.wall.as_secs_f64(),
        summary.out.display()
    );
    for failure in &summary.failed {
        eprintln!("  failed {}/{}: {}", failure.game, failure.task, failure.why);
    }
    if summary.failed.is_empty() {
        eprintln!("next: gamesweep verify {}", summary.out.display());
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(ExitCode::FAILURE)
    }
}

/// `gamesweep verify`: per game the counts of each finding and every task not certified.
fn verify(games: &[Box<dyn Game>], dir: &Path, jobs: Option<usize>) -> anyhow::Result<ExitCode> {
    let report = gamesweep::verify::verify(games, dir, jobs)?;
    for problem in &report.problems {
        println!("problem: {problem}");
    }
    for game in games {
        let mine: Vec<_> = report.outcomes.iter().filter(|o| o.game == game.name()).collect();
        if mine.is_empty() {
            continue;
        }
        let count = |f: Finding| mine.iter().filter(|o| o.finding == f).count();
        let planned = mine.iter().filter(|o| !matches!(o.finding, Finding::Unverifiable | Finding::Orphaned));
        println!(
            "{}: {} tasks planned: {} certified, {} repaired, {} failed, {} missing; {} unverifiable, {} orphaned",
            game.name(),
            planned.count(),
            count(Finding::Verified(Status::Certified)),
            count(Finding::Verified(Status::Repaired)),
            count(Finding::Verified(Status::Failed)),
            count(Finding::Missing),
            count(Finding::Unverifiable),
            count(Finding::Orphaned)
        );
        for o in mine.iter().filter(|o| o.finding != Finding::Verified(Status::Certified)) {
            println!("  {} {}: {}", o.finding.as_str(), o.task, o.detail);
        }
    }
    let others: Vec<_> = report.outcomes.iter().filter(|o| !games.iter().any(|g| g.name() == o.game)).collect();
    for o in &others {
        println!("  {} {}/{}: not a game of this version", o.finding.as_str(), o.game, o.task);
    }
    if let Some(first) = report.unrecorded.first() {
        eprintln!(
            "gamesweep: the verdicts above were checked but not recorded in {} for {} task(s) (first: {first}); \
             verify a writable copy to record them",
            dir.display(),
            report.unrecorded.len()
        );
    }
    if report.all_certified() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!(
            "gamesweep: not everything planned is certified (see above); `gamesweep run` recomputes what is missing or damaged"
        );
        Ok(ExitCode::FAILURE)
    }
}

/// `gamesweep plan`: one tab-separated line per task of the shard, with its hints.
fn plan(games: &[Box<dyn Game>], config: &Path, shard: Shard) -> anyhow::Result<ExitCode> {
    let config = ConfigFile::load(config)?;
    let planned = gamesweep::sweep::plan(games, &config)?;
    let mut stdout = std::io::stdout().lock();
    let lines = planned.iter().filter(|t| shard.contains(t.index)).map(|t| {
        let (cost, memory) = (t.task.cost_hint(), t.task.memory_hint_mb());
        format!("{}\t{}\t{}\t{cost:.3e}\t{memory}", t.index, t.game.name(), t.id)
    });
    let written = std::iter::once("index\tgame\ttask\tcost_hint\tmemory_mb".to_string())
        .chain(lines)
        .try_for_each(|line| writeln!(stdout, "{line}"));
    match written {
        // A reader that stops early (`| head`) is not an error.
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
        _ => Ok(ExitCode::SUCCESS),
    }
}
