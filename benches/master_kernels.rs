//! The master's pricing scan, one byte column at a time (`dot_u8`, before)
//! and four at a time (`dot_u8_x4`), side by side on a working set of the size
//! the hard N have (m = 508 rows, 3m columns of tree-like byte entries): with
//! the columns in cache, and after a pass over an m x m inverse, as in the
//! solver, where every pivot's pass evicts them. Medians of 21 runs.
//!
//!   cargo bench --bench master_kernels
//!   HL_KERNEL_M=1009 cargo bench --bench master_kernels   # the rows of N = 2017

mod common;
use common::{compare, median_seconds, median_seconds_after};
use gamesweep::games::higher_lower::solve::kernels::{dot_u8, dot_u8_x4};

fn main() {
    let m: usize = std::env::var("HL_KERNEL_M").map_or(508, |v| v.parse().expect("a row count"));
    let columns: Vec<Vec<u8>> =
        (0..3 * m).map(|c| (0..m).map(|i| (8 + (i * 31 + c * 17) % 23) as u8).collect()).collect();
    let duals: Vec<f64> = (0..m).map(|i| 1.0 / (m as f64) + 1e-6 * (i % 7) as f64).collect();
    let singly: Vec<u64> = columns.iter().map(|c| dot_u8(&duals, c).to_bits()).collect();
    let grouped: Vec<u64> = columns
        .chunks_exact(4)
        .flat_map(|g| dot_u8_x4(&duals, [&g[0], &g[1], &g[2], &g[3]]))
        .map(f64::to_bits)
        .collect();
    assert_eq!(singly, grouped, "four at a time gives the same bits");

    let one = || columns.iter().map(|c| dot_u8(&duals, c)).sum::<f64>();
    let four = || {
        columns
            .chunks_exact(4)
            .map(|g| dot_u8_x4(&duals, [&g[0], &g[1], &g[2], &g[3]]).iter().sum::<f64>())
            .sum::<f64>()
    };
    let title = format!("pricing scan of {} byte columns, m = {m}", 3 * m);
    compare(
        &format!("{title}, in cache"),
        &[("one column at a time (before)", median_seconds(21, one)), ("four at a time", median_seconds(21, four))],
    );

    // The scan alone, each time right after a pass over an inverse of 8 m^2 bytes.
    let mut inverse = vec![1.0f64; m * m];
    let mut after_pass = |scan: &dyn Fn() -> f64| {
        let pass = |k: usize| {
            inverse.iter_mut().for_each(|x| *x += k as f64);
            std::hint::black_box(&inverse);
        };
        median_seconds_after(21, pass, scan)
    };
    let rows = [("one column at a time (before)", after_pass(&one)), ("four at a time", after_pass(&four))];
    compare(&format!("{title}, after a pass over a {} KB inverse", 8 * m * m / 1024), &rows);
}
