//! Higher-lower solver benchmark: every method on the same N in one run, with
//! median times and iteration counts, so speed-ups are ratios measured side
//! by side. Also times the exact stage.
//!
//!   cargo bench --bench higher_lower                      # N = 100, 200, 400; all methods (6 min)
//!   HL_BENCH_N=300,500 HL_BENCH_METHODS=guess,auto cargo bench --bench higher_lower
//!
//! Methods that warm-start (guess, auto) get N-1's solution, as in a sweep;
//! "auto (cold)" shows auto without it.

mod common;
use common::human;
use gamesweep::games::higher_lower::exact_stage::exact_stage;
use gamesweep::games::higher_lower::solve::{FloatSolution, Method, SolveOptions, solve};
use std::time::Instant;

fn options(method: Method) -> SolveOptions {
    SolveOptions::new(method, 1e-10, 10_000_000)
}

fn list<T>(var: &str, default: &str, parse: impl Fn(&str) -> T) -> Vec<T> {
    std::env::var(var).unwrap_or_else(|_| default.to_string()).split(',').map(|s| parse(s.trim())).collect()
}

fn method(name: &str) -> Method {
    match name {
        "dresher" => Method::Dresher,
        "fast-pricing" => Method::FastPricing,
        "guess" => Method::Guess,
        "auto" => Method::Auto,
        other => panic!("unknown method {other}"),
    }
}

/// Median seconds over `runs` solves (7 under a second, else 3; one run only
/// beyond two minutes), the number of runs and the last solution.
fn timed(n: usize, method: Method, previous: Option<&FloatSolution>) -> (f64, usize, FloatSolution) {
    let first = Instant::now();
    let mut solution = solve(n, &options(method), previous);
    let mut times = vec![first.elapsed().as_secs_f64()];
    let runs = if times[0] > 120.0 {
        1
    } else if times[0] > 1.0 {
        3
    } else {
        7
    };
    for _ in 1..runs {
        let start = Instant::now();
        solution = solve(n, &options(method), previous);
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], runs, solution)
}

fn main() {
    let ns = list("HL_BENCH_N", "100,200,400", |s| s.parse::<usize>().expect("N"));
    let methods = list("HL_BENCH_METHODS", "dresher,fast-pricing,guess,auto", method);
    println!(
        "{:>5}  {:<14} {:>12} {:>4} {:>8} {:>10} {:>8}  {:>9}",
        "N", "method", "median", "runs", "rounds", "pivots", "columns", "vs auto"
    );
    for &n in &ns {
        let previous = solve(n - 1, &options(Method::Auto), None);
        let mut rows: Vec<(String, f64, usize, FloatSolution)> = Vec::new();
        for &m in &methods {
            let (seconds, runs, s) = timed(n, m, m.uses_previous().then_some(&previous));
            rows.push((m.as_str().to_string(), seconds, runs, s));
        }
        if methods.contains(&Method::Auto) {
            let (seconds, runs, s) = timed(n, Method::Auto, None);
            rows.push(("auto (cold)".into(), seconds, runs, s));
        }
        let auto = rows.iter().find(|r| r.0 == "auto").map(|r| r.1);
        for (name, seconds, runs, s) in &rows {
            let ratio = auto.map_or(String::new(), |a| format!("x{:.1}", seconds / a));
            println!(
                "{n:>5}  {name:<14} {:>12} {runs:>4} {:>8} {:>10} {:>8}  {ratio:>9}",
                human(*seconds),
                s.rounds,
                s.iterations,
                s.columns
            );
        }
        let best = &rows.iter().find(|r| r.0 == "auto").unwrap_or(&rows[0]).3;
        let start = Instant::now();
        let exact = exact_stage(best).expect("exact stage");
        println!(
            "{n:>5}  exact stage: {} (basis solve, {} exact pivots, certificate); V has {} + {} digits",
            human(start.elapsed().as_secs_f64()),
            exact.exact_pivots,
            exact.value.to_numerator().to_string().len(),
            exact.value.to_denominator().to_string().len()
        );
    }
}
