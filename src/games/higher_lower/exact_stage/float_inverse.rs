//! The basis inverse in floating point for the exact stage's walks: its
//! duals choose the entering trees, and it preconditions the double-double
//! solves (`double_walk`). Built by Gauss-Jordan, kept by product-form
//! updates, rebuilt by the walks now and then.

use crate::games::higher_lower::solve::BasicVar;
use crate::games::higher_lower::solve::kernels::{dot, invert_in_place, sub_scaled};
use crate::games::higher_lower::symmetric::SymmetricGame;

/// B^-1 in floating point, row-major, kept by product-form updates.
pub struct FloatInverse {
    m: usize,
    rows: Vec<f64>,
}

impl FloatInverse {
    /// Gauss-Jordan with partial pivoting; `None` if B looks singular.
    pub fn new(game: &SymmetricGame, basis: &[BasicVar]) -> Option<Self> {
        let m = game.rows();
        let mut rows = vec![0.0; m * m];
        for (k, var) in basis.iter().enumerate() {
            match var {
                BasicVar::Slack(j) => rows[j * m + k] = 1.0,
                BasicVar::Tree(t) => {
                    for (i, s) in game.column(t).into_iter().enumerate() {
                        rows[i * m + k] = f64::from(s);
                    }
                }
            }
        }
        invert_in_place(&mut rows, m).ok()?;
        Some(FloatInverse { m, rows })
    }

    /// B^-1 v.
    pub fn times(&self, v: &[f64]) -> Vec<f64> {
        self.rows.chunks_exact(self.m).map(|row| dot(row, v)).collect()
    }

    /// w = c_B' B^-1: the sum of the rows at the trees' positions.
    pub fn duals(&self, basis: &[BasicVar]) -> Vec<f64> {
        let mut w = vec![0.0; self.m];
        for (row, var) in self.rows.chunks_exact(self.m).zip(basis) {
            if matches!(var, BasicVar::Tree(_)) {
                for (wj, b) in w.iter_mut().zip(row) {
                    *wj += b;
                }
            }
        }
        w
    }

    /// The inverse after the variable with direction d takes position r.
    pub fn exchange(&mut self, r: usize, d: &[f64]) {
        let m = self.m;
        let pivot_row: Vec<f64> = self.rows[r * m..(r + 1) * m].iter().map(|b| b / d[r]).collect();
        for (i, row) in self.rows.chunks_exact_mut(m).enumerate() {
            if i == r {
                row.copy_from_slice(&pivot_row);
            } else if d[i] != 0.0 {
                sub_scaled(row, d[i], &pivot_row);
            }
        }
    }
}
