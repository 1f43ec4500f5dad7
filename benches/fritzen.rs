//! Fritzen benchmarks: one setting (normal turn + street, f64) and the whole
//! evaluation of a setting as a sweep task does it, then a sweep of many
//! settings on all cores; the exact DP (Z[1/6] against plain rationals) for
//! scale. Run: `cargo bench --bench fritzen` (FRITZEN_BENCH_SETTINGS=10000).

mod common;
use common::{compare, human, median_seconds};
use gamesweep::exact::{DiceRational, Rational};
use gamesweep::games::fritzen::analysis::{Setting, evaluate_setting};
use gamesweep::games::fritzen::dp::solve;
use gamesweep::games::fritzen::model::Model;
use gamesweep::games::fritzen::penalty::{Goal, expected_penalties};
use rayon::prelude::*;
use std::time::Instant;

fn main() {
    let model = Model::new();
    let u = expected_penalties::<f64>();
    let goal = Goal { lambda: 1.0, mu: 1.5 };
    let setting = Setting { lambda: Rational::from(1), mu: Rational::from_signeds(3, 2), pot: Rational::from(12) };
    let ue: [DiceRational; 7] = expected_penalties();
    let ur: [Rational; 7] = expected_penalties();
    let (ge, gr) = (
        Goal { lambda: DiceRational::new(2, 0), mu: DiceRational::new(3, 0) },
        Goal { lambda: Rational::from(1), mu: Rational::from_signeds(3, 2) },
    );
    compare(
        "one setting (lambda 1, mu 1.5, R 12)",
        &[
            (
                "solve, f64 (normal + street)",
                median_seconds(51, || solve(&model, |a| goal.terminal_cost(a.pips(), &u), goal.street_cost(&12.0))),
            ),
            (
                "evaluate_setting, f64 (+ probabilities, first throws)",
                median_seconds(21, || evaluate_setting(&model, &u, &setting)),
            ),
            (
                "solve, Z[1/6] integer-scaled (verify)",
                median_seconds(3, || {
                    solve(&model, |a| ge.terminal_cost(a.pips(), &ue), ge.street_cost(&DiceRational::new(12, 0)))
                }),
            ),
            (
                "solve, plain rationals",
                median_seconds(3, || {
                    solve(&model, |a| gr.terminal_cost(a.pips(), &ur), gr.street_cost(&Rational::from(12)))
                }),
            ),
        ],
    );
    let count: usize = std::env::var("FRITZEN_BENCH_SETTINGS").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let settings: Vec<Setting> = (0..count)
        .map(|k| Setting {
            lambda: Rational::from_signeds(k as i64 % 100, 10),
            mu: Rational::from_signeds(k as i64 / 100 % 100, 10),
            pot: Rational::from(12),
        })
        .collect();
    let mut times = Vec::new();
    for _ in 0..3 {
        let start = Instant::now();
        let costs: f64 = settings.par_iter().map(|s| evaluate_setting(&model, &u, s).summary.expected_cost).sum();
        std::hint::black_box(costs);
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    println!(
        "sweep of {count} settings (evaluate_setting on {} threads): median of 3 runs {} ({} per setting)",
        rayon::current_num_threads(),
        human(times[1]),
        human(times[1] / count as f64)
    );
}
