//! The `gamesweep` command line. Exit codes: 0 success, 1 a task or check
//! failed (or an internal error), 2 bad input.

use clap::{Parser, Subcommand};
use gamesweep::error::UserError;
use gamesweep::game::Status;
use gamesweep::games;
use gamesweep::games::fritzen::query::FritzenQuery;
use gamesweep::games::risk::query::RiskQuery;
use gamesweep::sweep::{RunOptions, Shard};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gamesweep",
    version,
    about = "Solve games from published work exactly, sweep their parameters, write Parquet, verify exactly.",
    long_about = "Solve games from published work exactly, sweep their parameters in parallel, write every \
                  result as Parquet under DIR/<game>/<table>/part-<task>.parquet, and verify the results in \
                  exact arithmetic.\n\nTypical session:\n  gamesweep run configs/quick.toml\n  gamesweep verify \
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
    /// Write DIR/report/index.md: the published numbers beside ours.
    Report {
        /// Output directory of a run.
        dir: PathBuf,
    },
    /// Fritzen: advice for a throw (the best dice to set aside, normal turn or street).
    #[command(subcommand)]
    Fritzen(FritzenQuery),
    /// Risk defender dice: the long-run rule, battle odds, advice for a roll.
    #[command(subcommand)]
    Risk(RiskQuery),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            // One line: clap's first line names the argument, the value and what is allowed.
            let rendered = error.render().to_string();
            let first = rendered.lines().next().unwrap_or("error: bad arguments");
            eprintln!("{first} (see --help)");
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

fn execute(command: Command) -> anyhow::Result<ExitCode> {
    let games = games::all();
    match command {
        Command::Run { config, out, shard, jobs, force } => {
            let options = RunOptions { out, shard, jobs: jobs.map(usize::from), force };
            let summary = gamesweep::sweep::run(&games, &config, &options)?;
            eprintln!(
                "gamesweep: ran {} tasks, skipped {} already done, {} failed, in {:.1}s -> {}",
                summary.ran,
                summary.skipped,
                summary.failed.len(),
                summary.wall.as_secs_f64(),
                summary.out.display()
            );
            for (game, task, error) in &summary.failed {
                eprintln!("  failed {game}/{task}: {error}");
            }
            if summary.failed.is_empty() {
                eprintln!("next: gamesweep verify {}", summary.out.display());
                Ok(ExitCode::SUCCESS)
            } else {
                Ok(ExitCode::FAILURE)
            }
        }
        Command::Verify { dir, jobs } => {
            let outcomes = gamesweep::verify::verify(&games, &dir, jobs.map(usize::from))?;
            let mut failed = 0;
            for game in &games {
                let mine: Vec<_> = outcomes.iter().filter(|o| o.game == game.name()).collect();
                if mine.is_empty() {
                    continue;
                }
                let count = |s: Status| mine.iter().filter(|o| o.status == s).count();
                println!(
                    "{}: {} tasks: {} certified, {} repaired, {} failed",
                    game.name(),
                    mine.len(),
                    count(Status::Certified),
                    count(Status::Repaired),
                    count(Status::Failed)
                );
                for o in mine.iter().filter(|o| o.status != Status::Certified) {
                    println!("  {} {}: {}", o.status.as_str(), o.task, o.detail);
                }
                failed += count(Status::Failed);
            }
            Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        Command::Report { dir } => {
            let path = gamesweep::report::report(&games, &dir)?;
            println!("{}", path.display());
            Ok(ExitCode::SUCCESS)
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
