//! What a solve is asked to do: the method, its tolerance, and which of
//! `auto`'s speed-ups it uses.

use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// The seed's plain method: price every round with the O(N^3) interval DP.
    Dresher,
    /// The seed's fast pricing: the depth-limited DP, confirmed by the O(N^3) DP at the end.
    FastPricing,
    /// Fast pricing against c*gamma + (1-c)*alpha, gamma = the solution for N-1 (the seed's heuristic).
    Guess,
    /// Ours: Knuth's O(N^2) pricing, warm start from N-1's trees, dual smoothing around the best lower bound.
    Auto,
}

impl crate::grid::Described for Method {
    fn described(&self) -> String {
        format!("{:?}", self.as_str())
    }
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Dresher => "dresher",
            Method::FastPricing => "fast-pricing",
            Method::Guess => "guess",
            Method::Auto => "auto",
        }
    }

    /// Cost relative to `auto`, for scheduling only (the methods' measured
    /// ratios: docs/benchmarks.md).
    pub fn relative_cost(self) -> f64 {
        match self {
            Method::Dresher => 90.0,
            Method::FastPricing => 70.0,
            Method::Guess => 1.5,
            Method::Auto => 1.0,
        }
    }

    /// Whether the method uses the previous N's solution.
    pub fn uses_previous(self) -> bool {
        matches!(self, Method::Guess | Method::Auto)
    }
}

/// The speed-ups of the column generation that a benchmark can switch off
/// one by one to measure what each buys; sweeps use them all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpeedUp {
    /// The master prices a working set of columns, and the whole pool only
    /// when that set has none to enter (`RestrictedMaster::candidates`);
    /// without it, the whole pool at every pivot.
    WorkingSet,
    /// `auto` solves its early masters only to a tenth of the gap
    /// (`column_generation::LOOSE_MASTER`); without it, every master to full precision.
    LooseMaster,
    /// `auto` also prices points toward a running average of the master's
    /// duals (`points::TOWARD_AVERAGE`); without it, only `points::SPREAD`.
    AveragedDuals,
    /// The master measures its entering candidates' edges on a sketch of
    /// B^-1 (`EnteringRule::SketchedEdges`); without it, four exactly.
    SketchedEdges,
    /// Warm `auto` solves keep the duals in a box around the centre
    /// (`stabilisation::BOX_WIDTH`); without it, the master's duals are free.
    BoxedDuals,
}

impl SpeedUp {
    pub const ALL: [SpeedUp; 5] = [
        SpeedUp::WorkingSet,
        SpeedUp::LooseMaster,
        SpeedUp::AveragedDuals,
        SpeedUp::SketchedEdges,
        SpeedUp::BoxedDuals,
    ];
}

pub struct SolveOptions {
    pub method: Method,
    /// Stop when the relative gap between the bounds is at most this.
    pub tolerance: f64,
    /// Safety cap on pricing rounds.
    pub max_rounds: u32,
    speed_ups: Vec<SpeedUp>,
    /// Bob limited to trees of at most this height (Table 3.1's
    /// height-limited game, `height_limit`), priced by the depth-limited DP;
    /// such a solve starts from a solution of the same N, not N - 1's.
    pub height_limit: Option<u8>,
    /// End once a priced point proves a lower bound above this, at least
    /// halfway to the master's value: a proof of Table 3.1's bound needs a
    /// point above V, not the optimum.
    pub stop_above: Option<f64>,
}

impl SolveOptions {
    /// The method with every speed-up on (what sweeps use).
    pub fn new(method: Method, tolerance: f64, max_rounds: u32) -> Self {
        SolveOptions::with_speed_ups(method, tolerance, max_rounds, &SpeedUp::ALL)
    }

    /// The method with only the given speed-ups (for benchmarks).
    pub fn with_speed_ups(method: Method, tolerance: f64, max_rounds: u32, speed_ups: &[SpeedUp]) -> Self {
        SolveOptions {
            method,
            tolerance,
            max_rounds,
            speed_ups: speed_ups.to_vec(),
            height_limit: None,
            stop_above: None,
        }
    }

    /// These options for the game in which Bob's trees are at most `height`
    /// tall, ending at a point whose bound exceeds `stop_above` by the margin
    /// the field's rule asks.
    pub fn height_limited(mut self, height: u8, stop_above: f64) -> Self {
        self.height_limit = Some(height);
        self.stop_above = Some(stop_above);
        self
    }

    pub fn uses(&self, speed_up: SpeedUp) -> bool {
        self.speed_ups.contains(&speed_up)
    }
}
