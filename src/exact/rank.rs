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

/// Columns of U a block of the elimination takes at once (8 and 32 were
/// slower at N = 900 and 1000).
const BLOCK: usize = 16;

/// sum_s l_s u[s][c] mod p for each of the block's columns c, with `u` row
/// by row (`BLOCK` residues a row, widened to 64 bits for the multiply) and
/// entries below p. Each l_s is read once for all the block's columns: the
/// multipliers of a row are the elimination's memory traffic (m^2 residues,
/// beyond the cache at N = 900), read once a block instead of once a column.
fn dot_block(l: &[u32], u: &[u64]) -> [u32; BLOCK] {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports the feature the function is compiled for.
        return unsafe { dot_block_avx2(l, u) };
    }
    dot_block_body(l, u)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dot_block_avx2(l: &[u32], u: &[u64]) -> [u32; BLOCK] {
    dot_block_body(l, u)
}

/// A product of residues is below 2^62, so four of them sum below 2^64 in a
/// lane before one fold (to below 2^34) is added to it; a lane overflows
/// only after 2^30 folds. U's entries are masked to 32 bits so that the
/// compiler multiplies 32 x 32 -> 64 bits (`vpmuludq`): with general 64-bit
/// products the elimination took twice as long.
#[inline(always)]
fn dot_block_body(l: &[u32], u: &[u64]) -> [u32; BLOCK] {
    let fold = |s: u64| (s & PRIME) + (s >> 31);
    let mut lanes = [0u64; BLOCK];
    for (ls, us) in l.chunks(4).zip(u.chunks(4 * BLOCK)) {
        let mut sums = [0u64; BLOCK];
        for (&x, row) in ls.iter().zip(us.chunks_exact(BLOCK)) {
            for c in 0..BLOCK {
                sums[c] += u64::from(x) * (row[c] & u64::from(u32::MAX));
            }
        }
        for c in 0..BLOCK {
            lanes[c] += fold(sums[c]);
        }
    }
    lanes.map(reduce)
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
/// Crout's left-looking order, `BLOCK` columns at a time: each row's entries
/// in the block, eliminated by the pivots found before it, are dot products of
/// the row's multipliers with U's rows on the block (`dot_block`, U by forward
/// substitution over the pivot rows), and only L and U's block are written
/// (left-looking was about twice as fast as updating the whole trailing
/// matrix at every pivot, at N = 900). Column by column the elimination read
/// every row's multipliers once a column and was bound by memory; a block
/// reads them once for sixteen columns, x3.5 at N = 1000
/// (docs/history.md#95254a8-the-faces-hull-ranks-sixteen-columns-at-a-time-the-1024-sweep-x104).
/// Within the block the columns are eliminated in turn, each pivot updating
/// the block's later columns. Among the rows not yet pivots, the first (in
/// input order) with a nonzero entry becomes the column's pivot; the
/// arithmetic is exact modulo p, so the order of the sums changes no pivot.
pub fn pivots_mod_p(rows: &[Vec<i64>]) -> Pivots {
    let (m, n) = (rows.len(), rows.first().map_or(0, Vec::len));
    let most = m.min(n);
    // The input column-major, residues modulo p.
    let columns: Vec<Vec<u32>> = (0..n).map(|j| rows.iter().map(|r| residue(r[j])).collect()).collect();
    // Row i's multipliers L[i][t] of the pivots t so far (for a pivot row: of the earlier pivots).
    let mut multipliers = vec![0u32; m * most];
    let mut free: Vec<usize> = (0..m).collect();
    let mut pivots = Pivots { rows: Vec::new(), cols: Vec::new() };
    // U[t][first + c] for the pivots t found before the block, `BLOCK` entries a row.
    let mut u = vec![0u64; most * BLOCK];
    // Each free row's entries in the block, eliminated so far (`BLOCK` a row).
    let mut residual = vec![0u32; m * BLOCK];
    for first in (0..n).step_by(BLOCK) {
        if pivots.rows.len() == most {
            break;
        }
        let block = &columns[first..n.min(first + BLOCK)];
        let rank = pivots.rows.len();
        // U on the block: row piv_t of A minus its earlier pivots' share.
        for (t, &row) in pivots.rows.iter().enumerate() {
            let share = dot_block(&multipliers[row * most..row * most + t], &u[..t * BLOCK]);
            for (c, column) in block.iter().enumerate() {
                u[t * BLOCK + c] = u64::from(sub(column[row], share[c]));
            }
        }
        for &row in &free {
            let share = dot_block(&multipliers[row * most..row * most + rank], &u[..rank * BLOCK]);
            for (c, column) in block.iter().enumerate() {
                residual[row * BLOCK + c] = sub(column[row], share[c]);
            }
        }
        for c in 0..block.len() {
            let Some(at) = free.iter().position(|&row| residual[row * BLOCK + c] != 0) else { continue };
            let pivot = free.remove(at);
            let rank = pivots.rows.len();
            let inverse = inverse(residual[pivot * BLOCK + c]);
            let pivot_row: [u32; BLOCK] = residual[pivot * BLOCK..(pivot + 1) * BLOCK].try_into().expect("a block");
            for &row in &free {
                let multiplier = mul(residual[row * BLOCK + c], inverse);
                multipliers[row * most + rank] = multiplier;
                for later in c + 1..block.len() {
                    let entry = &mut residual[row * BLOCK + later];
                    *entry = sub(*entry, mul(multiplier, pivot_row[later]));
                }
            }
            pivots.rows.push(pivot);
            pivots.cols.push(first + c);
        }
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
        for len in [0, 3, 4, 5, 8, 100, 1003] {
            // Residues of every size against plain sums in 128 bits.
            let l: Vec<u32> = (0..len as u64).map(|s| ((s * 2_654_435_761 + 17) % PRIME) as u32).collect();
            let u: Vec<u64> =
                (0..(len * BLOCK) as u64).map(|i| (PRIME - 1 - i * i % PRIME).min(PRIME - 1 - i % 3)).collect();
            let plain: [u32; BLOCK] = std::array::from_fn(|c| {
                let sum: u128 = (0..len).map(|s| u128::from(l[s]) * u128::from(u[s * BLOCK + c])).sum();
                (sum % u128::from(PRIME)) as u32
            });
            assert_eq!(dot_block(&l, &u), plain, "{len}");
            assert_eq!(dot_block(&l, &u), dot_block_body(&l, &u), "{len}");
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

    /// Right-looking elimination of the whole trailing matrix, the textbook
    /// form, with the same rule: each column's pivot is the first row (in
    /// input order) not yet a pivot with a nonzero entry.
    fn pivots_right_looking(rows: &[Vec<i64>]) -> (Vec<usize>, Vec<usize>) {
        let n = rows.first().map_or(0, Vec::len);
        let mut a: Vec<Vec<u32>> = rows.iter().map(|r| r.iter().map(|&x| residue(x)).collect()).collect();
        let mut free: Vec<usize> = (0..rows.len()).collect();
        let mut found = (Vec::new(), Vec::new());
        for col in 0..n {
            let Some(at) = free.iter().position(|&row| a[row][col] != 0) else { continue };
            let pivot = free.remove(at);
            let inverse = inverse(a[pivot][col]);
            for &row in &free {
                let multiplier = mul(a[row][col], inverse);
                let pivot_row = a[pivot].clone();
                for (entry, &p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                    *entry = sub(*entry, mul(multiplier, p));
                }
            }
            found.0.push(pivot);
            found.1.push(col);
        }
        found
    }

    proptest::proptest! {
        /// Blocks of columns (and rows dependent on earlier ones, zero
        /// columns, more rows than columns or fewer) give the pivots the
        /// textbook elimination gives.
        #[test]
        fn blocked_pivots_are_the_textbook_ones(
            (m, n) in (1usize..60, 1usize..70),
            seed in proptest::prelude::any::<u64>(),
            dependent in 0usize..20,
        ) {
            let entry = |i: usize, j: usize| ((seed ^ (i as u64 * 7919 + j as u64 * 104_729)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 60) as i64 - 4;
            let mut rows: Vec<Vec<i64>> = (0..m).map(|i| (0..n).map(|j| if j % 11 == 5 { 0 } else { entry(i, j) }).collect()).collect();
            for k in 0..dependent.min(m) {
                let (a, b) = (k * 5 % m, (k * 3 + 1) % m);
                let combined: Vec<i64> = rows[a].iter().zip(&rows[b]).map(|(x, y)| 2 * x - 3 * y).collect();
                rows.push(combined);
            }
            proptest::prop_assert_eq!(found(&pivots_mod_p(&rows)), pivots_right_looking(&rows));
        }
    }

    #[test]
    fn a_multiple_of_the_prime_looks_like_zero() {
        // Rank 2 over the rationals, 1 modulo p: the pivots are only a lower bound.
        let p = PRIME as i64;
        assert_eq!(found(&pivots_mod_p(&[vec![1, 1], vec![1, 1 + p]])), (vec![0], vec![0]));
    }
}
