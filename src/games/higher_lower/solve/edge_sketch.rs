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

use super::kernels::{dots_single, sub_scaled, sub_scaled_narrowed};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

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
}

impl EdgeSketch {
    /// The sketch of `inverse` (row-major m x m) with `rows` random rows,
    /// seeded so that solves are reproducible.
    pub fn new(inverse: &[f64], m: usize, rows: usize) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5ce7c4 + m as u64);
        let signs: Vec<f64> = (0..rows * m).map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 }).collect();
        let signs_by_column = (0..m * rows).map(|k| signs[(k % rows) * m + k / rows]).collect();
        let (z, single) = (vec![vec![0.0; m]; rows], vec![0.0; rows * m]);
        let mut sketch = EdgeSketch { rows, m, signs, signs_by_column, z, single };
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
        let rows = self.signs.chunks_exact(m).zip(&mut self.z).zip(self.single.chunks_exact_mut(m)).zip(u);
        for (((signs, z), single), u) in rows {
            let u = u - signs[r];
            if u != 0.0 {
                sub_scaled_narrowed(z, u, p, single);
            }
        }
    }

    /// Estimated |B^-1 e_j|^2 (the direction of slack j).
    pub fn slack_length2(&self, j: usize) -> f64 {
        self.z.iter().map(|z| z[j] * z[j]).sum::<f64>() / self.rows as f64
    }

    /// Estimated |B^-1 a|^2, in single precision: 32 candidates per pivot
    /// make it as much arithmetic as the pass over B^-1, and in f64 (widening
    /// the column) it was a large share of the master's time near N = 1024
    /// (docs/history.md#e153b05-cheaper-pivots-columns-in-bytes-a-fused-pass-a-single-precision-sketch).
    pub fn column_length2(&self, column: &[f32]) -> f64 {
        let mut products = vec![0.0f32; self.rows];
        dots_single(column, &self.single, &mut products);
        products.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>() / self.rows as f64
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
        for _ in 0..20 {
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
        let rebuilt = EdgeSketch::new(&inv, m, 4000);
        for (x, y) in sketch.sketch().iter().zip(rebuilt.sketch()) {
            assert!((x - y).abs() < 1e-9, "the updated sketch is S B^-1: {x} vs {y}");
        }
        // With many rows the estimates approach the true lengths (relative error ~ sqrt(2/k)).
        let column: Vec<f32> = (0..m).map(|i| (i % 4) as f32 + 1.0).collect();
        let exact: f64 =
            (0..m).map(|i| (0..m).map(|k| inv[i * m + k] * f64::from(column[k])).sum::<f64>().powi(2)).sum();
        let estimate = sketch.column_length2(&column);
        assert!((estimate / exact - 1.0).abs() < 0.15, "{estimate} vs {exact}");
        let exact_slack: f64 = (0..m).map(|i| inv[i * m + 2].powi(2)).sum();
        assert!((sketch.slack_length2(2) / exact_slack - 1.0).abs() < 0.15);
    }
}
