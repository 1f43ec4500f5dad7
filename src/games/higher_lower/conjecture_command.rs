//! `gamesweep conjecture DIR --name NAME 'STATEMENT'`: a new claim asked of
//! a finished sweep and decided on its stored solutions, without solving any
//! game again. The command writes a config that plans one claim task per
//! stored solve task (`decide_on`) and runs it through the orchestrator, so
//! the config is stored under DIR/.configs/ like any run's (`verify`
//! re-proves the claim, `report` lists it), a killed command resumes where it
//! stopped (done N are not redone), both cores work and a bar shows the
//! progress with an ETA. It ends with the verdicts by N.

use super::claims::{self, Claim};
use super::config::{HARD_MAX_N, section_claims};
use super::report::claim_summaries;
use super::task::parse_solve_id;
use crate::artifacts::OutputDir;
use crate::config::ConfigFile;
use crate::error::UserError;
use crate::game::Game;
use crate::sweep::{RunOptions, Shard, plan, run_config};
use serde::Serialize;
use std::path::PathBuf;
use std::str::FromStr;

/// The game whose results the command reads.
const GAME: &str = "higher_lower";

#[derive(Debug, clap::Args)]
pub struct ConjectureArgs {
    /// Output directory of a finished higher-lower sweep.
    pub dir: PathBuf,
    /// The claim about Alice's strategy a[1..N] at each N, e.g. 'a[2] = a[3] + a[4]' or
    /// 'for j in 2..N/4: a[j] >= a[j+1]' (grammar and examples: docs/claims.md).
    pub statement: String,
    /// The claim's name (letters, digits and _; its rows' `name` in the conjectures table).
    #[arg(long)]
    pub name: String,
    /// The smallest N at which the claim says anything.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=HARD_MAX_N as i64))]
    pub from: u32,
    /// A condition on N besides --from, e.g. 'N % 2 == 1'.
    #[arg(long)]
    pub when: Option<String>,
    /// Decide it only at these stored N: A..B, or one N.
    #[arg(long, value_name = "A..B")]
    pub n: Option<NRange>,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
}

/// An inclusive range of N from the command line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NRange {
    pub from: u32,
    pub to: u32,
}

impl FromStr for NRange {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let (a, b) = text.split_once("..").unwrap_or((text, text));
        let number = |s: &str| s.trim().parse::<u32>().ok().filter(|n| (1..=HARD_MAX_N).contains(n));
        match (number(a), number(b)) {
            (Some(from), Some(to)) if from <= to => Ok(NRange { from, to }),
            _ => Err(format!("expected A..B with 1 <= A <= B <= {HARD_MAX_N} (or one N), got {text:?}")),
        }
    }
}

/// Decides the claim on DIR's stored solutions and prints its verdicts;
/// `false` if a task failed.
pub fn run(games: &[Box<dyn Game>], args: &ConjectureArgs) -> anyhow::Result<bool> {
    let claim = Claim::parse(&args.name, &args.statement, args.from, args.when.as_deref())
        .map_err(|why| UserError::new(format!("gamesweep conjecture: {why}")))?;
    if claims::builtin_named(&args.name).is_some() {
        return Err(user(format!(
            "{:?} is a built-in conjecture, decided by every sweep; choose another name",
            args.name
        )));
    }
    let out = OutputDir::open(&args.dir)?;
    let sources = stored_sources(&out, args)?;
    check_name(&out, &claim, args)?;
    let config = ConfigFile::from_text(
        &args.dir.join(".configs").join(format!("conjecture-{}.toml", args.name)),
        config_text(&claim, &sources, args.n)?,
    )?;
    let planned: Vec<String> = plan(games, &config)?.into_iter().map(|t| t.id).collect();
    let options = RunOptions {
        out: Some(args.dir.clone()),
        shard: Shard::ALL,
        jobs: args.jobs.map(usize::from),
        force: false,
        redo_changed: false,
    };
    let summary = run_config(games, &config, &options)?;
    let when = claim.when.as_ref().map_or(String::new(), |w| format!(", when {}", w.text()));
    println!(
        "conjecture {}: {} (from {}{when}) on {} stored tasks of {}: {} ran, {} already done, {} failed, {:.1} s",
        args.name,
        claim.statement.text(),
        claim.from,
        planned.len(),
        args.dir.display(),
        summary.ran,
        summary.skipped + summary.elsewhere,
        summary.failed.len(),
        summary.wall.as_secs_f64()
    );
    for failure in &summary.failed {
        println!("  failed {}: {}", failure.task, failure.why);
    }
    let rows: Vec<_> = planned.iter().filter_map(|id| out.read_finished_table(GAME, id, "conjectures").ok()).collect();
    if let Some(first) = rows.first() {
        let all = arrow::compute::concat_batches(&first.schema(), &rows)?;
        for verdicts in claim_summaries(&all)? {
            for line in verdicts.lines() {
                println!("  {line}");
            }
        }
    }
    if summary.failed.is_empty() {
        println!(
            "next: gamesweep verify {} (re-proves it), gamesweep report {} (lists it)",
            args.dir.display(),
            args.dir.display()
        );
    }
    Ok(summary.failed.is_empty())
}

fn user(message: String) -> anyhow::Error {
    UserError::new(format!("gamesweep conjecture: {message}")).into()
}

/// The finished solve tasks of DIR whose N meet --n, by id.
fn stored_sources(out: &OutputDir, args: &ConjectureArgs) -> anyhow::Result<Vec<String>> {
    let markers = out.markers()?;
    let solved: Vec<(String, Vec<usize>)> = markers
        .records
        .iter()
        .filter(|r| r.game == GAME)
        .filter_map(|r| parse_solve_id(&r.id).map(|(_, ns)| (r.id.clone(), ns)))
        .collect();
    if solved.is_empty() {
        return Err(user(format!(
            "{} holds no finished higher-lower results (run a higher-lower config into it first)",
            args.dir.display()
        )));
    }
    let wanted = |n: usize| args.n.is_none_or(|r| (r.from as usize..=r.to as usize).contains(&n));
    let mut ids: Vec<String> =
        solved.iter().filter(|(_, ns)| ns.iter().any(|&n| wanted(n))).map(|(id, _)| id.clone()).collect();
    if ids.is_empty() {
        let stored: Vec<usize> = solved.iter().flat_map(|(_, ns)| ns.iter().copied()).collect();
        let (low, high) = (stored.iter().min().copied().unwrap_or(0), stored.iter().max().copied().unwrap_or(0));
        return Err(user(format!("--n: no stored N in that range (stored: N = {low}..{high})")));
    }
    ids.sort();
    Ok(ids)
}

/// Refuses a name that a claim of DIR's stored configs uses with another
/// statement, or with other N that overlap these (asking the same claim at
/// the same N again resumes it).
fn check_name(out: &OutputDir, claim: &Claim, args: &ConjectureArgs) -> anyhow::Result<()> {
    for stored in out.configs()? {
        let Ok(text) = stored.text else { continue };
        let Ok(config) = ConfigFile::from_text(&stored.path, text) else { continue };
        let Some(section) = config.section(GAME) else { continue };
        for (other, at) in section_claims(&section).unwrap_or_default() {
            if other.name != claim.name {
                continue;
            }
            if !other.same_as(claim) {
                let when = other.when.as_ref().map_or(String::new(), |w| format!(", when {}", w.text()));
                return Err(user(format!(
                    "a claim named {:?} exists in {} already: {:?} (from {}{when}); choose another name",
                    args.name,
                    args.dir.display(),
                    other.statement.text(),
                    other.from
                )));
            }
            let range = |r: Option<NRange>| r.map(|r| (r.from as usize, r.to as usize));
            let theirs = at.as_ref().map(|ns| (ns[0], ns[ns.len() - 1]));
            let ours = range(args.n);
            let overlap = match (theirs, ours) {
                (Some((a, b)), Some((c, d))) => a <= d && c <= b,
                _ => true,
            };
            if theirs != ours && overlap {
                let shown = theirs.map_or("every stored N".to_string(), |(a, b)| format!("N = {a}..{b}"));
                return Err(user(format!(
                    "{:?} is decided at {shown} already; ask it with the same --n to resume, or with N outside it",
                    args.name
                )));
            }
        }
    }
    Ok(())
}

/// The config that decides the claim on the stored tasks.
fn config_text(claim: &Claim, sources: &[String], n: Option<NRange>) -> anyhow::Result<String> {
    #[derive(Serialize)]
    struct Written<'a> {
        higher_lower: Section<'a>,
    }
    #[derive(Serialize)]
    struct Section<'a> {
        decide_on: &'a [String],
        conjectures: [Entry<'a>; 1],
    }
    #[derive(Serialize)]
    struct Entry<'a> {
        name: &'a str,
        statement: &'a str,
        from: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        when: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        n: Option<Range>,
    }
    #[derive(Serialize)]
    struct Range {
        from: u32,
        to: u32,
    }
    let entry = Entry {
        name: claim.name.as_str(),
        statement: claim.statement.text(),
        from: claim.from,
        when: claim.when.as_ref().map(|w| w.text()),
        n: n.map(|r| Range { from: r.from, to: r.to }),
    };
    let body = toml::to_string(&Written { higher_lower: Section { decide_on: sources, conjectures: [entry] } })?;
    Ok(format!(
        "# Written by `gamesweep conjecture`: one claim decided on the stored higher-lower solutions of this\n\
         # directory, without solving again (docs/claims.md).\n{body}"
    ))
}
