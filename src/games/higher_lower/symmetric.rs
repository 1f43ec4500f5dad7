//! The symmetric reduction i <-> N+1-i (seed section 1.12). Both players may
//! play symmetric strategies, so Alice's strategies become the m = ceil(N/2)
//! pairs {i, N+1-i} (the middle key alone when N is odd) and a tree's column
//! is S_T(j) = d_T(j) + d_T(N+1-j), or 2 d_T(mid): twice the expected depth
//! against the pair. The symmetric game has value V_S = 2 V(N).

use super::tree::Tree;

#[derive(Debug, Clone, Copy)]
pub struct SymmetricGame {
    pub n: usize,
}

impl SymmetricGame {
    pub fn new(n: usize) -> Self {
        assert!(n >= 1);
        SymmetricGame { n }
    }

    /// Number of rows: Alice's symmetric strategies.
    pub fn rows(&self) -> usize {
        self.n.div_ceil(2)
    }

    /// Row of key k (1-based).
    pub fn row_of(&self, k: usize) -> usize {
        k.min(self.n + 1 - k) - 1
    }

    /// The integer column S_T.
    pub fn column(&self, tree: &Tree) -> Vec<u16> {
        let d = tree.depths();
        (0..self.rows()).map(|j| u16::from(d[j]) + u16::from(d[self.n - 1 - j])).collect()
    }

    /// The column S_T as floats, for the master.
    pub fn float_column(&self, tree: &Tree) -> Vec<f64> {
        self.column(tree).into_iter().map(f64::from).collect()
    }

    /// Key weights a with sum_k a_k d_T(k) = sum_j w_j S_T(j) for every tree:
    /// both keys of a pair get w_j, the middle key 2 w_mid.
    pub fn key_weights<W: Clone + std::ops::Add<Output = W>>(&self, w: &[W]) -> Vec<W> {
        (1..=self.n)
            .map(|k| {
                let j = self.row_of(k);
                if 2 * k == self.n + 1 { w[j].clone() + w[j].clone() } else { w[j].clone() }
            })
            .collect()
    }

    /// Alice's full strategy from a distribution beta over the rows: each key
    /// of a pair gets beta_j / 2, the middle key beta_mid.
    pub fn alice<W: Clone + std::ops::Div<Output = W> + From<u8>>(&self, beta: &[W]) -> Vec<W> {
        (1..=self.n)
            .map(|k| {
                let j = self.row_of(k);
                if 2 * k == self.n + 1 { beta[j].clone() } else { beta[j].clone() / W::from(2) }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::higher_lower::tree::all_trees;

    #[test]
    fn columns_and_weights_agree() {
        for n in 1..=7 {
            let game = SymmetricGame::new(n);
            let w: Vec<f64> = (0..game.rows()).map(|j| (j * 7 % 5) as f64 + 0.5).collect();
            let a = game.key_weights(&w);
            for tree in all_trees(n) {
                let by_rows: f64 = game.column(&tree).iter().zip(&w).map(|(s, w)| f64::from(*s) * w).sum();
                let by_keys: f64 = tree.depths().iter().zip(&a).map(|(d, a)| f64::from(*d) * a).sum();
                assert_eq!(by_rows, by_keys);
                assert_eq!(game.column(&tree), game.column(&tree.mirror()));
            }
        }
    }

    #[test]
    fn seeds_n4_columns() {
        // Section 1.13, matrix A_s: tree T1 = depths (1, 2, 3, 4) has column (5, 5).
        let game = SymmetricGame::new(4);
        assert_eq!(game.column(&Tree::from_depths(vec![1, 2, 3, 4]).unwrap()), vec![5, 5]);
        let alpha = game.alice(&[0.5, 0.5]);
        assert_eq!(alpha, vec![0.25; 4]);
    }
}
