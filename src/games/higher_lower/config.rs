//! The `[higher_lower]` config section and its expansion into tasks: solve
//! tasks (chunks of consecutive N) and, for each claim of the section's
//! `conjectures`, one claim task per chunk.

use super::claims::{self, Claim, ClaimName, NCondition, Statement};
use super::solve::Method;
use super::task::{ClaimTask, HigherLowerTask, parse_solve_id};
use crate::config::Section;
use crate::error::UserError;
use crate::grid::{Bounded, Distinct, IntGrid};
use serde::Deserialize;

/// Hard upper limit on N (keys); `max_n` may be raised up to this.
pub const HARD_MAX_N: u32 = 4096;

/// The `[higher_lower]` config section.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HigherLowerConfig {
    /// The N to solve: one value, a list, or a range (required unless `decide_on`).
    n: Option<IntGrid<1, HARD_MAX_N>>,
    /// Largest N this config may request (a guard against typos like 10000).
    #[serde(default = "default_max_n")]
    max_n: Bounded<1, HARD_MAX_N>,
    /// Solver methods, one task series each.
    #[serde(default = "default_methods")]
    methods: Distinct<Method>,
    /// Relative gap between the float bounds at which column generation stops.
    #[serde(default = "default_tolerance")]
    tolerance: Tolerance,
    /// Consecutive N per task: within a task each N warm-starts from N-1.
    #[serde(default = "default_chunk")]
    chunk: Bounded<1, HARD_MAX_N>,
    /// N that begin a task (solved cold) besides those `chunk` starts: a plan
    /// of long chains where cold starts cost most, e.g. one chain per core.
    chunk_starts: Option<IntGrid<1, HARD_MAX_N>>,
    /// Claims decided besides the built-in conjectures (`[[higher_lower.conjectures]]`).
    #[serde(default)]
    conjectures: Vec<ClaimConfig>,
    /// Solve nothing: decide `conjectures` on the stored solutions of these
    /// solve tasks (ids), as `gamesweep conjecture` does.
    decide_on: Option<Distinct<String>>,
}

/// One `[[higher_lower.conjectures]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimConfig {
    name: ClaimName,
    statement: Statement,
    /// The smallest N at which it claims anything.
    #[serde(default = "first_n")]
    from: Bounded<1, HARD_MAX_N>,
    /// A condition on N besides `from`, e.g. "N % 2 == 1".
    when: Option<NCondition>,
    /// Decide it only at these N (default: every N of the section).
    n: Option<IntGrid<1, HARD_MAX_N>>,
}

fn first_n() -> Bounded<1, HARD_MAX_N> {
    const { Bounded::new(1) }
}

fn default_max_n() -> Bounded<1, HARD_MAX_N> {
    const { Bounded::new(1024) }
}
fn default_methods() -> Distinct<Method> {
    Distinct::from(vec![Method::Auto])
}
fn default_tolerance() -> Tolerance {
    Tolerance(1e-10)
}
fn default_chunk() -> Bounded<1, HARD_MAX_N> {
    const { Bounded::new(25) }
}

/// The tolerances tested (N = 1..300): 1e-11, 1e-10 and 1e-8 take about the
/// same time; 1e-6 several times longer (the exact stage repairs most N);
/// 1e-12 and below stall in floating point, 1e-4 and above take many times
/// longer in exact repairs (docs/history.md#eeccbbe-the-tolerances-a-config-may-set).
const TOLERANCES: std::ops::RangeInclusive<f64> = 1e-11..=1e-6;

/// A relative tolerance within `TOLERANCES`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(try_from = "f64")]
struct Tolerance(f64);

impl TryFrom<f64> for Tolerance {
    type Error = String;
    fn try_from(value: f64) -> Result<Self, String> {
        if TOLERANCES.contains(&value) {
            Ok(Tolerance(value))
        } else {
            Err(format!(
                "invalid value {value:e}, expected a tolerance from {:e} to {:e} (the range tested), e.g. 1e-10",
                TOLERANCES.start(),
                TOLERANCES.end()
            ))
        }
    }
}

/// The section's tasks, in a stable order: the solve tasks, then the claim tasks.
pub fn plan(section: &Section) -> Result<(Vec<HigherLowerTask>, Vec<ClaimTask>), UserError> {
    let config: HigherLowerConfig = section.parse()?;
    let claims = claims(section, &config.conjectures)?;
    // The solve tasks the claims are decided on, and whether this section runs them.
    let (sources, solves) = match &config.decide_on {
        None => (solve_tasks(section, &config)?, true),
        Some(ids) => (stored_sources(section, &config, ids, &claims)?, false),
    };
    let decided = claim_tasks(&sources, &claims);
    if let Some(k) = claims.iter().position(|(claim, _)| !decided.iter().any(|t| t.claim.name == claim.name)) {
        return Err(
            section.invalid(&["conjectures"], &format!("entry {}: its n names no N that this section solves", k + 1))
        );
    }
    Ok((if solves { sources } else { Vec::new() }, decided))
}

/// The solve tasks `decide_on` names (their results stored already).
fn stored_sources(
    section: &Section,
    config: &HigherLowerConfig,
    ids: &Distinct<String>,
    claims: &[ClaimAt],
) -> Result<Vec<HigherLowerTask>, UserError> {
    if config.n.is_some() {
        return Err(section.invalid(&["n"], "decide_on names the solved tasks; leave n out"));
    }
    if claims.is_empty() {
        return Err(section.invalid(&["decide_on"], "needs at least one [[higher_lower.conjectures]] entry"));
    }
    ids.values()
        .iter()
        .map(|id| {
            let (method, ns) = parse_solve_id(id).ok_or_else(|| {
                let shown = claims::shorten(id);
                section.invalid(
                    &["decide_on"],
                    &format!("{shown:?} is no higher-lower solve task id (like \"auto-n1-32\")"),
                )
            })?;
            Ok(HigherLowerTask { method, ns, tolerance: 0.0 })
        })
        .collect()
}

/// A claim of a section and the N it is decided at (`None`: every N of the section).
pub type ClaimAt = (Claim, Option<Vec<usize>>);

/// The claims a section decides besides the built-ins, with the N each is
/// decided at (`None`: every N of the section).
pub fn section_claims(section: &Section) -> Result<Vec<ClaimAt>, UserError> {
    let config: HigherLowerConfig = section.parse()?;
    claims(section, &config.conjectures)
}

/// The section's claims with the N each is decided at (`None`: every N);
/// names are unique and none is a built-in conjecture's.
fn claims(section: &Section, entries: &[ClaimConfig]) -> Result<Vec<ClaimAt>, UserError> {
    let mut claims: Vec<ClaimAt> = Vec::new();
    for (k, entry) in entries.iter().enumerate() {
        let name = entry.name.as_str();
        if claims::builtin_named(name).is_some() {
            return Err(section.invalid(
                &["conjectures"],
                &format!("entry {}: {name:?} is a built-in conjecture, decided already; choose another name", k + 1),
            ));
        }
        if claims.iter().any(|(c, _)| c.name == entry.name) {
            return Err(section.invalid(&["conjectures"], &format!("entry {}: the name {name:?} is used twice", k + 1)));
        }
        let claim = Claim {
            name: entry.name.clone(),
            statement: entry.statement.clone(),
            from: entry.from.get(),
            when: entry.when.clone(),
        };
        let at = entry.n.as_ref().map(|grid| grid.values().iter().map(|&n| n as usize).collect());
        claims.push((claim, at));
    }
    Ok(claims)
}

/// One claim task per claim and solve task that share an N.
fn claim_tasks(sources: &[HigherLowerTask], claims: &[ClaimAt]) -> Vec<ClaimTask> {
    let mut tasks = Vec::new();
    for (claim, at) in claims {
        for source in sources {
            let ns: Vec<usize> =
                source.ns.iter().copied().filter(|n| at.as_ref().is_none_or(|at| at.contains(n))).collect();
            if !ns.is_empty() {
                tasks.push(ClaimTask { claim: claim.clone(), method: source.method, source_ns: source.ns.clone(), ns });
            }
        }
    }
    tasks
}

/// The solve tasks: the section's N in chunks, per method.
fn solve_tasks(section: &Section, config: &HigherLowerConfig) -> Result<Vec<HigherLowerTask>, UserError> {
    let Some(n) = &config.n else {
        return Err(section.invalid(&[], "missing key n (the N to solve, e.g. n = { from = 1, to = 100 })"));
    };
    let max_n = config.max_n.get();
    if let Some(&too_big) = n.values().iter().find(|&&n| n > max_n) {
        return Err(section.invalid(
            &["n"],
            &format!("N = {too_big} is above max_n = {max_n} (raise max_n, at most {HARD_MAX_N}, to allow it)"),
        ));
    }
    if config.methods.is_empty() {
        return Err(section.invalid(&["methods"], "needs at least one of dresher, fast-pricing, guess, auto"));
    }
    let mut ns: Vec<usize> = n.values().iter().map(|&n| n as usize).collect();
    ns.sort_unstable();
    let starts: Vec<usize> = match &config.chunk_starts {
        None => Vec::new(),
        Some(grid) => grid.values().iter().map(|&n| n as usize).collect(),
    };
    if let Some(&stray) = starts.iter().find(|n| ns.binary_search(n).is_err()) {
        return Err(section.invalid(&["chunk_starts"], &format!("N = {stray} is not among the N of n")));
    }
    let chunks = chunk_runs(&ns, config.chunk.get() as usize, &starts);
    let mut methods = config.methods.values().to_vec();
    methods.sort();
    Ok(methods
        .into_iter()
        .flat_map(|method| {
            chunks.iter().map(move |ns| HigherLowerTask { method, ns: ns.clone(), tolerance: config.tolerance.0 })
        })
        .collect())
}

/// Splits sorted N into runs of consecutive values of at most `size` each,
/// a new run beginning at every N of `starts`.
fn chunk_runs(ns: &[usize], size: usize, starts: &[usize]) -> Vec<Vec<usize>> {
    let mut chunks: Vec<Vec<usize>> = Vec::new();
    for &n in ns {
        match chunks.last_mut() {
            Some(last) if last.len() < size && last.last() == Some(&(n - 1)) && !starts.contains(&n) => last.push(n),
            _ => chunks.push(vec![n]),
        }
    }
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_follow_consecutive_runs() {
        assert_eq!(chunk_runs(&[1, 2, 3, 4, 5], 2, &[]), vec![vec![1, 2], vec![3, 4], vec![5]]);
        assert_eq!(chunk_runs(&[1, 2, 5, 6, 7, 9], 10, &[]), vec![vec![1, 2], vec![5, 6, 7], vec![9]]);
    }

    #[test]
    fn chunk_starts_begin_runs() {
        let ns: Vec<usize> = (1..=10).collect();
        assert_eq!(chunk_runs(&ns, 100, &[4, 9]), vec![(1..=3).collect::<Vec<_>>(), (4..=8).collect(), vec![9, 10]]);
        assert_eq!(chunk_runs(&ns, 3, &[5]), vec![vec![1, 2, 3], vec![4], vec![5, 6, 7], vec![8, 9, 10]]);
    }
}
