//! The exact stage of higher-lower at large N: the p-adic solve of the final
//! basis plus the two-sided certificate, and the certificate alone (what
//! `gamesweep verify` runs on stored rows). Medians of repeated runs on one
//! float solution (solved once, untimed here).
//!
//!   cargo bench --bench higher_lower_exact              # N = 980
//!   HL_EXACT_N=509,980 cargo bench --bench higher_lower_exact
//!   HL_EXACT_N=500 HL_EXACT_TOLERANCE=1e-6 cargo bench --bench higher_lower_exact
//!
//! A loose tolerance ends the float solve early, so that the exact stage
//! repairs the basis with exact pivots (thousands at N = 500 and 1e-6).

mod common;
use common::{human, median_seconds};
use gamesweep::games::higher_lower::exact_stage::certificate::certify;
use gamesweep::games::higher_lower::exact_stage::exact_stage;
use gamesweep::games::higher_lower::solve::{Method, SolveOptions, solve};
use std::time::Instant;

fn main() {
    let ns: Vec<usize> = std::env::var("HL_EXACT_N")
        .unwrap_or_else(|_| "980".into())
        .split(',')
        .map(|s| s.trim().parse().expect("N"))
        .collect();
    let tolerance: f64 =
        std::env::var("HL_EXACT_TOLERANCE").map_or(1e-10, |t| t.trim().parse().expect("HL_EXACT_TOLERANCE"));
    println!(
        "{:>5}  {:>12}  {:>14}  {:>12}  {:>8}  {:>12}",
        "N", "float solve", "exact stage", "certificate", "digits", "exact pivots"
    );
    for n in ns {
        let options = SolveOptions::new(Method::Auto, tolerance, 10_000_000);
        let start = Instant::now();
        let float = solve(n, &options, None);
        let float_seconds = start.elapsed().as_secs_f64();
        let exact = exact_stage(&float).expect("exact stage");
        let stage = median_seconds(5, || exact_stage(&float).expect("exact stage"));
        let certificate = median_seconds(5, || certify(&exact.value, &exact.alpha, &exact.bob).expect("certified"));
        let digits = exact.value.to_denominator().to_string().len();
        println!(
            "{n:>5}  {:>12}  {:>14}  {:>12}  {digits:>8}  {:>12}",
            human(float_seconds),
            human(stage),
            human(certificate),
            exact.exact_pivots
        );
    }
}
