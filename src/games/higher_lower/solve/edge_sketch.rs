//! A random sketch of the master's basis inverse, Z = S B^-1 with S a fixed
//! k x m matrix of random signs, from which the squared length of any
//! direction B^-1 a is estimated as |Z a|^2 / k (Johnson-Lindenstrauss).
//!
//! Why: the steepest-edge rule needs |B^-1 a| for each entering candidate.
//! Computed exactly, each candidate costs a pass over the m x m inverse, which
//! near N = 1024 is far past the cache, so only four could be measured; the
//! sketch (k x m entries) is kept through every pivot in O(km) and measures a
//! candidate in O(km), so many candidates are compared and only the chosen
//! one's direction is computed (docs/history.md#e5c89da-sketched-steepest-edge).
//!
//! A candidate measured a few pivots ago is brought up to date rather than
//! measured again: each pivot changes Z by a rank-one term u p', so Z a moves
//! by u (p . a), one dot product of the column per pivot missed where a fresh
//! measurement reads all k rows of Z.

use super::column_store::ColumnStore;
use super::kernels::{dots_single, sub_scaled, sub_scaled_narrowed};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// Pivots over which a column's Z a is updated rather than measured afresh:
/// an update costs a dot product of the column per pivot missed, a fresh
/// measurement about as much as eight of them (`perf` near N = 930), and the
/// pivots since a candidate's last measurement are spread out from 1 to
/// hundreds, so eight saves the most.
const HISTORY: usize = 8;

/// `EdgeSketch::measured_at` of a column never measured (or measured before a rebuild).
const NEVER: u64 = u64::MAX;

pub struct EdgeSketch {
    rows: usize,
    m: usize,
    /// S, row-major rows x m, entries +-1.
    signs: Vec<f64>,
    /// S transposed (m x rows), so that S d is summed for all rows in one
    /// sweep of d, each row's sum in the same order as one at a time.
    signs_by_column: Vec<f64>,
    /// Z = S B^-1, by rows.
    z: Vec<Vec<f64>>,
    /// Z in single precision, row-major: what the estimates read (Z itself
    /// stays in f64 so thousands of updates do not drift).
    single: Vec<f32>,
    /// Pivots followed since the sketch was built.
    pivots: u64,
    /// The last `HISTORY` pivots' terms u p', oldest first: Z lost u p'.
    history_u: VecDeque<Vec<f64>>,
    history_p: VecDeque<Vec<f64>>,
    /// Z a of the columns measured, `rows` per column, as of `measured_at`.
    products: Vec<f64>,
    /// The pivot count at which each column's `products` hold (`NEVER`: none).
    measured_at: Vec<u64>,
}

impl EdgeSketch {
    /// The sketch of `inverse` (row-major m x m) with `rows` random rows,
    /// seeded so that solves are reproducible.
    pub fn new(inverse: &[f64], m: usize, rows: usize) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5ce7c4 + m as u64);
        let signs: Vec<f64> = (0..rows * m).map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 }).collect();
        let signs_by_column = (0..m * rows).map(|k| signs[(k % rows) * m + k / rows]).collect();
        let (z, single) = (vec![vec![0.0; m]; rows], vec![0.0; rows * m]);
        let (history_u, history_p) = (VecDeque::with_capacity(HISTORY), VecDeque::with_capacity(HISTORY));
        let (products, measured_at) = (Vec::new(), Vec::new());
        let mut sketch = EdgeSketch {
            rows,
            m,
            signs,
            signs_by_column,
            z,
            single,
            pivots: 0,
            history_u,
            history_p,
            products,
            measured_at,
        };
        sketch.rebuild(inverse);
        sketch
    }

    /// Z = S B^-1 from scratch (after the inverse is rebuilt).
    pub fn rebuild(&mut self, inverse: &[f64]) {
        let m = self.m;
        for (signs, z) in self.signs.chunks_exact(m).zip(&mut self.z) {
            z.fill(0.0);
            for (sign, row) in signs.iter().zip(inverse.chunks_exact(m)) {
                sub_scaled(z, -sign, row);
            }
        }
        self.refresh_single();
        // A rebuilt Z differs from the updated one by its drift: measure afresh.
        self.measured_at.fill(NEVER);
        self.history_u.clear();
        self.history_p.clear();
    }

    fn refresh_single(&mut self) {
        for (single, z) in self.single.chunks_exact_mut(self.m).zip(&self.z) {
            for (s, x) in single.iter_mut().zip(z) {
                *s = *x as f32;
            }
        }
    }

    /// Follows a pivot on row r with direction d = B^-1 a and new row r of
    /// the inverse p = (old row r) / d_r: the new inverse is B^-1 - (d - e_r) p,
    /// so Z loses (S d - S e_r) p.
    pub fn update(&mut self, r: usize, d: &[f64], p: &[f64]) {
        let m = self.m;
        // u = S d, one sum per row in lanes side by side (a row at a time, each
        // sum was a chain of dependent additions).
        let mut u = vec![-0.0; self.rows];
        for (signs, x) in self.signs_by_column.chunks_exact(self.rows).zip(d) {
            for (u, s) in u.iter_mut().zip(signs) {
                *u += s * x;
            }
        }
        for (u, signs) in u.iter_mut().zip(self.signs.chunks_exact(m)) {
            *u -= signs[r];
        }
        let rows = self.z.iter_mut().zip(self.single.chunks_exact_mut(m)).zip(&u);
        for ((z, single), &u) in rows {
            if u != 0.0 {
                sub_scaled_narrowed(z, u, p, single);
            }
        }
        // The oldest p's buffer is reused for the newest.
        let mut kept_p = Vec::new();
        if self.history_p.len() == HISTORY {
            self.history_u.pop_front();
            kept_p = self.history_p.pop_front().unwrap_or_default();
        }
        kept_p.clear();
        kept_p.extend_from_slice(p);
        self.history_u.push_back(u);
        self.history_p.push_back(kept_p);
        self.pivots += 1;
    }

    /// Estimated |B^-1 e_j|^2 (the direction of slack j).
    pub fn slack_length2(&self, j: usize) -> f64 {
        self.z.iter().map(|z| z[j] * z[j]).sum::<f64>() / self.rows as f64
    }

    /// Estimated |B^-1 a|^2 for column c of `columns`: Z a brought up to date
    /// from its last measurement when that is at most `HISTORY` pivots old,
    /// else measured in single precision (32 candidates per pivot make a
    /// fresh measurement as much arithmetic as the pass over B^-1, and in f64
    /// it was a large share of the master's time near N = 1024,
    /// docs/history.md#e153b05-cheaper-pivots-columns-in-bytes-a-fused-pass-a-single-precision-sketch).
    /// `single` is scratch for the column in f32.
    pub fn column_length2(&mut self, c: usize, columns: &ColumnStore, single: &mut Vec<f32>) -> f64 {
        let rows = self.rows;
        if self.measured_at.len() <= c {
            self.measured_at.resize(columns.len().max(c + 1), NEVER);
            self.products.resize(self.measured_at.len() * rows, 0.0);
        }
        let missed = self.pivots.wrapping_sub(self.measured_at[c]);
        let za = &mut self.products[c * rows..(c + 1) * rows];
        if missed <= self.history_p.len() as u64 {
            let skip = self.history_p.len() - missed as usize;
            for (u, p) in self.history_u.iter().zip(&self.history_p).skip(skip) {
                let pa = columns.dot(c, p);
                for (z, u) in za.iter_mut().zip(u) {
                    *z -= u * pa;
                }
            }
        } else {
            columns.single_into(c, single);
            let mut fresh = vec![0.0f32; rows];
            dots_single(single, &self.single, &mut fresh);
            for (z, x) in za.iter_mut().zip(fresh) {
                *z = f64::from(x);
            }
        }
        self.measured_at[c] = self.pivots;
        za.iter().map(|x| x * x).sum::<f64>() / rows as f64
    }

    #[cfg(test)]
    fn sketch(&self) -> Vec<f64> {
        self.z.concat()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// B^-1 of a small dense matrix by Gauss-Jordan (no pivoting needed for
    /// the diagonally dominant test matrices).
    fn inverse(b: &[f64], m: usize) -> Vec<f64> {
        let mut a = b.to_vec();
        let mut inv: Vec<f64> = (0..m * m).map(|k| f64::from(u8::from(k / m == k % m))).collect();
        for col in 0..m {
            let pivot = a[col * m + col];
            for k in 0..m {
                a[col * m + k] /= pivot;
                inv[col * m + k] /= pivot;
            }
            for i in (0..m).filter(|&i| i != col) {
                let f = a[i * m + col];
                for k in 0..m {
                    a[i * m + k] -= f * a[col * m + k];
                    inv[i * m + k] -= f * inv[col * m + k];
                }
            }
        }
        inv
    }

    #[test]
    fn the_sketch_follows_the_inverse_through_pivots_and_estimates_lengths() {
        let m = 9;
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        // B = column-major basis columns, stored row-major as b[i * m + k] (row i, column k).
        let mut b: Vec<f64> =
            (0..m * m).map(|k| if k / m == k % m { 8.0 } else { rng.random_range(0..3) as f64 }).collect();
        let mut inv = inverse(&b, m);
        let mut sketch = EdgeSketch::new(&inv, m, 4000);
        let mut columns = ColumnStore::new();
        // Column 0 is measured two pivots before the end (then brought up to date), column 1
        // ten before (then measured afresh), column 2 only at the end.
        for k in 0..3 {
            columns.push(&(0..m).map(|i| ((i + k) % 4 + 1) as f64).collect::<Vec<_>>());
        }
        let mut single = Vec::new();
        for pivot in 0..20 {
            match pivot {
                10 => _ = sketch.column_length2(1, &columns, &mut single),
                18 => _ = sketch.column_length2(0, &columns, &mut single),
                _ => {}
            }
            // Replace basis column r by a new column a (kept nonsingular by its diagonal entry).
            let r = rng.random_range(0..m);
            let a: Vec<f64> = (0..m).map(|i| if i == r { 8.0 } else { rng.random_range(0..3) as f64 }).collect();
            let d: Vec<f64> = (0..m).map(|i| (0..m).map(|k| inv[i * m + k] * a[k]).sum()).collect();
            let p: Vec<f64> = (0..m).map(|k| inv[r * m + k] / d[r]).collect();
            sketch.update(r, &d, &p);
            for i in 0..m {
                b[i * m + r] = a[i];
            }
            inv = inverse(&b, m);
        }
        let mut rebuilt = EdgeSketch::new(&inv, m, 4000);
        for (x, y) in sketch.sketch().iter().zip(rebuilt.sketch()) {
            assert!((x - y).abs() < 1e-9, "the updated sketch is S B^-1: {x} vs {y}");
        }
        for c in 0..3 {
            // Up to date or fresh, each estimate is the rebuilt sketch's (to single precision).
            let (estimate, fresh) =
                (sketch.column_length2(c, &columns, &mut single), rebuilt.column_length2(c, &columns, &mut single));
            assert!((estimate / fresh - 1.0).abs() < 1e-5, "column {c}: {estimate} vs {fresh}");
            // With many rows the estimates approach the true lengths (relative error ~ sqrt(2/k)).
            let column: Vec<f64> = (0..m).map(|i| ((i + c) % 4 + 1) as f64).collect();
            let exact: f64 = (0..m).map(|i| (0..m).map(|k| inv[i * m + k] * column[k]).sum::<f64>().powi(2)).sum();
            assert!((estimate / exact - 1.0).abs() < 0.15, "{estimate} vs {exact}");
        }
        assert_eq!(sketch.measured_at[..3], [20, 20, 20]);
        let exact_slack: f64 = (0..m).map(|i| inv[i * m + 2].powi(2)).sum();
        assert!((sketch.slack_length2(2) / exact_slack - 1.0).abs() < 0.15);
    }
}
