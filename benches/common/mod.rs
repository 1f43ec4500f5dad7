//! Minimal benchmark harness: medians of repeated runs, printed side by side.
#![allow(dead_code)] // each bench binary uses its own subset

use std::time::Instant;

/// Median wall time in seconds of `runs` calls of `f` (after one warm-up call).
pub fn median_seconds<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    std::hint::black_box(f());
    median_seconds_after(runs, |_| (), f)
}

/// Median wall time in seconds of `runs` calls of `f`, each right after an
/// untimed call of `before` with the run's index (to evict caches, say).
pub fn median_seconds_after<T>(runs: usize, mut before: impl FnMut(usize), mut f: impl FnMut() -> T) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|k| {
            before(k);
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Formats seconds with a unit that keeps three significant digits.
pub fn human(seconds: f64) -> String {
    match seconds {
        s if s < 1e-3 => format!("{:.1} us", s * 1e6),
        s if s < 1.0 => format!("{:.1} ms", s * 1e3),
        s => format!("{s:.2} s"),
    }
}

/// Prints one comparison: each variant's median and its ratio to the first.
pub fn compare(title: &str, rows: &[(&str, f64)]) {
    println!("{title}");
    let base = rows[0].1;
    for (name, seconds) in rows {
        println!("  {name:<34} median {:>10}   x{:.2} vs {}", human(*seconds), seconds / base, rows[0].0);
    }
}
