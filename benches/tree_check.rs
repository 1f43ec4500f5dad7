//! The check of a depth vector (`Tree::from_depths`), which every certificate
//! runs on each tree of Bob's mixture: a thousand trees on N = 1016 keys,
//! checked interval by interval (before: a pass over each subtree's keys per
//! level) and in one pass (nearest shallower keys on a stack), side by side;
//! both must give the same verdicts. Medians of 7 runs.
//!
//!   cargo bench --bench tree_check

mod common;
use common::{compare, median_seconds};
use gamesweep::games::higher_lower::tree::Tree;

/// Interval by interval: each subtree's shallowest key must be unique and at its level.
fn check_by_intervals(depths: &[u8]) -> bool {
    let mut stack = vec![(0usize, depths.len(), 1u8)];
    while let Some((start, len, level)) = stack.pop() {
        if len == 0 {
            continue;
        }
        let part = &depths[start..start + len];
        let mut roots = part.iter().enumerate().filter(|(_, d)| **d == level).map(|(i, _)| i);
        let (Some(root), None) = (roots.next(), roots.next()) else { return false };
        if part.iter().min() != Some(&level) {
            return false;
        }
        stack.push((start, root, level + 1));
        stack.push((start + root + 1, len - root - 1, level + 1));
    }
    true
}

fn main() {
    let n = 1016;
    // Tree k: each interval's root drawn from a hash of (k, a, b) within its
    // middle fifth (trees about as tall as Bob's optimal ones, 10-12 levels);
    // every seventh has one key moved a level down.
    let vectors: Vec<Vec<u8>> = (0..1000usize)
        .map(|k| {
            let tree = Tree::from_roots(n, |a, b| {
                let h = (k * 1_000_003 + a * 7919 + b).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20;
                let len = b - a + 1;
                a + 2 * len / 5 + h % len.div_ceil(5).min(len - 2 * len / 5)
            });
            let mut depths = tree.depths().to_vec();
            if k % 7 == 0 {
                depths[k % n] += 1;
            }
            depths
        })
        .collect();
    let tallest = vectors.iter().map(|d| d.iter().max().copied().unwrap_or(0)).max().unwrap_or(0);
    println!("tallest tree: {tallest} levels");
    let by_intervals: Vec<bool> = vectors.iter().map(|d| check_by_intervals(d)).collect();
    let one_pass: Vec<bool> = vectors.iter().map(|d| Tree::from_depths(d.clone()).is_ok()).collect();
    assert_eq!(by_intervals, one_pass, "the same verdicts");

    compare(
        &format!("1000 depth vectors on N = {n} keys checked"),
        &[
            (
                "interval by interval (before)",
                median_seconds(7, || vectors.iter().filter(|d| check_by_intervals(d)).count()),
            ),
            (
                "one pass",
                median_seconds(7, || vectors.iter().filter(|d| Tree::from_depths(d.to_vec()).is_ok()).count()),
            ),
        ],
    );
}
