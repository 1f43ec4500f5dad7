//! The master's rebuild of its basis inverse (`invert_in_place`, Gauss-Jordan
//! in place) on the shape of the hard N: m = 508 symmetric tree columns
//! S_T(j) = d_T(j) + d_T(N + 1 - j) of random search trees on N = 1016 keys.
//! One step at a time, every row updated at every step (before), and in
//! blocks of steps whose updates outside the block wait for one pass
//! (`invert_in_place`), side by side; both must give the same bits. Medians of
//! 7 runs.
//!
//!   cargo bench --bench basis_inverse
//!   HL_KERNEL_M=1009 cargo bench --bench basis_inverse   # the rows of N = 2017

mod common;
use common::{compare, median_seconds};
use gamesweep::games::higher_lower::solve::kernels::{invert_in_place, sub_scaled};
use gamesweep::games::higher_lower::tree::Tree;

/// Gauss-Jordan in place one step at a time: `invert_in_place` before blocks.
fn invert_step_by_step(a: &mut [f64], m: usize) {
    let mut order: Vec<usize> = (0..m).collect();
    let mut pivot_row = vec![0.0; m];
    for col in 0..m {
        let p = (col..m).max_by(|&x, &y| a[x * m + col].abs().total_cmp(&a[y * m + col].abs())).unwrap();
        if p != col {
            let (upper, lower) = a.split_at_mut(p * m);
            upper[col * m..(col + 1) * m].swap_with_slice(&mut lower[..m]);
            order.swap(p, col);
        }
        let row = &mut a[col * m..(col + 1) * m];
        let pivot = row[col];
        row[col] = 1.0;
        for v in row.iter_mut() {
            *v /= pivot;
        }
        pivot_row.copy_from_slice(row);
        for (i, row) in a.chunks_exact_mut(m).enumerate() {
            let factor = row[col];
            if i != col && factor != 0.0 {
                row[col] = 0.0;
                sub_scaled(row, factor, &pivot_row);
            }
        }
    }
    for row in a.chunks_exact_mut(m) {
        for (k, &v) in row.iter().enumerate() {
            pivot_row[order[k]] = v;
        }
        row.copy_from_slice(&pivot_row);
    }
}

fn main() {
    let m: usize = std::env::var("HL_KERNEL_M").map_or(508, |v| v.parse().expect("a row count"));
    let n = 2 * m;
    // Basis column k: a search tree whose roots are drawn from a hash of (k, a, b).
    let mut basis = vec![0.0; m * m];
    for k in 0..m {
        let tree = Tree::from_roots(n, |a, b| {
            let h = (k * 1_000_003 + a * 7919 + b).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20;
            a + h % (b - a + 1)
        });
        let depths = tree.depths();
        for j in 0..m {
            basis[j * m + k] = f64::from(depths[j]) + f64::from(depths[n - 1 - j]);
        }
    }
    let mut blocked = basis.clone();
    invert_in_place(&mut blocked, m).expect("a nonsingular basis");
    let mut stepped = basis.clone();
    invert_step_by_step(&mut stepped, m);
    assert!(blocked.iter().zip(&stepped).all(|(x, y)| x.to_bits() == y.to_bits()), "the same bits");

    let time = |invert: fn(&mut [f64], usize)| {
        let mut a = basis.clone();
        median_seconds(7, || {
            a.copy_from_slice(&basis);
            invert(&mut a, m);
        })
    };
    compare(
        &format!("the basis inverse rebuilt, m = {m} tree columns ({} KB)", 8 * m * m / 1024),
        &[
            ("one step at a time (before)", time(invert_step_by_step)),
            ("blocks of steps", time(|a, m| invert_in_place(a, m).expect("nonsingular"))),
        ],
    );
}
