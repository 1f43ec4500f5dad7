//! Rank of an integer matrix modulo a prime: a lower bound on its rank over
//! the rationals, so a full rank modulo p proves full rank exactly (the
//! converse can fail only when p divides every maximal minor). The pivots
//! of the same elimination pick a square submatrix that is nonsingular over
//! the rationals, the place to start an exact solve.

/// The Mersenne prime 2^31 - 1: residues fit in 32 bits, so the
/// elimination's dot products multiply in 64-bit lanes that vectorise (four
/// per AVX2 instruction) and its multipliers take half the memory of 61-bit
/// residues. A smaller prime only makes a rank drop modulo p likelier (p must
/// divide every maximal minor), and such a drop only weakens a bound, never
/// a proof.
const PRIME: u64 = (1 << 31) - 1;

/// t mod p for any t < 2^64 (two Mersenne folds, then one subtraction).
#[inline(always)]
fn reduce(t: u64) -> u32 {
    let s = (t & PRIME) + (t >> 31);
    let s = (s & PRIME) + (s >> 31);
    (if s >= PRIME { s - PRIME } else { s }) as u32
}

/// a * b mod p.
fn mul(a: u32, b: u32) -> u32 {
    reduce(u64::from(a) * u64::from(b))
}

/// sum a_i b_i mod p for entries < p.
fn dot(a: &[u32], b: &[u32]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports the feature the function is compiled for.
        return unsafe { dot_avx2(a, b) };
    }
    dot_body(a, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dot_avx2(a: &[u32], b: &[u32]) -> u32 {
    dot_body(a, b)
}

/// Eight lanes, each product folded once (below 2^34) before it is added, so
/// a lane overflows only after 2^30 terms.
#[inline(always)]
fn dot_body(a: &[u32], b: &[u32]) -> u32 {
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

/// a - b mod p for a, b < p.
fn sub(a: u32, b: u32) -> u32 {
    if a >= b { a - b } else { (u64::from(a) + PRIME - u64::from(b)) as u32 }
}

fn inverse(a: u32) -> u32 {
    // Fermat: a^(p-2).
    let (mut base, mut exp, mut acc) = (a, PRIME - 2, 1u32);
    while exp > 0 {
        if exp & 1 == 1 {
            acc = mul(acc, base);
        }
        base = mul(base, base);
        exp >>= 1;
    }
    acc
}

/// The rank modulo 2^31 - 1 of `rows` (all of equal length).
pub fn rank_mod_p(rows: &[Vec<i64>]) -> usize {
    pivots_mod_p(rows).rows.len()
}

/// Where Gaussian elimination modulo p found its pivots, as indices into the
/// input (in elimination order, `rows[i]` pivoted on `cols[i]`). The rows are
/// a maximal set independent modulo p, and the square submatrix on `rows` x
/// `cols` is nonsingular modulo p: its determinant is an integer that p does
/// not divide, so it is nonsingular over the rationals too, and an exact
/// solver can work on it. (Rows that look dependent modulo p may still be
/// independent over the rationals: nothing is proven about the others.)
#[derive(Debug, Clone)]
pub struct Pivots {
    pub rows: Vec<usize>,
    pub cols: Vec<usize>,
}

/// x mod p in 0..p.
fn residue(x: i64) -> u32 {
    x.rem_euclid(PRIME as i64) as u32
}

/// Elimination modulo 2^31 - 1 of `rows` (all of equal length), recording
/// which input rows and columns carry the pivots.
///
/// Crout's left-looking order, column by column: each entry of the current
/// column, eliminated by the pivots so far, is one dot product of a row's
/// multipliers with the column of U (`dot`), and only L and the current
/// column of U are written (about twice as fast as updating the whole
/// trailing matrix at every pivot, at N = 900).
/// Among the rows not yet pivots, the first (in input order) with a nonzero
/// entry becomes the column's pivot.
pub fn pivots_mod_p(rows: &[Vec<i64>]) -> Pivots {
    let (m, n) = (rows.len(), rows.first().map_or(0, Vec::len));
    let most = m.min(n);
    // The input column-major, residues modulo p.
    let columns: Vec<Vec<u32>> = (0..n).map(|j| rows.iter().map(|r| residue(r[j])).collect()).collect();
    // Row i's multipliers L[i][t] of the pivots t so far (for a pivot row: of the earlier pivots).
    let mut multipliers = vec![0u32; m * most];
    let mut free: Vec<usize> = (0..m).collect();
    let mut pivots = Pivots { rows: Vec::new(), cols: Vec::new() };
    let mut u = Vec::with_capacity(most);
    let mut residual = vec![0u32; m];
    for (col, column) in columns.iter().enumerate() {
        let rank = pivots.rows.len();
        // U[t][col] for the pivots so far: row piv_t of A minus its earlier pivots' share.
        u.clear();
        for (t, &row) in pivots.rows.iter().enumerate() {
            u.push(sub(column[row], dot(&multipliers[row * most..row * most + t], &u)));
        }
        // (With every row a pivot, only U's column is left to fill in.)
        for &row in &free {
            residual[row] = sub(column[row], dot(&multipliers[row * most..row * most + rank], &u));
        }
        let Some(at) = free.iter().position(|&row| residual[row] != 0) else { continue };
        let pivot = free.remove(at);
        let inverse = inverse(residual[pivot]);
        for &row in &free {
            multipliers[row * most + rank] = mul(residual[row], inverse);
        }
        pivots.rows.push(pivot);
        pivots.cols.push(col);
    }
    pivots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mersenne_arithmetic_is_exact() {
        let p = PRIME as u32;
        for (a, b) in [(p - 1, p - 1), (1 << 30, 12345), (987_654_321, 1_234_567_891)] {
            assert_eq!(u64::from(mul(a, b)), u64::from(a) * u64::from(b) % PRIME);
        }
        assert_eq!(mul(inverse(12345), 12345), 1);
        for t in [u64::MAX, PRIME, PRIME * PRIME, (1 << 62) + 5, 0] {
            assert_eq!(u64::from(reduce(t)), t % PRIME, "{t}");
        }
        for len in [0, 7, 8, 100, 1003] {
            let big = vec![p - 1; len];
            let expected = (PRIME - 1) * (PRIME - 1) % PRIME * len as u64 % PRIME;
            assert_eq!(u64::from(dot(&big, &big)), expected, "{len}");
            assert_eq!(dot(&big, &big), dot_body(&big, &big));
        }
        assert_eq!((sub(3, 5), sub(5, 3), sub(0, p - 1)), (p - 2, 2, 1));
    }

    #[test]
    fn ranks() {
        assert_eq!(rank_mod_p(&[vec![1, 2], vec![2, 4]]), 1);
        assert_eq!(rank_mod_p(&[vec![1, 2], vec![3, 4]]), 2);
        assert_eq!(rank_mod_p(&[vec![0, 0, 0]]), 0);
        assert_eq!(rank_mod_p(&[vec![1, 0, -1], vec![0, 1, 1], vec![1, 1, 0], vec![2, -3, -5]]), 2);
        assert_eq!(rank_mod_p(&[]), 0);
    }

    /// The determinant of a small square integer matrix (Laplace expansion).
    fn det(m: &[Vec<i128>]) -> i128 {
        if m.is_empty() {
            return 1;
        }
        (0..m.len())
            .map(|j| {
                let minor: Vec<Vec<i128>> = m[1..]
                    .iter()
                    .map(|r| r.iter().enumerate().filter(|(c, _)| *c != j).map(|(_, x)| *x).collect())
                    .collect();
                let sign = if j % 2 == 0 { 1 } else { -1 };
                sign * m[0][j] * det(&minor)
            })
            .sum()
    }

    fn found(p: &Pivots) -> (Vec<usize>, Vec<usize>) {
        (p.rows.clone(), p.cols.clone())
    }

    fn submatrix(rows: &[Vec<i64>], p: &Pivots) -> Vec<Vec<i128>> {
        p.rows.iter().map(|&i| p.cols.iter().map(|&j| i128::from(rows[i][j])).collect()).collect()
    }

    #[test]
    fn pivots_skip_dependent_rows_and_zero_columns() {
        // Row 2 = row 0 + row 1, row 3 = 2 row 0 - 3 row 1; column 0 is zero.
        let rows = vec![vec![0, 1, 0, -1], vec![0, 0, 1, 1], vec![0, 1, 1, 0], vec![0, 2, -3, -5]];
        let p = pivots_mod_p(&rows);
        assert_eq!(found(&p), (vec![0, 1], vec![1, 2]));
        assert_ne!(det(&submatrix(&rows, &p)), 0);

        // A zero first row and a dependent row ahead of the independent one:
        // the pivot rows are the input's rows 1 and 3, whatever order they end up in.
        let rows = vec![vec![0, 0, 0], vec![2, 4, 6], vec![1, 2, 3], vec![0, 0, 5]];
        let p = pivots_mod_p(&rows);
        assert_eq!(found(&p), (vec![1, 3], vec![0, 2]));
        assert_ne!(det(&submatrix(&rows, &p)), 0);

        // A full-rank square matrix whose pivots need a row swap: every row and column pivots.
        let rows = vec![vec![0, 1, 2], vec![3, 0, 1], vec![1, 1, 0]];
        let mut p = pivots_mod_p(&rows);
        assert_eq!(p.cols, vec![0, 1, 2]);
        p.rows.sort_unstable();
        assert_eq!(p.rows, vec![0, 1, 2]);

        assert_eq!(found(&pivots_mod_p(&[vec![0, 0], vec![0, 0]])), (vec![], vec![]));
        assert_eq!(found(&pivots_mod_p(&[])), (vec![], vec![]));
    }

    #[test]
    fn pivot_submatrices_are_nonsingular() {
        // Wide matrices with rank-deficient rows built as combinations: the
        // pivot submatrix is always square, as large as the rank, and has a
        // nonzero determinant over the integers.
        let base = [vec![2, 1, 3, 2, 0, 1], vec![2, 3, 1, 2, 1, 0], vec![1, 1, 1, 1, 1, 1], vec![0, 0, 4, -1, 3, 3]];
        for pick in 0..16u32 {
            let mut rows: Vec<Vec<i64>> =
                base.iter().enumerate().filter(|(k, _)| pick >> k & 1 == 1).map(|(_, r)| r.clone()).collect();
            let independent = rows.len();
            if let (Some(a), Some(b)) = (rows.first().cloned(), rows.last().cloned()) {
                rows.push(a.iter().zip(&b).map(|(x, y)| 3 * x - y).collect());
            }
            let p = pivots_mod_p(&rows);
            assert_eq!((p.rows.len(), p.cols.len()), (independent, independent), "pick {pick:b}");
            assert_ne!(det(&submatrix(&rows, &p)), 0, "pick {pick:b}");
            assert_eq!(rank_mod_p(&rows), independent);
        }
    }

    #[test]
    fn a_multiple_of_the_prime_looks_like_zero() {
        // Rank 2 over the rationals, 1 modulo p: the pivots are only a lower bound.
        let p = PRIME as i64;
        assert_eq!(found(&pivots_mod_p(&[vec![1, 1], vec![1, 1 + p]])), (vec![0], vec![0]));
    }
}
