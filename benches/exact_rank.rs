//! The elimination modulo 2^31 - 1 that gives the face's hull (`pivots_mod_p`)
//! on the shape the widening meets near N = 900: the depths of 900 search
//! trees on 900 keys and a row of ones. Column by column, a dot product a
//! row (before), and sixteen columns at a time (`exact::pivots_mod_p`), side by
//! side; both must find the same pivots. Medians of 7 runs.
//!
//!   cargo bench --bench exact_rank
//!   HL_RANK_N=450 cargo bench --bench exact_rank

mod common;
use common::{compare, median_seconds};
use gamesweep::exact::pivots_mod_p;
use gamesweep::games::higher_lower::tree::Tree;

const PRIME: u64 = (1 << 31) - 1;

fn reduce(t: u64) -> u32 {
    let s = (t & PRIME) + (t >> 31);
    let s = (s & PRIME) + (s >> 31);
    (if s >= PRIME { s - PRIME } else { s }) as u32
}

/// The kernel before: eight lanes, each product folded before it is added.
#[target_feature(enable = "avx2")]
fn dot_folding_each(a: &[u32], b: &[u32]) -> u32 {
    let fold = |x: u32, y: u32| {
        let product = u64::from(x) * u64::from(y);
        (product & PRIME) + (product >> 31)
    };
    let mut lanes = [0u64; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: u64 = a8.remainder().iter().zip(b8.remainder()).map(|(&x, &y)| fold(x, y)).sum();
    for (x, y) in a8.zip(b8) {
        for k in 0..8 {
            lanes[k] += fold(x[k], y[k]);
        }
    }
    reduce(lanes.iter().map(|&lane| u64::from(reduce(lane))).sum::<u64>() + tail)
}

fn sub(a: u32, b: u32) -> u32 {
    if a >= b { a - b } else { (u64::from(a) + PRIME - u64::from(b)) as u32 }
}

fn inverse(a: u32) -> u32 {
    let (mut base, mut exp, mut acc) = (a, PRIME - 2, 1u32);
    while exp > 0 {
        if exp & 1 == 1 {
            acc = reduce(u64::from(acc) * u64::from(base));
        }
        base = reduce(u64::from(base) * u64::from(base));
        exp >>= 1;
    }
    acc
}

/// The Crout elimination before: one column at a time, a dot product a row.
fn pivots_before(rows: &[Vec<i64>]) -> (Vec<usize>, Vec<usize>) {
    let dot = |a: &[u32], b: &[u32]| unsafe { dot_folding_each(a, b) };
    let (m, n) = (rows.len(), rows[0].len());
    let most = m.min(n);
    let columns: Vec<Vec<u32>> =
        (0..n).map(|j| rows.iter().map(|r| r[j].rem_euclid(PRIME as i64) as u32).collect()).collect();
    let mut multipliers = vec![0u32; m * most];
    let mut free: Vec<usize> = (0..m).collect();
    let (mut pivot_rows, mut pivot_cols) = (Vec::new(), Vec::new());
    let mut u = Vec::with_capacity(most);
    let mut residual = vec![0u32; m];
    for (col, column) in columns.iter().enumerate() {
        let rank = pivot_rows.len();
        u.clear();
        for (t, &row) in pivot_rows.iter().enumerate() {
            u.push(sub(column[row], dot(&multipliers[row * most..row * most + t], &u)));
        }
        for &row in &free {
            residual[row] = sub(column[row], dot(&multipliers[row * most..row * most + rank], &u));
        }
        let Some(at) = free.iter().position(|&row| residual[row] != 0) else { continue };
        let pivot = free.remove(at);
        let inverse = inverse(residual[pivot]);
        for &row in &free {
            multipliers[row * most + rank] = reduce(u64::from(residual[row]) * u64::from(inverse));
        }
        pivot_rows.push(pivot);
        pivot_cols.push(col);
    }
    (pivot_rows, pivot_cols)
}

fn main() {
    assert!(std::is_x86_feature_detected!("avx2"), "the kernels compared are AVX2's");
    let n: usize = std::env::var("HL_RANK_N").map_or(900, |v| v.parse().expect("a key count"));
    let mut rows: Vec<Vec<i64>> = (0..n as u64)
        .map(|seed| {
            let tree =
                Tree::from_roots(n, |a, b| a + ((seed as usize + 7).wrapping_mul(a * 31 + b * 17) % (b - a + 1)));
            tree.depths().iter().map(|&d| i64::from(d)).collect()
        })
        .collect();
    rows.push(vec![1; n]);
    let after = pivots_mod_p(&rows);
    assert_eq!(pivots_before(&rows), (after.rows.clone(), after.cols.clone()), "the same pivots");
    println!("{n} trees on {n} keys and a row of ones: rank {} modulo 2^31 - 1", after.rows.len());
    compare(
        "pivots_mod_p",
        &[
            ("a column at a time (before)", median_seconds(7, || pivots_before(&rows))),
            ("sixteen columns at a time", median_seconds(7, || pivots_mod_p(&rows))),
        ],
    );
}
