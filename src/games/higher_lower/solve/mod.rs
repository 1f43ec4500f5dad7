//! Column generation for the higher-lower game, in floating point.
//!
//! The restricted master (`restricted_master`) holds the trees found so far;
//! each round re-optimises it and prices: Bob's best tree against a point
//! (`best_response`) enters if it beats the master's value. Every pricing at
//! a distribution pi gives a lower bound min_T pi S_T / 2 <= V(N); the
//! master's value is an upper bound. A solve is made of named parts:
//!
//! - `start`: the first columns and guess, warm from N - 1 or cold;
//! - `analytic_centre`: the cold start just below a power of two;
//! - `column_generation`: the loop's state and one round;
//! - `points`: where a round prices (the seed's guess mixing, or spread
//!   between our stability centre, the duals and their running average);
//! - `stabilisation`: the stability centre and the box around it, and the
//!   `StabilisedMaster` that Table 3.1's height-limited game shares;
//! - `stopping`: the stopping rules (box, loose masters, polish, end rounds,
//!   the stalled tail);
//! - `options`: the methods and the speed-ups a benchmark can switch off.
//!
//! The methods are the seed's variants and ours, selectable for side-by-side
//! comparison.

mod analytic_centre;
mod best_response;
mod column_generation;
mod column_store;
mod distinct_columns;
pub mod edge_sketch;
pub mod kernels;
mod options;
mod points;
pub mod restricted_master;
mod solution;
pub mod stabilisation;
mod start;
mod stopping;

pub use best_response::{gain, lower_bound, price};
pub use options::{Method, SolveOptions, SpeedUp};
pub use solution::{BasicVar, FloatSolution, TracePoint};

use column_generation::ColumnGeneration;
use std::time::Instant;

/// Solves the game for `n` keys; `previous` is the solution for n - 1 (used by
/// the methods that warm-start).
pub fn solve(n: usize, options: &SolveOptions, previous: Option<&FloatSolution>) -> FloatSolution {
    solve_reporting(n, options, previous, &|_| {})
}

/// [`solve`], telling `report` after each round where the bounds on V stand:
/// a cold N just below 2048 solves for most of an hour, and a run should show
/// that it moves.
pub fn solve_reporting(
    n: usize,
    options: &SolveOptions,
    previous: Option<&FloatSolution>,
    report: &dyn Fn(&str),
) -> FloatSolution {
    let started = Instant::now();
    let mut solve = ColumnGeneration::start(n, options, previous, report);
    loop {
        let round = solve.round();
        let upper = round.upper;
        if let Some(optimum) = solve.after(round) {
            return solve.finish(optimum, started);
        }
        let lower = solve.core.centre.lower;
        report(&format!(
            "solving, round {}, V between {lower:.12} and {upper:.12} (gap {:.1e} of V)",
            solve.rounds,
            (upper - lower) / upper
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::best_response::{lower_bound, price_within};
    use super::*;

    fn options(method: Method) -> SolveOptions {
        SolveOptions::new(method, 1e-10, 1_000_000)
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

    /// A warm solve's first master is solved only as far as its gap needs
    /// (`ColumnGeneration::loose_first_master`): its round takes fewer pivots
    /// than the master solved to full precision, and V is the same.
    #[test]
    fn a_warm_solves_first_master_is_solved_loosely() {
        let previous = solve(126, &options(Method::Auto), None);
        let loose = solve(127, &options(Method::Auto), Some(&previous));
        let full_precision: Vec<SpeedUp> =
            SpeedUp::ALL.iter().copied().filter(|&s| s != SpeedUp::LooseMaster).collect();
        let full =
            solve(127, &SolveOptions::with_speed_ups(Method::Auto, 1e-10, 1_000_000, &full_precision), Some(&previous));
        assert!((loose.value - full.value).abs() < 1e-9 * full.value, "{} vs {}", loose.value, full.value);
        let (loose_first, full_first) = (loose.trace[0].pivots, full.trace[0].pivots);
        assert!(loose_first < full_first, "the first round: {loose_first} pivots loose, {full_first} in full");
    }

    #[test]
    fn a_height_limited_solve_prices_only_short_trees_and_stops_halfway_above_its_stop() {
        // N = 54 with trees of height <= 6 (63 nodes hold 54 keys): that game's value is about 1e-3 above V.
        let n = 54;
        let unrestricted = solve(n, &options(Method::Auto), None);
        let start =
            FloatSolution::starting_point(n, Method::Auto, unrestricted.beta.clone(), unrestricted.pool.clone());
        let limited = |stop: f64| solve(n, &options(Method::Auto).height_limited(6, stop), Some(&start));
        let optimum = limited(f64::INFINITY);
        assert!(optimum.pool.iter().all(|t| t.height() <= 6), "a tree taller than the limit entered");
        assert!(
            optimum.value > unrestricted.value + 1e-6,
            "the limit binds: {} vs {}",
            optimum.value,
            unrestricted.value
        );
        assert!((optimum.value - optimum.lower).abs() < 1e-8 * optimum.value, "solved to its optimum");
        // Stopped just above the unrestricted V: a point above it, at least halfway to the master's value.
        let stop = unrestricted.value * (1.0 + 1e-9);
        let early = limited(stop);
        let centre = early.centre.as_ref().expect("a centre");
        let game = crate::games::higher_lower::symmetric::SymmetricGame::new(n);
        let best = price_within(&game, Method::Auto, Some(6), centre);
        let bound = lower_bound(&game, &best, centre);
        assert!(bound > stop, "the centre's cheapest short tree costs {bound}, not above {stop}");
        assert!(bound - stop >= early.value - bound - 1e-12, "{bound} is not halfway from {stop} to {}", early.value);
        assert!(early.rounds <= optimum.rounds);
    }

    #[test]
    fn the_analytic_centre_starts_bounds_enclose_v_and_its_trees_hold_an_optimal_basis() {
        for n in [61, 127] {
            let game = crate::games::higher_lower::symmetric::SymmetricGame::new(n);
            let v = solve(n, &SolveOptions::new(Method::Dresher, 1e-12, 1_000_000), None).value;
            let start = super::analytic_centre::analytic_centre_start(&game, Method::Auto, 1e-10, &|_| {});
            let lower = start
                .trees
                .iter()
                .map(|t| game.float_column(t).iter().zip(&start.best).map(|(s, b)| s * b).sum::<f64>())
                .fold(f64::INFINITY, f64::min);
            assert!(lower / 2.0 <= v * (1.0 + 1e-12), "N = {n}: lower bound {} above V = {v}", lower / 2.0);
            assert!(lower / 2.0 >= v * (1.0 - 1e-9), "N = {n}: lower bound {} far below V = {v}", lower / 2.0);
            let columns: Vec<Vec<f64>> = start.trees.iter().map(|t| game.float_column(t)).collect();
            let upper =
                1.0 / (2.0 * super::restricted_master::RestrictedMaster::new(game.rows(), &columns).solve().objective);
            assert!((upper - v).abs() <= 1e-9 * v, "N = {n}: the master over its trees is worth {upper}, V = {v}");
        }
    }
}
