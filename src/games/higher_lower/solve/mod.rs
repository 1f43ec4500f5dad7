//! Column generation for the higher-lower game, in floating point.
//!
//! The restricted master (see `restricted_master`) holds the trees found so far; each
//! round re-optimises it and prices: Bob's best tree against Alice's current
//! dual strategy enters if it beats the master's value. Every pricing at a
//! distribution pi gives a lower bound min_T pi S_T / 2 <= V(N); the master's
//! value is an upper bound. The methods are the seed's variants and ours,
//! selectable for side-by-side comparison.

mod column_store;
pub mod edge_sketch;
pub mod kernels;
pub mod restricted_master;

use super::pricing::{depth_limited_dp, floored, interval_dp, monotone_root_dp, monotone_root_dp_f64};
use super::symmetric::SymmetricGame;
use super::tree::Tree;
use rayon::prelude::*;
use restricted_master::{EnteringRule, RestrictedMaster, Var};
use serde::Deserialize;
use std::collections::HashSet;
use std::time::Instant;

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

    /// Cost relative to `auto`, for scheduling (measured at N = 200: dresher
    /// x92, fast-pricing x67, guess x1.4).
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
}

pub struct SolveOptions {
    pub method: Method,
    /// Stop when the relative gap between the bounds is at most this.
    pub tolerance: f64,
    /// Safety cap on pricing rounds.
    pub max_rounds: u32,
    /// Whether the master prices a working set of columns and the whole pool
    /// only when that set has none to enter (see `RestrictedMaster::candidates`); off,
    /// it prices the whole pool at every pivot (for benchmarks).
    pub working_set: bool,
    /// Whether `auto` solves its early masters only to a tenth of the gap
    /// (`LOOSE_MASTER`); off, every master to full precision (for benchmarks).
    pub loose_master: bool,
    /// Whether `auto` also prices points toward a running average of the
    /// master's duals (`TOWARD_AVERAGE`); off, only `SPREAD` (for benchmarks).
    pub averaged_duals: bool,
    /// Whether the master measures its entering candidates' edges on a
    /// sketch of B^-1 (`EnteringRule::SketchedEdges`); off, four exactly (for benchmarks).
    pub sketched_edges: bool,
    /// Whether warm `auto` solves keep the duals in a box around the centre
    /// (`BOX_WIDTH`); off, the master's duals are free (for benchmarks).
    pub boxed_duals: bool,
}

impl SolveOptions {
    /// The method with every speed-up on (what sweeps use).
    pub fn new(method: Method, tolerance: f64, max_rounds: u32) -> Self {
        SolveOptions {
            method,
            tolerance,
            max_rounds,
            working_set: true,
            loose_master: true,
            averaged_duals: true,
            sketched_edges: true,
            boxed_duals: true,
        }
    }
}

/// Weight of the guess in the seed's mixing heuristic at the start.
const GUESS_WEIGHT: f64 = 0.9;
/// The points `auto` prices each round, as weights of the stability centre in
/// c * centre + (1 - c) * pi (Wentges smoothing, spread out): every point's
/// best tree that improves the master enters, so one master solve gets
/// several cuts from between the best dual point and the master's duals.
/// Six points need several times fewer rounds than stopping at the first
/// improving point, and twelve save few rounds for twice the pricing; the
/// measurements and the rejected variants (box stabilisation, batches of
/// best responses, Devex, smaller pools, refined cold starts, line searches):
/// docs/higher-lower-experiments.md#smoothing-the-points-priced-each-round-2026-11-22.
/// Warm solves price these five and three toward the average below, eight
/// DPs a round: warm N = 1017..1020 from the 1016 snapshot took as many rounds
/// and pivots as with ten (0.3 here and 0.7 toward the average besides) and
/// 6% less time; six were slower (docs/higher-lower-experiments.md#points-per-round-by-kind-of-start-2026-11-27-issue-33).
const SPREAD: [f64; 5] = [0.99, 0.9, 0.7, 0.5, 0.0];

/// `auto` also prices c * centre + (1 - c) * average for these c, where the
/// average is a running mean of the master's normalised duals (the newest
/// weighted `AVERAGE_NEWEST`). Near a power of two the warm guess from N - 1
/// is within a few 1e-6 of V but is not beaten for hundreds of rounds (warm
/// N = 1018: 460 of 562 rounds; 507..509: 90%), because the direction from
/// the centre to the vertex duals pi is no ascent direction; Kelley's vertex
/// duals oscillate, and their average is better centred (the cheap part of an
/// analytic-centre master): x1.23 on the chain 505..512, the other weights
/// tried did less (docs/higher-lower-experiments.md#averaged-duals-2026-11-25).
const TOWARD_AVERAGE: [f64; 3] = [0.9, 0.5, 0.0];
const AVERAGE_NEWEST: f64 = 0.2;

/// The points of a cold solve (no N - 1), as `SPREAD` and `TOWARD_AVERAGE`:
/// six DPs a round. Its rounds are many and cheap (few pivots each), so the
/// DPs weigh more than in a warm solve: cold N = 505, 961 and 993 took 6-10%
/// less time than with eight or ten points, with more rounds but about the
/// same pivots; four points took 66% more.
const COLD_SPREAD: [f64; 4] = [0.99, 0.9, 0.5, 0.0];
const COLD_TOWARD_AVERAGE: [f64; 2] = [0.9, 0.5];

/// `auto` solves each master only until no reduced cost exceeds this fraction
/// of the round's relative gap between the bounds (at most `LOOSE_MASTER_MAX`),
/// and the last to full precision: far from the optimum the exact optimum of
/// the master is not worth its pivots. 0.3 saved pivots on warm chains alone
/// but not in the whole sweep (docs/higher-lower-experiments.md#loose-masters-2026-11-26-issue-33).
const LOOSE_MASTER: f64 = 0.1;
const LOOSE_MASTER_MAX: f64 = 1e-3;

/// Warm `auto` solves keep the master's duals w (Alice's strategy, scaled by
/// 1 / (2 lower)) at least 1 - `BOX_WIDTH` times the stability centre's, row
/// by row, until no point priced improves the master: slack j costs that
/// bound (`RestrictedMaster::set_slack_costs`), so a dual below it lets the
/// slack enter. Since sum(w) is about 1 / (2V), the duals can move at most
/// about `BOX_WIDTH` of their mass away from the centre: a trust region in
/// L1, the vertex jumps of Kelley's master cut short. Warm N = 1017..1020 from
/// the 1016 snapshot (one thread, side by side): 74.4 s, 594 rounds, 487k
/// pivots unboxed; 0.01 67.2 s (904, 341k); 0.02 65.7 s (662, 396k); 0.03
/// 70.1 s; 0.005 and the box grown or shrunk by the centre's moves were
/// slower. A cold start's centre is far from the optimum, and the box held
/// it there (cold N = 993: 5,115 rounds, 183 s against 810 and 60 s), so
/// cold solves go unboxed (docs/higher-lower-experiments.md#a-box-around-the-centre-2026-11-27-fourteenth-session-issue-33).
const BOX_WIDTH: f64 = 0.02;

/// Rounds without a new centre after which the box doubles in width. The
/// optimum can lie outside the box while nothing inside it beats the centre:
/// warm N = 530 then crept toward it for 500 rounds (3.1 s against 0.7 s
/// unboxed), and its float solve ended short of the optimum (128 exact pivots).
const BOX_PATIENCE: u32 = 10;

/// Rounds without a new stability centre after which `auto` stops once its
/// bounds agree to the tolerance (the relative gap between the master's
/// value and the best lower bound), even if priced trees still improve the
/// master at its duals. At m = 1009 (cold N = 2017) the master's duals and
/// value are noise at the 1e-9 level: its value fell 1.4e-9 below V while the
/// trees it priced improved it by 1e-9 to 1e-7, and the column generation ran
/// on for 170-360 rounds past a gap of 1e-9 (stopped by hand after 3,101 to
/// 3,484 s) without meeting the tolerance of 1e-10, with the duals refined or not (docs/higher-lower-experiments.md#a-stalled-tail-ends-on-its-bounds-2026-11-28-nineteenth-session-issue-33).
/// What improves by less than that noise is left to the exact stage's pivots.
/// A solve that converges moves its centre every few rounds once its gap is
/// that small (the eighth session's cold 2017: at least every 6 rounds below
/// 1e-9), and N = 1..1024 never meet the rule (the same pivots with it); cold
/// starts stall for up to 1,300 rounds, but with a wide gap.
const STALLED_ROUNDS: u32 = 30;

/// The slacks' costs that keep the duals w at least 1 - `width` times the
/// `centre` scaled to the master's duals (sum(w) = 1 / (2V), V about `lower`).
fn dual_box(centre: &[f64], lower: f64, width: f64) -> Vec<f64> {
    let scale = if lower > 0.0 { (1.0 - width) / (2.0 * lower) } else { 0.0 };
    centre.iter().map(|x| x * scale).collect()
}

/// Polishes of the final basis (`RestrictedMaster::polish`) before the exact
/// stage takes what is left: each one that pivots moves the duals, so pricing
/// runs again and may add columns.
const MAX_POLISHES: u32 = 4;

/// Reduced cost above which a tree still enters once the column generation
/// has converged to the solve's tolerance (1e-10 in the configs), for at
/// most `MAX_END_ROUNDS` rounds. Such a tree improves the master by more than
/// rounding noise of the refined duals (`RestrictedMaster::refine_duals`),
/// and the exact stage would otherwise pivot it in exactly: warm N = 530 in
/// the 1024 sweep once ended with trees of 4e-11 to 7e-11 outside the master,
/// and its exact stage repaired the basis in 61 exact pivots (3.4 s, and
/// 12 s of face stage on the repaired mixture). Before the duals were
/// refined, their noise set these rounds off at most N (8% of the sweep's
/// pivots); now they rarely find anything.
const FINAL_TOLERANCE: f64 = 1e-12;
const MAX_END_ROUNDS: u32 = 4;

/// Relative gap within which N-1's trees are carried to N (`near_optimal`).
const CARRY_GAP: f64 = 1e-4;

/// Solves the game for `n` keys; `previous` is the solution for n - 1 (used by
/// the methods that warm-start).
pub fn solve(n: usize, options: &SolveOptions, previous: Option<&FloatSolution>) -> FloatSolution {
    let start = Instant::now();
    let game = SymmetricGame::new(n);
    let previous = previous.filter(|p| p.n + 1 == n && options.method.uses_previous());

    let mut columns = Columns::default();
    let mut master = RestrictedMaster::new(game.rows(), &[]);
    master.set_working_set(options.working_set);
    if !options.sketched_edges {
        master.set_entering_rule(EnteringRule::ExactEdges);
    }
    let gamma = first_columns(&game, options, previous, &mut columns, &mut master);
    // Our stability centre: the point with the best lower bound so far, starting
    // from the guess (which away from powers of two is exactly optimal for Alice).
    let mut centre: Option<Vec<f64>> = gamma.clone().filter(|_| options.method == Method::Auto);
    let mut guess_weight = if options.method == Method::Guess && gamma.is_some() { GUESS_WEIGHT } else { 0.0 };
    let (mut rounds, mut pricing_calls) = (0u32, 0u32);
    let mut lower = f64::NEG_INFINITY;
    let mut trace = Vec::new();

    // Early masters are solved to a tenth of the current gap, the last to full
    // precision (`LOOSE_MASTER`).
    let mut master_tolerance = 0.0;
    let mut average: Option<Vec<f64>> = None;
    let mut polishes = 0;
    let mut end_rounds = 0;
    // Warm solves keep the master's duals in a box around the centre
    // (`BOX_WIDTH`) until nothing improves there; it is priced before the
    // first master, whose box needs the centre's lower bound.
    let mut box_width = BOX_WIDTH;
    let mut boxed = options.boxed_duals && options.method == Method::Auto && previous.is_some();
    let mut priced_centre = false;
    let mut rounds_at_centre = 0;
    if boxed && let Some(c) = centre.as_deref() {
        let best = price(&game, options.method, c);
        pricing_calls += 1;
        lower = column_cost(&game, &best, c) / 2.0;
        columns.add(&game, &mut master, best);
        priced_centre = true;
    }
    let optimum = loop {
        if boxed && let Some(c) = centre.as_deref() {
            master.set_slack_costs(dual_box(c, lower, box_width));
        }
        let optimum = master.solve_within(master_tolerance);
        rounds += 1;
        rounds_at_centre += 1;
        let w = &optimum.duals;
        let upper = 1.0 / (2.0 * optimum.objective);
        let total: f64 = w.iter().sum();
        let pi: Vec<f64> = w.iter().map(|x| x / total).collect();
        let reduced = |tree: &Tree| 1.0 - game.column(tree).iter().zip(w).map(|(s, w)| f64::from(*s) * w).sum::<f64>();

        let anchors = Anchors { gamma: gamma.as_deref(), guess_weight, centre: centre.as_deref() };
        let points =
            round_points(options, previous.is_none(), rounds == 1 && !priced_centre, &anchors, &pi, &mut average);
        // `auto` prices every point, so its points are priced in parallel (on
        // the idle threads of the sweep); the seed's methods stop at the
        // first improving point, so theirs are priced one by one.
        let mut priced: Vec<Tree> = if options.method == Method::Auto {
            points.par_iter().map(|point| price(&game, options.method, point)).collect()
        } else {
            Vec::new()
        };
        priced.reverse();
        let mut entering = Vec::new();
        // The round's best trees that improve by no more than the tolerance
        // but by more than `FINAL_TOLERANCE`.
        let mut end_entering = Vec::new();
        let mut round_lower = f64::NEG_INFINITY;
        for point in &points {
            pricing_calls += 1;
            let best = priced.pop().unwrap_or_else(|| price(&game, options.method, point));
            let bound = column_cost(&game, &best, point) / 2.0;
            round_lower = round_lower.max(bound);
            if bound > lower {
                // Move the centre only for a real improvement, not rounding noise.
                if options.method == Method::Auto && bound > lower + 1e-12 * bound.abs() {
                    rounds_at_centre = 0;
                    centre = Some(point.to_vec());
                }
                lower = bound;
            }
            let gain = reduced(&best);
            if gain > options.tolerance {
                entering.push(best);
                // `auto` takes the improving tree of every point; the seed's methods the first.
                if options.method != Method::Auto {
                    break;
                }
            } else {
                if options.method == Method::Auto && gain > FINAL_TOLERANCE {
                    end_entering.push(best);
                }
                // A guessed point that found nothing: trust the guess less.
                guess_weight = if guess_weight < 0.02 { 0.0 } else { guess_weight * 0.5 };
            }
        }
        // The seed's fast pricing must be confirmed by the exact DP before stopping.
        if entering.is_empty() && matches!(options.method, Method::FastPricing | Method::Guess) {
            pricing_calls += 1;
            let exact = interval_dp(&game.key_weights(&pi)).tree;
            round_lower = round_lower.max(column_cost(&game, &exact, &pi) / 2.0);
            lower = lower.max(round_lower);
            entering.extend((reduced(&exact) > options.tolerance).then_some(exact));
        }
        trace.push(TracePoint { round: rounds, upper, lower: round_lower, pivots: master.iterations() });
        if options.method == Method::Auto
            && rounds_at_centre >= STALLED_ROUNDS
            && upper - lower <= options.tolerance * upper.abs()
        {
            // The bounds agree and the centre is stuck: the tail is the master's noise (`STALLED_ROUNDS`).
            entering.clear();
        }
        if entering.is_empty() || rounds >= options.max_rounds {
            if boxed && rounds < options.max_rounds {
                // Nothing improves inside the box: the master alone from here.
                boxed = false;
                master.set_slack_costs(vec![0.0; game.rows()]);
                continue;
            }
            if master_tolerance > 0.0 && rounds < options.max_rounds {
                // Nothing enters against a loosely solved master: solve it fully and price again.
                master_tolerance = 0.0;
                continue;
            }
            // Optimal for the perturbed b: make the basis feasible for b = 1
            // too, and price again if that moved the duals.
            if entering.is_empty() && polishes < MAX_POLISHES && master.polish() > 0 {
                polishes += 1;
                continue;
            }
            // Converged to the tolerance: trees that still improve by more
            // than rounding noise enter for a few more rounds (`FINAL_TOLERANCE`).
            if entering.is_empty() && end_rounds < MAX_END_ROUNDS && rounds < options.max_rounds {
                let mut added = 0;
                for tree in end_entering {
                    added += usize::from(columns.add(&game, &mut master, tree));
                }
                if added > 0 {
                    end_rounds += 1;
                    continue;
                }
            }
            break optimum;
        }
        if options.method == Method::Auto && options.loose_master {
            master_tolerance = (LOOSE_MASTER * (upper - lower) / upper).clamp(0.0, LOOSE_MASTER_MAX);
        }
        let mut added = 0;
        for tree in entering {
            added += usize::from(columns.add(&game, &mut master, tree));
        }
        if added == 0 {
            // Every improving tree is in the master already: a loose master
            // left it out (solve it fully), or the box keeps it out (widen it).
            if master_tolerance == 0.0 && boxed {
                box_width = (2.0 * box_width).min(1.0);
            }
            master_tolerance = 0.0;
        }
        if boxed && rounds_at_centre >= BOX_PATIENCE {
            // The optimum lies outside the box and nothing inside it beats the centre.
            box_width = (2.0 * box_width).min(1.0);
            rounds_at_centre = 0;
        }
    };

    let total: f64 = optimum.duals.iter().sum();
    FloatSolution {
        n,
        method: options.method,
        value: 1.0 / (2.0 * optimum.objective),
        lower,
        basis: basis(&master, &columns),
        beta: optimum.duals.iter().map(|x| x / total).collect(),
        iterations: master.iterations(),
        rounds,
        pricing_calls,
        columns: columns.trees.len() as u32,
        warm_started: previous.is_some(),
        trace,
        seconds: start.elapsed().as_secs_f64(),
        pool: master.ever_basic().into_iter().map(|c| columns.trees[c].clone()).collect(),
    }
}

/// The master's final basis, with each basic column as its tree.
fn basis(master: &RestrictedMaster, columns: &Columns) -> Vec<BasicVar> {
    master
        .basis()
        .into_iter()
        .map(|v| match v {
            Var::Slack(j) => BasicVar::Slack(j),
            Var::Column(c) => BasicVar::Tree(columns.trees[c].clone()),
        })
        .collect()
}

/// The master's first columns, and the guess gamma the seed's `guess` and our
/// stability centre start from: N-1's duals stretched to N, or for a cold
/// `auto` the cold start's guess.
fn first_columns(
    game: &SymmetricGame,
    options: &SolveOptions,
    previous: Option<&FloatSolution>,
    columns: &mut Columns,
    master: &mut RestrictedMaster,
) -> Option<Vec<f64>> {
    let n = game.n;
    // Initial columns (ours): N-1's pool, each tree with the new key inserted
    // where it is cheapest against the guess; else the best tree against the
    // uniform strategy: far fewer rounds than N-1's basic trees alone where
    // the guess is good (docs/higher-lower-experiments.md#initial-columns-from-n---1-2026-11-22).
    if options.method == Method::Auto
        && let Some(prev) = previous
    {
        let weights = game.key_weights(&stretch(&prev.beta, n));
        for tree in near_optimal(prev) {
            columns.add(game, master, tree.cheapest_insertion(&weights));
        }
    }
    if columns.trees.is_empty() {
        columns.add(game, master, monotone_root_dp(&vec![1.0; n]).tree);
    }

    match previous {
        Some(p) => Some(stretch(&p.beta, n)),
        None if options.method == Method::Auto => {
            let (guess, cold_trees) = cold_start(game, options.tolerance);
            for tree in cold_trees {
                columns.add(game, master, tree);
            }
            Some(guess)
        }
        None => None,
    }
}

/// What a round's points are drawn toward besides the duals: the seed's
/// guess gamma with its weight (`guess`) and the stability centre (`auto`).
#[derive(Clone, Copy)]
struct Anchors<'a> {
    gamma: Option<&'a [f64]>,
    guess_weight: f64,
    centre: Option<&'a [f64]>,
}

/// The points to price in a round, nearest the stability centre first: the
/// seed's guess mixing for `guess`; for `auto` the centre alone in the first
/// round, then the spread from the centre to pi (`SPREAD`, or `COLD_SPREAD`)
/// and toward the running average of the duals (`TOWARD_AVERAGE`, or
/// `COLD_TOWARD_AVERAGE`; `average` keeps the average).
fn round_points(
    options: &SolveOptions,
    cold: bool,
    first_round: bool,
    anchors: &Anchors,
    pi: &[f64],
    average: &mut Option<Vec<f64>>,
) -> Vec<Vec<f64>> {
    let Anchors { gamma, guess_weight, centre } = *anchors;
    match (options.method, gamma, centre) {
        (Method::Guess, Some(g), _) if guess_weight > 0.0 => vec![mix(g, pi, guess_weight), pi.to_vec()],
        (Method::Auto, _, Some(c)) => {
            let (spread, toward_average): (&[f64], &[f64]) =
                if cold { (&COLD_SPREAD, &COLD_TOWARD_AVERAGE) } else { (&SPREAD, &TOWARD_AVERAGE) };
            let first = first_round.then_some(1.0);
            let mut points: Vec<Vec<f64>> =
                first.into_iter().chain(spread.iter().copied()).map(|w| mix(c, pi, w)).collect();
            if options.averaged_duals {
                let mean = average.as_ref().map_or_else(|| pi.to_vec(), |a| mix(pi, a, AVERAGE_NEWEST));
                points.extend(toward_average.iter().map(|&w| mix(c, &mean, w)));
                *average = Some(mean);
            }
            points
        }
        _ => vec![pi.to_vec()],
    }
}

/// The trees of N-1's pool carried to N: those within `CARRY_GAP` of the
/// best against N-1's final strategy: carrying the whole pool let it grow by
/// every round's trees, and near-optimal ones are what the next N re-uses
/// (docs/higher-lower-experiments.md#which-trees-of-n---1-to-carry-2026-11-24).
fn near_optimal(previous: &FloatSolution) -> Vec<&Tree> {
    let game = SymmetricGame::new(previous.n);
    let costs: Vec<f64> = previous.pool.iter().map(|tree| column_cost(&game, tree, &previous.beta)).collect();
    let best = costs.iter().copied().fold(f64::INFINITY, f64::min);
    previous
        .pool
        .iter()
        .zip(&costs)
        .filter(|(_, cost)| **cost <= best * (1.0 + CARRY_GAP))
        .map(|(tree, _)| tree)
        .collect()
}

/// The master's columns with their trees, one tree per distinct symmetric
/// column: distinct trees can share a column (a tree and its mirror always
/// do), and twin columns let the master swap them for ever on reduced costs
/// of rounding noise (N = 500, warm in a chunk from 481: millions of pivots).
#[derive(Default)]
struct Columns {
    /// The tree of master column c.
    trees: Vec<Tree>,
    seen: HashSet<Vec<u16>>,
}

impl Columns {
    /// Adds the tree's column to the master unless an equal column is there.
    fn add(&mut self, game: &SymmetricGame, master: &mut RestrictedMaster, tree: Tree) -> bool {
        let column = game.column(&tree);
        if self.seen.contains(&column) {
            return false;
        }
        master.add_column(&column.iter().map(|&s| f64::from(s)).collect::<Vec<_>>());
        self.seen.insert(column);
        self.trees.push(tree.canonical());
        true
    }
}

/// Bob's best tree against the symmetric distribution `point`, by the method's pricer.
pub fn price(game: &SymmetricGame, method: Method, point: &[f64]) -> Tree {
    let weights = without_zeros(game.key_weights(point));
    match method {
        Method::Dresher => interval_dp(&weights).tree,
        Method::FastPricing | Method::Guess => {
            let h = usize::BITS - game.n.leading_zeros() + 1; // ceil(lg(N+1)) + 1
            depth_limited_dp(&weights, h).map_or_else(|| interval_dp(&weights).tree, |p| p.tree)
        }
        Method::Auto => monotone_root_dp_f64(&weights).tree,
    }
}

/// The weights with every zero (or negative rounding noise) raised to 1e-12
/// of the mean weight. Keys of weight zero can sit anywhere in an optimal
/// tree, and the DPs' leftmost tie-breaking strings a run of them into a
/// path (one deeper than 255 levels at N = 500 from a cold start's guess);
/// the tiny weight makes that run a balanced subtree, at no measurable cost.
fn without_zeros(weights: Vec<f64>) -> Vec<f64> {
    floored(weights, 1e-12)
}

/// pi . S_T.
fn column_cost(game: &SymmetricGame, tree: &Tree, point: &[f64]) -> f64 {
    game.column(tree).iter().zip(point).map(|(s, p)| f64::from(*s) * p).sum()
}

/// c * a + (1 - c) * b.
fn mix(a: &[f64], b: &[f64], c: f64) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| c * x + (1.0 - c) * y).collect()
}

/// Free outer rows of the cold-start game (the interior is one uniform block).
const COLD_OUTER_ROWS: usize = 8;

/// A cold start for `auto` without N-1's solution: Alice restricted to
/// strategies that are free on the outermost `COLD_OUTER_ROWS` rows and
/// uniform inside, which away from powers of two contains her optimal
/// strategies. That coarse game has only COLD_OUTER_ROWS + 1 rows, so column
/// generation solves it quickly; returns its optimal strategy for Alice
/// (expanded, the guess) and the trees it generated. (Finer block partitions,
/// refined level by level, cost more than they saved: docs/higher-lower-experiments.md.)
fn cold_start(game: &SymmetricGame, tolerance: f64) -> (Vec<f64>, Vec<Tree>) {
    let m = game.rows();
    let outer = COLD_OUTER_ROWS.min(m);
    let coarse = CoarseGame::new(game, outer, (m - outer).max(1));
    let mut trees = vec![monotone_root_dp(&vec![1.0; game.n]).tree.canonical()];
    let mut master = RestrictedMaster::new(coarse.rows(), &trees.iter().map(|t| coarse.column(t)).collect::<Vec<_>>());
    loop {
        let optimum = master.solve();
        let guess = coarse.expand(&optimum.duals);
        let best = monotone_root_dp_f64(&without_zeros(game.key_weights(&guess))).tree.canonical();
        let column = coarse.column(&best);
        let gain = 1.0 - column.iter().zip(&optimum.duals).map(|(s, w)| s * w).sum::<f64>();
        if gain <= tolerance || trees.contains(&best) {
            return (guess, trees);
        }
        master.add_column(&column);
        trees.push(best);
    }
}

/// The symmetric game with Alice restricted to the outer rows alone and
/// uniform blocks of `block` interior rows (the middle row, for odd N, in the
/// last block). A block's payoff is the doubled mean depth over its keys.
struct CoarseGame<'g> {
    game: &'g SymmetricGame,
    /// Coarse row of each symmetric row.
    block_of: Vec<usize>,
    /// Keys / 2 in each coarse row (a pair row counts 1, the middle row 1/2).
    units: Vec<f64>,
}

impl<'g> CoarseGame<'g> {
    fn new(game: &'g SymmetricGame, outer: usize, block: usize) -> Self {
        let m = game.rows();
        let block_of: Vec<usize> = (0..m).map(|j| if j < outer { j } else { outer + (j - outer) / block }).collect();
        let mut units = vec![0.0; block_of.last().map_or(0, |b| b + 1)];
        for j in 0..m {
            units[block_of[j]] += if game.n % 2 == 1 && j == m - 1 { 0.5 } else { 1.0 };
        }
        CoarseGame { game, block_of, units }
    }

    fn rows(&self) -> usize {
        self.units.len()
    }

    fn is_middle(&self, j: usize) -> bool {
        self.game.n % 2 == 1 && j == self.game.rows() - 1
    }

    /// The coarse column of a tree: per block, the depth sum over its keys / units.
    fn column(&self, tree: &Tree) -> Vec<f64> {
        let mut column = vec![0.0; self.rows()];
        for (j, s) in self.game.column(tree).into_iter().enumerate() {
            column[self.block_of[j]] += if self.is_middle(j) { f64::from(s) / 2.0 } else { f64::from(s) };
        }
        column.iter().zip(&self.units).map(|(c, u)| c / u).collect()
    }

    /// A symmetric strategy from coarse row weights: each block's weight spread
    /// evenly over its keys.
    fn expand(&self, weights: &[f64]) -> Vec<f64> {
        let beta: Vec<f64> = (0..self.game.rows())
            .map(|j| {
                let b = self.block_of[j];
                let share = weights[b].max(0.0) / self.units[b];
                if self.is_middle(j) { share / 2.0 } else { share }
            })
            .collect();
        let total: f64 = beta.iter().sum();
        beta.iter().map(|x| x / total).collect()
    }
}

/// A guess for N's symmetric strategy from N-1's: the middle entry is split or
/// duplicated so that the pairs line up, then renormalised.
fn stretch(beta: &[f64], n: usize) -> Vec<f64> {
    let m = n.div_ceil(2);
    let mut out = beta.to_vec();
    if out.len() < m {
        // N odd: N-1 even had no middle key; the new middle key copies half the innermost pair.
        let last = *out.last().unwrap_or(&1.0);
        out.push(last / 2.0);
    } else if let Some(last) = out.last_mut() {
        // N even: N-1's middle key becomes a pair.
        *last *= 2.0;
    }
    let total: f64 = out.iter().sum();
    out.iter().map(|x| x / total).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(method: Method) -> SolveOptions {
        SolveOptions::new(method, 1e-10, 1_000_000)
    }

    #[test]
    fn the_master_gets_one_column_per_distinct_symmetric_column() {
        let n = 7;
        let game = SymmetricGame::new(n);
        let trees = crate::games::higher_lower::tree::all_trees(n);
        let mut master = RestrictedMaster::new(game.rows(), &[]);
        let mut columns = Columns::default();
        for tree in &trees {
            columns.add(&game, &mut master, tree.clone());
        }
        let distinct: HashSet<Vec<u16>> = trees.iter().map(|t| game.column(t)).collect();
        // Twins that are not mirror images exist at N = 7, so this is more than mirror pairs.
        assert!(distinct.len() < trees.iter().filter(|t| **t <= t.mirror()).count());
        assert_eq!(columns.trees.len(), distinct.len());
        // With every column in, the master solves the whole game: V(7) = 23/9.
        assert!((1.0 / (2.0 * master.solve().objective) - 23.0 / 9.0).abs() < 1e-12);
    }

    #[test]
    fn johnsons_small_values_in_floating_point() {
        let johnson = [1.0, 1.5, 1.8, 2.0, 20.0 / 9.0, 2.4, 23.0 / 9.0, 2.7, 31.0 / 11.0, 35.0 / 12.0, 187.0 / 62.0];
        for method in [Method::Dresher, Method::FastPricing, Method::Guess, Method::Auto] {
            let mut previous: Option<FloatSolution> = None;
            for (i, v) in johnson.iter().enumerate() {
                let s = solve(i + 1, &options(method), previous.as_ref());
                assert!((s.value - v).abs() < 1e-9, "{method:?} N = {}: {} vs {v}", i + 1, s.value);
                assert!(s.lower <= s.value + 1e-9);
                previous = Some(s);
            }
        }
    }

    #[test]
    fn methods_agree_at_moderate_n() {
        let mut previous = solve(59, &options(Method::Auto), None);
        for n in 60..=64 {
            let values: Vec<f64> = [Method::Dresher, Method::FastPricing, Method::Guess, Method::Auto]
                .iter()
                .map(|&m| solve(n, &options(m), Some(&previous)).value)
                .collect();
            for v in &values {
                assert!((v - values[0]).abs() < 1e-9, "N = {n}: {values:?}");
            }
            previous = solve(n, &options(Method::Auto), Some(&previous));
        }
    }
}
