//! What one higher-lower task computes: its parameters, its id and its cost.
//! Two kinds: a solve task (column generation, exact and face stages for
//! consecutive N) and a claim task (one claim decided at those N on a solve
//! task's stored solutions, without solving again).

use super::claims::Claim;
use super::solve::Method;

/// A solve task: consecutive N (or a run of the configured N) for one method.
#[derive(Debug, Clone, PartialEq)]
pub struct HigherLowerTask {
    pub method: Method,
    pub ns: Vec<usize>,
    pub tolerance: f64,
}

impl HigherLowerTask {
    /// "auto-n5-7" for N = 5, 6, 7; "auto-n1.3" for N = 1, 3.
    pub fn id(&self) -> String {
        format!("{}-n{}", self.method.as_str(), n_set(&self.ns))
    }
}

/// One claim decided at some N of a solve task, on its stored solutions.
#[derive(Debug, Clone)]
pub struct ClaimTask {
    pub claim: Claim,
    /// The solve task whose tables it reads (its id is `source_id()`).
    pub method: Method,
    pub source_ns: Vec<usize>,
    /// The N decided: the source's N, or those of them the claim's `n` names.
    pub ns: Vec<usize>,
}

impl ClaimTask {
    /// "claim-NAME-auto-n5-7".
    pub fn id(&self) -> String {
        format!("claim-{}-{}-n{}", self.claim.name.as_str(), self.method.as_str(), n_set(&self.ns))
    }

    pub fn source_id(&self) -> String {
        HigherLowerTask { method: self.method, ns: self.source_ns.clone(), tolerance: 0.0 }.id()
    }
}

/// "5-7" for consecutive N 5, 6, 7, else "1.3.8".
fn n_set(ns: &[usize]) -> String {
    let (first, last) = (ns[0], ns[ns.len() - 1]);
    if ns.len() == last - first + 1 {
        format!("{first}-{last}")
    } else {
        ns.iter().map(usize::to_string).collect::<Vec<_>>().join(".")
    }
}

/// A solve task's method and N from its id (`HigherLowerTask::id` read back).
pub fn parse_solve_id(id: &str) -> Option<(Method, Vec<usize>)> {
    let at = id.rfind("-n")?;
    let method = [Method::Dresher, Method::FastPricing, Method::Guess, Method::Auto]
        .into_iter()
        .find(|m| m.as_str() == &id[..at])?;
    let set = &id[at + 2..];
    let number = |s: &str| s.parse::<usize>().ok().filter(|&n| n >= 1 && n.to_string() == s);
    let ns: Vec<usize> = match set.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (number(a)?, number(b)?);
            (a <= b).then(|| (a..=b).collect())?
        }
        None => set.split('.').map(number).collect::<Option<Vec<_>>>()?,
    };
    let increasing = ns.windows(2).all(|w| w[0] < w[1]);
    let canonical = HigherLowerTask { method, ns: ns.clone(), tolerance: 0.0 }.id() == id;
    (increasing && canonical).then_some((method, ns))
}

/// A rough model of the seconds one N takes, for scheduling only: the master
/// costs about m^4 (m^2 pivots of O(m^2)), many times more just below a power
/// of two, where Alice's strategy is not the uniform interior and column
/// generation needs far more rounds (the reference points:
/// docs/history.md#9394568-one-pass-over-the-inverse-per-pivot).
pub fn expected_solve_cost(n: usize) -> f64 {
    let m = n.div_ceil(2) as f64;
    let octave = (n as f64).log2().floor().exp2();
    let position = n as f64 / octave; // in [1, 2): how far N is into its octave
    1e-11 * m.powi(4) / (2.02 - position).powi(2) + 1e-8 * m.powi(3)
}

/// A rough model of the seconds one claim takes at N: its face LPs cost
/// about what the built-in conjectures' do, a fraction of the solve.
pub fn expected_claim_cost(n: usize) -> f64 {
    0.3 * expected_solve_cost(n)
}
