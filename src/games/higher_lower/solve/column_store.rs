//! The master's columns, stored as compactly as their entries allow.
//!
//! Why: pricing scans the working set (up to two and a half columns per row) at every
//! pivot, so near N = 1024 it reads megabytes per pivot and was a large share
//! of the master's time. Tree columns S_T(j) = d_T(j) + d_T(N + 1 - j) are
//! small integers, exact in one byte: a quarter of single precision's traffic
//! (docs/history.md#e153b05-cheaper-pivots-columns-in-bytes-a-fused-pass-a-single-precision-sketch).
//! Columns that are not (the cold start's coarse game averages rows, the exact
//! stage tilts its columns) keep single precision.

use super::kernels::{dot_f32, dot_u8, dot_u8_x4};

pub enum ColumnStore {
    /// Every column so far has integer entries in 0..=255.
    Bytes(Vec<Vec<u8>>),
    /// Some column has not; all are held in f32.
    Singles(Vec<Vec<f32>>),
}

impl ColumnStore {
    pub fn new() -> Self {
        ColumnStore::Bytes(Vec::new())
    }

    pub fn len(&self) -> usize {
        match self {
            ColumnStore::Bytes(columns) => columns.len(),
            ColumnStore::Singles(columns) => columns.len(),
        }
    }

    /// Appends a column; the first that bytes cannot hold exactly moves the
    /// store to single precision.
    pub fn push(&mut self, column: &[f64]) {
        let fits = |v: f64| (0.0..=255.0).contains(&v) && v.fract() == 0.0;
        if let ColumnStore::Bytes(columns) = self {
            if column.iter().all(|&v| fits(v)) {
                columns.push(column.iter().map(|&v| v as u8).collect());
                return;
            }
            let singles = columns.iter().map(|c| c.iter().map(|&v| f32::from(v)).collect()).collect();
            *self = ColumnStore::Singles(singles);
        }
        if let ColumnStore::Singles(columns) = self {
            columns.push(column.iter().map(|&v| v as f32).collect());
        }
    }

    /// sum_i x_i a_i for column c = a.
    pub fn dot(&self, c: usize, x: &[f64]) -> f64 {
        match self {
            ColumnStore::Bytes(columns) => dot_u8(x, &columns[c]),
            ColumnStore::Singles(columns) => dot_f32(x, &columns[c]),
        }
    }

    /// `dot(c, x)` for each c of `cs`, into `out` (cleared first), with the
    /// same bits: byte columns four at a time (`dot_u8_x4`).
    pub fn dots_into(&self, cs: &[usize], x: &[f64], out: &mut Vec<f64>) {
        out.clear();
        match self {
            ColumnStore::Bytes(columns) => {
                let mut groups = cs.chunks_exact(4);
                for g in groups.by_ref() {
                    out.extend(dot_u8_x4(x, [&columns[g[0]], &columns[g[1]], &columns[g[2]], &columns[g[3]]]));
                }
                out.extend(groups.remainder().iter().map(|&c| dot_u8(x, &columns[c])));
            }
            ColumnStore::Singles(columns) => out.extend(cs.iter().map(|&c| dot_f32(x, &columns[c]))),
        }
    }

    /// Column c in f64.
    pub fn widened(&self, c: usize) -> Vec<f64> {
        match self {
            ColumnStore::Bytes(columns) => columns[c].iter().map(|&v| f64::from(v)).collect(),
            ColumnStore::Singles(columns) => columns[c].iter().map(|&v| f64::from(v)).collect(),
        }
    }

    /// `factor` times column c, written into `out` (as long as the column).
    pub fn scaled_into(&self, c: usize, factor: f64, out: &mut [f64]) {
        match self {
            ColumnStore::Bytes(columns) => {
                out.iter_mut().zip(&columns[c]).for_each(|(o, &v)| *o = factor * f64::from(v))
            }
            ColumnStore::Singles(columns) => {
                out.iter_mut().zip(&columns[c]).for_each(|(o, &v)| *o = factor * f64::from(v))
            }
        }
    }

    /// y += factor times column c.
    pub fn add_scaled_to(&self, c: usize, factor: f64, y: &mut [f64]) {
        match self {
            ColumnStore::Bytes(columns) => {
                y.iter_mut().zip(&columns[c]).for_each(|(o, &v)| *o += factor * f64::from(v))
            }
            ColumnStore::Singles(columns) => {
                y.iter_mut().zip(&columns[c]).for_each(|(o, &v)| *o += factor * f64::from(v))
            }
        }
    }

    /// Column c in f32, written into `out` (the sketch's single-precision kernel reads it).
    pub fn single_into(&self, c: usize, out: &mut Vec<f32>) {
        out.clear();
        match self {
            ColumnStore::Bytes(columns) => out.extend(columns[c].iter().map(|&v| f32::from(v))),
            ColumnStore::Singles(columns) => out.extend_from_slice(&columns[c]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_columns_priced_four_at_a_time_give_the_same_bits() {
        let x: Vec<f64> = (0..37).map(|i| 1.0 / f64::from(i + 3)).collect();
        let mut store = ColumnStore::new();
        for t in 0..7u8 {
            store.push(&(0..37u8).map(|i| f64::from((i * 7 + t) % 40)).collect::<Vec<_>>());
        }
        let cs = [6, 1, 3, 0, 5, 2, 4];
        let mut sums = Vec::new();
        store.dots_into(&cs, &x, &mut sums);
        let one_by_one: Vec<u64> = cs.iter().map(|&c| store.dot(c, &x).to_bits()).collect();
        assert_eq!(sums.iter().map(|s| s.to_bits()).collect::<Vec<_>>(), one_by_one);
    }

    #[test]
    fn integer_columns_stay_in_bytes_until_one_does_not_fit() {
        let x = [0.5, -2.0, 3.25];
        let mut store = ColumnStore::new();
        store.push(&[1.0, 2.0, 255.0]);
        store.push(&[0.0, 7.0, 3.0]);
        assert!(matches!(store, ColumnStore::Bytes(_)));
        assert_eq!(store.dot(0, &x), 0.5 - 4.0 + 3.25 * 255.0);
        store.push(&[1.5, 2.0, 3.0]);
        assert!(matches!(store, ColumnStore::Singles(_)));
        store.push(&[256.0, 0.0, 1.0]);
        assert_eq!(store.len(), 4);
        assert_eq!(store.widened(1), vec![0.0, 7.0, 3.0]);
        assert_eq!(store.dot(2, &x), 0.75 - 4.0 + 9.75);
        let mut sums = Vec::new();
        store.dots_into(&[2, 0, 3], &x, &mut sums);
        assert_eq!(sums, vec![store.dot(2, &x), store.dot(0, &x), store.dot(3, &x)]);
        let mut single = Vec::new();
        store.single_into(3, &mut single);
        assert_eq!(single, vec![256.0, 0.0, 1.0]);
    }

    #[test]
    fn scaled_columns_are_the_widened_ones_times_the_factor_in_bytes_and_singles() {
        for columns in
            [vec![vec![1.0, 0.0, 9.0], vec![4.0, 2.0, 255.0]], vec![vec![1.5, 0.0, 9.0], vec![4.0, 2.0, 256.0]]]
        {
            let mut store = ColumnStore::new();
            columns.iter().for_each(|c| store.push(c));
            let mut out = [7.0; 3];
            store.scaled_into(1, 0.5, &mut out);
            assert_eq!(out.to_vec(), columns[1].iter().map(|v| 0.5 * v).collect::<Vec<_>>());
            let mut y = [1.0, 2.0, 3.0];
            store.add_scaled_to(0, -2.0, &mut y);
            assert_eq!(y.to_vec(), vec![1.0 - 2.0 * columns[0][0], 2.0, 3.0 - 2.0 * columns[0][2]]);
        }
    }
}
