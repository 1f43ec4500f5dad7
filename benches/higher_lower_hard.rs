//! The hard N of higher-lower, just below powers of two: warm chains solved
//! as a sweep solves them (the first N cold, each next one warm from the
//! previous), by the master before working sets on one thread ("old") and
//! with the working set on one and on two threads ("new"), with loosely
//! solved early masters as well, and with points toward the averaged duals
//! priced as well (on one and two threads), side by side in one run: seconds (median of the runs), pricing rounds, simplex pivots and
//! the ratio to "old". All use the cache-friendly Knuth DP.
//!
//!   cargo bench --bench higher_lower_hard                       # chains 249..256 and 505..512
//!   HL_HARD_CHAINS=505-512,1009-1016 HL_HARD_RUNS=1 cargo bench --bench higher_lower_hard
//!   HL_HARD_VARIANTS=5,6 cargo bench --bench higher_lower_hard  # only these (1-based); the first is the base

mod common;
use common::human;
use gamesweep::games::higher_lower::solve::{FloatSolution, Method, SolveOptions, solve};
use std::time::Instant;

/// One way of solving a chain.
struct Variant {
    name: &'static str,
    working_set: bool,
    loose_master: bool,
    averaged_duals: bool,
    threads: usize,
}

const VARIANTS: [Variant; 7] = [
    Variant {
        name: "old: whole pool priced, 1 thread",
        working_set: false,
        loose_master: false,
        averaged_duals: false,
        threads: 1,
    },
    Variant {
        name: "new: working set, 1 thread",
        working_set: true,
        loose_master: false,
        averaged_duals: false,
        threads: 1,
    },
    Variant {
        name: "new: working set, 2 threads",
        working_set: true,
        loose_master: false,
        averaged_duals: false,
        threads: 2,
    },
    Variant {
        name: "new: + loose masters, 2 threads",
        working_set: true,
        loose_master: true,
        averaged_duals: false,
        threads: 2,
    },
    Variant {
        name: "new: + loose masters, 1 thread",
        working_set: true,
        loose_master: true,
        averaged_duals: false,
        threads: 1,
    },
    Variant {
        name: "new: + averaged duals, 1 thread",
        working_set: true,
        loose_master: true,
        averaged_duals: true,
        threads: 1,
    },
    Variant {
        name: "new: + averaged duals, 2 threads",
        working_set: true,
        loose_master: true,
        averaged_duals: true,
        threads: 2,
    },
];

/// (seconds, rounds, pivots) of one chain, solved in a pool of `threads`.
fn chain(first: usize, last: usize, variant: &Variant) -> (f64, u64, u64) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(variant.threads).build().expect("a thread pool");
    let options = SolveOptions {
        method: Method::Auto,
        tolerance: 1e-10,
        max_rounds: 10_000_000,
        working_set: variant.working_set,
        loose_master: variant.loose_master,
        averaged_duals: variant.averaged_duals,
    };
    pool.install(|| {
        let start = Instant::now();
        let (mut rounds, mut pivots) = (0, 0);
        let mut previous: Option<FloatSolution> = None;
        for n in first..=last {
            let solution = solve(n, &options, previous.as_ref());
            rounds += u64::from(solution.rounds);
            pivots += solution.iterations;
            previous = Some(solution);
        }
        (start.elapsed().as_secs_f64(), rounds, pivots)
    })
}

fn main() {
    let chains: Vec<(usize, usize)> = std::env::var("HL_HARD_CHAINS")
        .unwrap_or_else(|_| "249-256,505-512".into())
        .split(',')
        .map(|c| {
            let (a, b) = c.trim().split_once('-').expect("FIRST-LAST");
            (a.parse().expect("N"), b.parse().expect("N"))
        })
        .collect();
    let runs: Option<usize> = std::env::var("HL_HARD_RUNS").ok().map(|r| r.parse().expect("a count"));
    let chosen: Vec<&Variant> = match std::env::var("HL_HARD_VARIANTS") {
        Ok(list) => {
            list.split(',').map(|i| &VARIANTS[i.trim().parse::<usize>().expect("a variant number") - 1]).collect()
        }
        Err(_) => VARIANTS.iter().collect(),
    };
    for (first, last) in chains {
        println!("chain N = {first}..{last} (first N cold):");
        let mut old_seconds = None;
        for variant in &chosen {
            // Three runs for a median, one for chains over a minute (or HL_HARD_RUNS).
            let mut results = vec![chain(first, last, variant)];
            let wanted = runs.unwrap_or(if results[0].0 > 60.0 { 1 } else { 3 });
            results.extend((1..wanted).map(|_| chain(first, last, variant)));
            results.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (seconds, rounds, pivots) = results[results.len() / 2];
            let base = *old_seconds.get_or_insert(seconds);
            println!(
                "  {:<36} {:>10}  x{:<5.2} rounds {rounds:>6}  pivots {pivots:>9}  (median of {})",
                variant.name,
                human(seconds),
                base / seconds,
                results.len()
            );
        }
    }
}
