//! What a float solve hands to the exact stage and to the tables.

use super::options::Method;
use crate::games::higher_lower::tree::Tree;

/// One pricing round of the trace (values in units of V, i.e. guesses).
#[derive(Debug, Clone, PartialEq)]
pub struct TracePoint {
    pub round: u32,
    /// The restricted master's value: an upper bound on V(N).
    pub upper: f64,
    /// The best lower bound from this round's pricing.
    pub lower: f64,
    /// Simplex pivots of the master so far.
    pub pivots: u64,
}

/// A basic variable of the final master, with trees in full.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BasicVar {
    Slack(usize),
    Tree(Tree),
}

/// The floating-point result of one solve.
#[derive(Debug, Clone)]
pub struct FloatSolution {
    pub n: usize,
    pub method: Method,
    pub value: f64,
    /// Best lower bound seen (V(N) >= lower).
    pub lower: f64,
    pub basis: Vec<BasicVar>,
    /// Alice's symmetric strategy beta (distribution over the rows).
    pub beta: Vec<f64>,
    /// Simplex iterations of the master over all rounds.
    pub iterations: u64,
    /// Pricing rounds (= master solves).
    pub rounds: u32,
    pub pricing_calls: u32,
    /// Trees generated (columns of the master).
    pub columns: u32,
    pub warm_started: bool,
    pub trace: Vec<TracePoint>,
    pub seconds: f64,
    /// The trees that were basic at some point of the solve: N + 1's starting columns.
    pub pool: Vec<Tree>,
    /// The priced point with the best lower bound, where the solve keeps one
    /// exactly (a height-limited solve's, whose bound proves Table 3.1's).
    pub centre: Option<Vec<f64>>,
}

impl FloatSolution {
    /// A solution known only by what a solve starts from: Alice's strategy
    /// `beta` (over the symmetric rows) and the trees `pool`; neutral values elsewhere.
    pub fn starting_point(n: usize, method: Method, beta: Vec<f64>, pool: Vec<Tree>) -> Self {
        FloatSolution {
            n,
            method,
            value: f64::NAN,
            lower: f64::NAN,
            basis: Vec::new(),
            beta,
            iterations: 0,
            rounds: 0,
            pricing_calls: 0,
            columns: 0,
            warm_started: false,
            trace: Vec::new(),
            seconds: 0.0,
            pool,
            centre: None,
        }
    }
}
