//! Exact solutions of square integer systems `B x = b` by Dixon's p-adic lifting.
//!
//! The solution of an integer system has numerators and denominators as large as `det(B)`, which for
//! the bases met here runs to hundreds or thousands of digits. Rational Gaussian elimination pays for those digits
//! in every one of its `m^3` operations. Dixon's method instead factors `B` once modulo a word-size
//! prime `p` and then, one word-size step at a time, lifts the solution to `B x ≡ b (mod p^k)`: each
//! step is an `O(m^2)` triangular solve modulo `p` plus an exact update of a residual that stays
//! word-sized (a big right-hand side's residual shrinks by a digit per step until it is). Big integers
//! only appear at the end, when the p-adic approximation is turned into fractions by rational
//! reconstruction and the result is checked exactly. The number of steps is
//! output-sensitive: it grows until the reconstruction verifies, with a hard cap from Hadamard's bound.

use malachite::base::num::arithmetic::traits::{
    AddMulAssign, DivExact, DivExactAssign, FloorSqrt, Gcd, Mod, Pow, Sign,
};
use malachite::base::num::basic::traits::{One, Zero};
use malachite::base::num::conversion::traits::{ExactFrom, RoundingFrom};
use malachite::base::num::logic::traits::SignificantBits;
use malachite::base::rounding_modes::RoundingMode;
use malachite::{Integer, Natural, Rational};
use std::cmp::Ordering;

/// Primes just below `2^62`, tried in turn until `B` is nonsingular modulo one of them.
///
/// Below `2^62` keeps Montgomery reduction free of overflow (`4 p^2 < p 2^64`) and the residual of the
/// lifting inside `i128`. Being above `2^61`, each lifting step gains more than 61 bits.
const PRIMES: [u64; 3] = [(1 << 62) - 57, (1 << 62) - 87, (1 << 62) - 117];

/// Lower bound on `log2 p` for every prime in [`PRIMES`].
const MIN_PRIME_BITS: f64 = 61.0;

/// Column exchanges kept as eta factors before `B` is factored afresh: each adds `O(m)` to every
/// lifting step, a new factorization costs `O(m^3)`.
const MAX_ETAS: usize = 32;

/// Precision of the first reconstruction attempt: enough for numerators and denominators of 64 bits.
const INITIAL_BITS: f64 = 128.0;

/// After a failed attempt the number of lifting steps grows by a quarter (and at least one), so the
/// lifting overshoots what the solution needs by at most 25%. Doubling would waste up to half the
/// steps; the extra attempts are cheap because a premature one folds and reconstructs only the first
/// few components before it fails.
const STEP_GROWTH_DIVISOR: usize = 4;

/// Reconstructions seeded with a given denominator before the lifting falls back to the plain
/// one: the first has the digits `d x` needs unless `|x|` is large, and a failed one costs little
/// (it fails at its first components, or at the exact check).
const HINTED_ATTEMPTS: usize = 3;

/// Bits left for a factor of x's denominator that a seed lacks: `d x` is reconstructed as a
/// fraction whose denominator is at most `2^SEED_SLACK_BITS`, its numerator taking the rest.
const SEED_SLACK_BITS: u64 = 64;

/// Why a matrix cannot be handed to [`PadicSolver`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PadicError {
    /// `B` is singular over the rationals. Reported when `B` is singular modulo each of the three fixed
    /// 62-bit primes in `PRIMES`; a nonsingular `B` would have to have a determinant divisible by their
    /// product (about `2^186`), which does not happen unless a matrix is built for it.
    Singular,
    /// The rows do not all have as many entries as there are rows.
    NotSquare,
    /// `m * max|B_ij|` exceeds `2^64`, so the lifting residual would not fit in `i128`.
    EntriesTooLarge,
}

impl std::fmt::Display for PadicError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PadicError::Singular => "matrix is singular",
            PadicError::NotSquare => "matrix is not square",
            PadicError::EntriesTooLarge => "matrix entries are too large for the lifting residual",
        })
    }
}

impl std::error::Error for PadicError {}

/// An exact solution: `x_i = numerators[i] / denominator`, with `denominator > 0` and
/// `gcd(all numerators, denominator) = 1` (the smallest common denominator).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactSolution {
    pub numerators: Vec<Integer>,
    pub denominator: Natural,
}

impl ExactSolution {
    /// The same vector over its least common denominator.
    pub fn reduced(self) -> ExactSolution {
        let mut g = self.denominator.clone();
        for n in &self.numerators {
            if g == 1u32 {
                break;
            }
            g = g.gcd(n.unsigned_abs_ref());
        }
        if g == 1u32 {
            return self;
        }
        let g_signed = Integer::from(&g);
        ExactSolution {
            numerators: self.numerators.into_iter().map(|n| n.div_exact(&g_signed)).collect(),
            denominator: self.denominator.div_exact(g),
        }
    }

    /// The `i`-th component as a reduced rational.
    pub fn component(&self, i: usize) -> Rational {
        Rational::from_integers(self.numerators[i].clone(), Integer::from(self.denominator.clone()))
    }

    /// Every component rounded to floating point (numerators and denominator shifted into range
    /// first, so components of thousands of digits stay finite).
    pub fn to_f64s(&self) -> Vec<f64> {
        let bits = self.numerators.iter().map(SignificantBits::significant_bits).max().unwrap_or(0);
        let shift = bits.max(self.denominator.significant_bits()).saturating_sub(900);
        let near = |v: &Integer| f64::rounding_from(&(v >> shift), RoundingMode::Nearest).0;
        let denominator = near(&Integer::from(&self.denominator));
        self.numerators.iter().map(|n| near(n) / denominator).collect()
    }
}

/// Arithmetic modulo an odd prime `p < 2^62` in Montgomery form with `R = 2^64`.
///
/// Factors are stored in Montgomery form (`aR mod p`) and vectors as plain residues, so that one
/// reduction of a product `aR * v` yields the plain product `a v` with no conversions while solving.
#[derive(Debug, Clone, Copy)]
struct Field {
    p: u64,
    /// `-p^{-1} mod 2^64`.
    neg_inv: u64,
    /// `R^2 mod p`, to move plain residues into Montgomery form.
    r2: u64,
}

impl Field {
    fn new(p: u64) -> Self {
        debug_assert!(p % 2 == 1 && p < 1 << 62);
        // Newton's iteration doubles the correct low bits of p^{-1} mod 2^64, starting from 3 bits.
        let mut inv = p;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
        let r1 = ((1u128 << 64) % u128::from(p)) as u64;
        let r2 = ((u128::from(r1) * u128::from(r1)) % u128::from(p)) as u64;
        Field { p, neg_inv: inv.wrapping_neg(), r2 }
    }

    /// `t R^{-1} mod p` for `t < p 2^64`.
    #[inline(always)]
    fn redc(self, t: u128) -> u64 {
        let q = (t as u64).wrapping_mul(self.neg_inv);
        // t + q p < p 2^64 + 2^64 p < 2^127, and the sum is divisible by 2^64.
        let u = ((t + u128::from(q) * u128::from(self.p)) >> 64) as u64;
        self.reduce_once(u)
    }

    #[inline(always)]
    fn mul(self, a: u64, b: u64) -> u64 {
        self.redc(u128::from(a) * u128::from(b))
    }

    /// `u mod p` for `u < 2p`. Residues are random, so this is written to compile without a branch.
    #[inline(always)]
    fn reduce_once(self, u: u64) -> u64 {
        u.min(u.wrapping_sub(self.p))
    }

    #[inline(always)]
    fn add(self, a: u64, b: u64) -> u64 {
        self.reduce_once(a + b)
    }

    #[inline(always)]
    fn sub(self, a: u64, b: u64) -> u64 {
        self.reduce_once(a.wrapping_sub(b).wrapping_add(self.p))
    }

    fn to_montgomery(self, a: u64) -> u64 {
        self.mul(a, self.r2)
    }

    /// Plain residue of an integer.
    fn reduce(self, a: i128) -> u64 {
        a.rem_euclid(i128::from(self.p)) as u64
    }

    /// Plain residue of a big integer.
    fn reduce_integer(self, a: &Integer) -> u64 {
        u64::exact_from(&a.mod_op(Integer::from(self.p)))
    }

    /// Montgomery form of `a^{-1}` from the Montgomery form of a nonzero `a`.
    fn inverse(self, a_mont: u64) -> u64 {
        let a = self.redc(u128::from(a_mont));
        let (mut r0, mut r1) = (i128::from(self.p), i128::from(a));
        let (mut s0, mut s1) = (0i128, 1i128);
        while r1 != 0 {
            let q = r0 / r1;
            (r0, r1) = (r1, r0 - q * r1);
            (s0, s1) = (s1, s0 - q * s1);
        }
        debug_assert_eq!(r0, 1, "inverse of a non-unit");
        self.to_montgomery(self.reduce(s0))
    }

    /// `sum a[i] b[i] R^{-1} mod p`: the plain residue of the dot product when `a` is in Montgomery
    /// form and `b` plain, its Montgomery form when both are. Four products stay below `p 2^64`
    /// (`4 p < 2^64`), so they are summed in `u128` and reduced once.
    #[inline]
    fn dot(self, a: &[u64], b: &[u64]) -> u64 {
        let mut total = 0u64;
        let mut a = a.chunks_exact(4);
        let mut b = b.chunks_exact(4);
        for (x, y) in (&mut a).zip(&mut b) {
            let t = u128::from(x[0]) * u128::from(y[0])
                + u128::from(x[1]) * u128::from(y[1])
                + u128::from(x[2]) * u128::from(y[2])
                + u128::from(x[3]) * u128::from(y[3]);
            total = self.add(total, self.redc(t));
        }
        let t: u128 = a.remainder().iter().zip(b.remainder()).map(|(&x, &y)| u128::from(x) * u128::from(y)).sum();
        self.add(total, self.redc(t))
    }
}

/// `P B = L U` modulo a prime, with `L` unit lower triangular.
struct Factorization {
    field: Field,
    /// `L` below and `U` on and above the diagonal, row-major, Montgomery form.
    lu: Vec<u64>,
    /// The transpose of `lu`, so that solves with `U^T` and `L^T` also run along rows.
    lu_t: Vec<u64>,
    /// Montgomery form of `1 / U_ii`.
    diag_inv: Vec<u64>,
    /// Row `i` of `P B` is row `perm[i]` of `B`.
    perm: Vec<usize>,
    /// The column exchanges since the factorization, oldest first (`PadicSolver::replace_column`).
    etas: Vec<Eta>,
}

/// One column exchange in product form: basis position `r` took a column whose direction
/// `B^-1 a` modulo `p` was `d`, so the new inverse is `E B^-1` with `E` the identity but for
/// column `r`, which is `-d_i / d_r` off the diagonal and `1 / d_r` on it.
struct Eta {
    r: usize,
    /// `d` in Montgomery form.
    d: Vec<u64>,
    /// Montgomery form of `1 / d_r`.
    dr_inv: u64,
}

impl Factorization {
    /// Crout's left-looking elimination modulo `p` with row pivoting; `None` if `B` is singular
    /// modulo `p`.
    ///
    /// Every entry of `L` and `U` is one dot product, so products are summed in `u128` and reduced
    /// once per four terms instead of once per update as in right-looking elimination.
    fn new(matrix: &[i64], m: usize, p: u64) -> Option<Self> {
        let field = Field::new(p);
        // Row i holds L[i][..k] left of column k once column k is reached, and B's entries after it.
        let mut a: Vec<u64> = matrix.iter().map(|&x| field.to_montgomery(field.reduce(i128::from(x)))).collect();
        // Row k holds column k of U, from U[0][k] to U[k][k]: the layout of the transposed factor.
        let mut lu_t = vec![0u64; m * m];
        let mut perm: Vec<usize> = (0..m).collect();
        let mut diag_inv = Vec::with_capacity(m);
        let mut column = vec![0u64; m];
        for k in 0..m {
            let u = &mut lu_t[k * m..(k + 1) * m];
            for i in 0..k {
                u[i] = field.sub(a[i * m + k], field.dot(&a[i * m..i * m + i], &u[..i]));
            }
            for i in k..m {
                column[i] = field.sub(a[i * m + k], field.dot(&a[i * m..i * m + k], &u[..k]));
            }
            let pivot = (k..m).find(|&i| column[i] != 0)?;
            if pivot != k {
                let (upper, lower) = a.split_at_mut(pivot * m);
                upper[k * m..(k + 1) * m].swap_with_slice(&mut lower[..m]);
                perm.swap(k, pivot);
                column.swap(k, pivot);
            }
            u[k] = column[k];
            let inv = field.inverse(column[k]);
            diag_inv.push(inv);
            for i in k + 1..m {
                a[i * m + k] = field.mul(column[i], inv);
            }
        }
        // Put U above the diagonal of `a` and L below the diagonal of `lu_t`.
        for k in 0..m {
            for i in 0..k {
                a[i * m + k] = lu_t[k * m + i];
                lu_t[i * m + k] = a[k * m + i];
            }
            a[k * m + k] = lu_t[k * m + k];
        }
        Some(Factorization { field, lu: a, lu_t, diag_inv, perm, etas: Vec::new() })
    }

    /// Overwrites `v` with the solution of `T v' = v` for the `triangle` of
    /// `factor`, with its `diagonal` (U's, divided by, or a unit one).
    fn substitute(&self, factor: &[u64], triangle: Triangle, diagonal: Diagonal, v: &mut [u64]) {
        let m = v.len();
        let field = self.field;
        let step = |i: usize, v: &mut [u64]| {
            let row = &factor[i * m..(i + 1) * m];
            let s = match triangle {
                Triangle::Lower => field.dot(&row[..i], &v[..i]),
                Triangle::Upper => field.dot(&row[i + 1..], &v[i + 1..]),
            };
            let t = field.sub(v[i], s);
            v[i] = match diagonal {
                Diagonal::U => field.mul(self.diag_inv[i], t),
                Diagonal::Unit => t,
            };
        };
        match triangle {
            Triangle::Lower => (0..m).for_each(|i| step(i, v)),
            Triangle::Upper => (0..m).rev().for_each(|i| step(i, v)),
        }
    }

    /// Solves `B x ≡ c` (or `B^T x ≡ c`) modulo `p` for plain residues `c`, `B` the factored
    /// matrix with its column exchanges: `B^-1 = E_k .. E_1 (LU)^-1 P` and
    /// `B^-T = P^T (LU)^-T E_1^T .. E_k^T`.
    fn solve(&self, side: Side, c: &[u64]) -> Vec<u64> {
        let field = self.field;
        match side {
            Side::Normal => {
                // L U x = P c.
                let mut v: Vec<u64> = self.perm.iter().map(|&i| c[i]).collect();
                self.substitute(&self.lu, Triangle::Lower, Diagonal::Unit, &mut v);
                self.substitute(&self.lu, Triangle::Upper, Diagonal::U, &mut v);
                for eta in &self.etas {
                    let vr = field.mul(eta.dr_inv, v[eta.r]);
                    for (vi, &di) in v.iter_mut().zip(&eta.d) {
                        *vi = field.sub(*vi, field.mul(di, vr));
                    }
                    v[eta.r] = vr;
                }
                v
            }
            Side::Transposed => {
                // E^T changes entry r only: (c_r - sum_{i != r} d_i c_i) / d_r.
                let mut c = c.to_vec();
                for eta in self.etas.iter().rev() {
                    let others = field.sub(field.dot(&eta.d, &c), field.mul(eta.d[eta.r], c[eta.r]));
                    c[eta.r] = field.mul(eta.dr_inv, field.sub(c[eta.r], others));
                }
                // B^T = U^T L^T P: solve U^T z = c, then L^T w = z, and x = P^T w.
                let mut v = c;
                self.substitute(&self.lu_t, Triangle::Lower, Diagonal::U, &mut v);
                self.substitute(&self.lu_t, Triangle::Upper, Diagonal::Unit, &mut v);
                let mut x = vec![0; v.len()];
                for (&i, &w) in self.perm.iter().zip(&v) {
                    x[i] = w;
                }
                x
            }
        }
    }
}

fn transpose<T: Copy>(a: &[T], m: usize) -> Vec<T> {
    (0..m * m).map(|k| a[(k % m) * m + k / m]).collect()
}

/// Bits below which a residual entry is carried in a word (`i128` with room for the lifting).
const WORD_BITS: u64 = 62;

/// A word-sized right-hand side as big integers.
fn integers(rhs: &[i64]) -> Vec<Integer> {
    rhs.iter().map(|&b| Integer::from(b)).collect()
}

/// Which of `B x = b` and `B^T x = b` is being solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Normal,
    Transposed,
}

/// Which triangle of a factor a substitution solves with.
#[derive(Debug, Clone, Copy)]
enum Triangle {
    Lower,
    Upper,
}

/// The diagonal of a triangular solve: U's (each step divides by U_ii) or a unit one.
#[derive(Debug, Clone, Copy)]
enum Diagonal {
    U,
    Unit,
}

/// A square integer matrix factored modulo a prime, ready to solve `B x = b` and `B^T y = c` exactly.
///
/// [`PadicSolver::new`] costs `O(m^3)` word operations; each solve costs `O(m^2)` per lifting step,
/// with about `2 log_p |det B|` steps, plus the big-integer reconstruction and exact check.
pub struct PadicSolver {
    m: usize,
    /// `B`, row-major.
    rows: Vec<i64>,
    /// `B^T`, row-major, so both residual updates run along rows.
    cols: Vec<i64>,
    /// Squared Euclidean norms of the rows and of the columns of `B`, for Hadamard's bound.
    row_norms2: Vec<f64>,
    col_norms2: Vec<f64>,
    factorization: Factorization,
}

/// What one solve did, for tests and measurements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SolveStats {
    lifting_steps: usize,
    attempts: usize,
}

impl PadicSolver {
    /// Factors `matrix` (row-major, `m` rows of `m` entries) modulo a suitable prime.
    ///
    /// Needs `m * max|B_ij| <= 2^64`, which keeps every residual of the lifting inside `i128`.
    pub fn new(matrix: &[Vec<i64>]) -> Result<Self, PadicError> {
        let m = matrix.len();
        if matrix.iter().any(|row| row.len() != m) {
            return Err(PadicError::NotSquare);
        }
        let max_entry = matrix.iter().flatten().map(|x| u128::from(x.unsigned_abs())).max().unwrap_or(0);
        if max_entry * m as u128 > 1 << 64 {
            return Err(PadicError::EntriesTooLarge);
        }
        let rows: Vec<i64> = matrix.iter().flatten().copied().collect();
        let cols = transpose(&rows, m);
        let norms2 = |a: &[i64]| -> Vec<f64> {
            a.chunks(m.max(1)).map(|r| r.iter().map(|&x| (x as f64) * (x as f64)).sum()).collect()
        };
        let (row_norms2, col_norms2) = (norms2(&rows), norms2(&cols));
        let factorization = PRIMES.iter().find_map(|&p| Factorization::new(&rows, m, p)).ok_or(PadicError::Singular)?;
        Ok(PadicSolver { m, rows, cols, row_norms2, col_norms2, factorization })
    }

    /// Replaces column `r` of `B` by `column` (a simplex pivot): an eta factor modulo `p` instead
    /// of a new factorization, which was a third of an exact pivot of the higher-lower exact
    /// stage; after `MAX_ETAS` exchanges `B` is factored afresh. Fails if the new `B` is singular.
    pub fn replace_column(&mut self, r: usize, column: &[i64]) -> Result<(), PadicError> {
        let m = self.m;
        assert!(r < m && column.len() == m, "column {r} of {} entries for a {m}x{m} matrix", column.len());
        let max_entry = column.iter().chain(&self.rows).map(|x| u128::from(x.unsigned_abs())).max().unwrap_or(0);
        if max_entry * m as u128 > 1 << 64 {
            return Err(PadicError::EntriesTooLarge);
        }
        for (i, &a) in column.iter().enumerate() {
            let old = self.rows[i * m + r] as f64;
            self.row_norms2[i] += (a as f64) * (a as f64) - old * old;
            self.rows[i * m + r] = a;
            self.cols[r * m + i] = a;
        }
        self.col_norms2[r] = column.iter().map(|&a| (a as f64) * (a as f64)).sum();
        let field = self.factorization.field;
        let residues: Vec<u64> = column.iter().map(|&a| field.reduce(i128::from(a))).collect();
        let d = self.factorization.solve(Side::Normal, &residues);
        if d[r] == 0 || self.factorization.etas.len() >= MAX_ETAS {
            self.factorization =
                PRIMES.iter().find_map(|&p| Factorization::new(&self.rows, m, p)).ok_or(PadicError::Singular)?;
            return Ok(());
        }
        let d: Vec<u64> = d.into_iter().map(|x| field.to_montgomery(x)).collect();
        let dr_inv = field.inverse(d[r]);
        self.factorization.etas.push(Eta { r, d, dr_inv });
        Ok(())
    }

    /// Solves `B x = rhs` exactly.
    ///
    /// # Panics
    /// If `rhs` does not have one entry per row of `B`.
    pub fn solve(&self, rhs: &[i64]) -> ExactSolution {
        self.solve_side(Side::Normal, &integers(rhs)).0
    }

    /// Solves `B x = rhs` exactly where a multiple `d` of x's denominator is likely known, up to a
    /// small factor: another solve's with the same `B` (by Cramer's rule every solution's
    /// denominator divides det B, and another's is usually det B or a small part short of it).
    /// Then `d x` has a denominator of a few bits, which lifting to about its numerators' bits
    /// recovers, where the plain reconstruction needs the bits of numerator and denominator
    /// together: about half the steps. Where `d` is no such multiple the lifting goes on to the
    /// plain reconstruction, so the answer is `solve`'s.
    pub fn solve_with_denominator(&self, rhs: &[i64], d: &Natural) -> ExactSolution {
        self.lift(Side::Normal, &integers(rhs), Some(d)).0
    }

    /// Solves `B^T y = rhs` exactly, with the same factorization.
    ///
    /// # Panics
    /// If `rhs` does not have one entry per column of `B`.
    pub fn solve_transposed(&self, rhs: &[i64]) -> ExactSolution {
        self.solve_side(Side::Transposed, &integers(rhs)).0
    }

    /// Solves `B^T y = rhs` exactly for a right-hand side of any size: one
    /// solve of `sum_i c_i v_i` instead of one per `v_i`. The lifting first
    /// carries a big residual, which each step shortens by a digit, until it
    /// fits a word; the steps then cost what a word-sized right-hand side's do.
    pub fn solve_transposed_integer(&self, rhs: &[Integer]) -> ExactSolution {
        self.solve_side(Side::Transposed, rhs).0
    }

    /// The operator of `side` as rows, with their squared norms.
    fn operator(&self, side: Side) -> (&[i64], &[f64]) {
        match side {
            Side::Normal => (&self.rows, &self.row_norms2),
            Side::Transposed => (&self.cols, &self.col_norms2),
        }
    }

    /// Lifting steps after which reconstruction cannot fail.
    ///
    /// By Cramer's rule and Hadamard's inequality every solution component is `c_j / det(A)` with
    /// `|c_j|, |det(A)| <= H = prod_i sqrt(|a_i|^2 + b_i^2)` over the rows `a_i` of the operator `A`.
    /// With a common denominator `d | det(A)` found so far, `d x_j = n / e` has `|n| <= H` and
    /// `d e <= H`, so once `p^k >= 2 (H + 1)^2 + 1` the balanced bound `floor(sqrt((p^k - 1) / 2))`
    /// admits every true numerator and denominator and makes them unique. A few spare bits absorb the
    /// rounding of the floating-point logarithms.
    fn step_cap(&self, side: Side, rhs: &[Integer]) -> usize {
        let (_, norms2) = self.operator(side);
        // log2 sqrt(n + b^2) <= max(log2 sqrt(n), log2 |b|) + 1/2, with log2 |b| < its bits.
        let log2_row = |n: f64, b: &Integer| match f64::rounding_from(b, RoundingMode::Nearest).0 {
            b if b.is_finite() => 0.5 * (n + b * b).log2(),
            _ => (0.5 * n.log2()).max(b.significant_bits() as f64) + 0.5,
        };
        let log2_h: f64 = norms2.iter().zip(rhs).map(|(&n, b)| log2_row(n, b)).sum();
        ((2.0 * log2_h + 8.0) / MIN_PRIME_BITS).ceil() as usize
    }

    fn solve_side(&self, side: Side, rhs: &[Integer]) -> (ExactSolution, SolveStats) {
        self.lift(side, rhs, None)
    }

    /// Dixon's lifting; where a `seed` (a likely multiple of x's denominator) is given, the first
    /// `HINTED_ATTEMPTS` reconstructions start from it (`reconstruct`).
    fn lift(&self, side: Side, rhs: &[Integer], seed: Option<&Natural>) -> (ExactSolution, SolveStats) {
        let m = self.m;
        assert_eq!(rhs.len(), m, "right-hand side has {} entries for a {m}x{m} matrix", rhs.len());
        if m == 0 {
            let empty = ExactSolution { numerators: Vec::new(), denominator: Natural::ONE };
            return (empty, SolveStats { lifting_steps: 0, attempts: 0 });
        }
        let (operator, _) = self.operator(side);
        let field = self.factorization.field;
        let p = i128::from(field.p);
        let cap = self.step_cap(side, rhs);

        // With K = max(|b|, m max|B_ij|) <= 2^64 and digits below p, |r| <= K holds after every step
        // (|r - A x| <= K + m max|B_ij| (p - 1) <= K p), and K p < 2^127 fits in i128. The residual is
        // exactly divisible by p because the digits x solve A x ≡ r (mod p). A right-hand side beyond
        // 2^62 is first lifted with a big residual, until every entry is below 2^62.
        let mut big: Option<Vec<Integer>> = rhs.iter().any(|b| b.significant_bits() > WORD_BITS).then(|| rhs.to_vec());
        let mut residual: Vec<i128> = match big {
            Some(_) => vec![0; m],
            None => rhs.iter().map(|b| i128::from(i64::exact_from(b))).collect(),
        };
        let mut approximation = PAdic::new(field.p, m);
        // The solution's numerators are about as long as the right-hand side's entries, at least, and
        // reconstruction needs twice their bits.
        let rhs_bits = rhs.iter().map(|b| b.significant_bits()).max().unwrap_or(0) as f64;
        let initial_bits = match seed {
            // d x: about d's bits and the right-hand side's, a word to spare and the room for a
            // factor of the denominator that d lacks.
            Some(d) => d.significant_bits() as f64 + rhs_bits + 64.0 + SEED_SLACK_BITS as f64,
            None => INITIAL_BITS.max(2.0 * rhs_bits),
        };
        let mut target = ((initial_bits / MIN_PRIME_BITS).ceil() as usize).clamp(1, cap);
        let mut attempts = 0;
        loop {
            while approximation.steps() < target {
                let c: Vec<u64> = match &big {
                    Some(big) => big.iter().map(|r| field.reduce_integer(r)).collect(),
                    None => residual.iter().map(|&r| field.reduce(r)).collect(),
                };
                let x = self.factorization.solve(side, &c);
                // Digits are below 2^62, so they are also valid i64.
                let ax =
                    |a: &[i64]| -> i128 { a.iter().zip(&x).map(|(&a, &x)| i128::from(a) * i128::from(x as i64)).sum() };
                match &mut big {
                    Some(entries) => {
                        let p = Integer::from(field.p);
                        for (r, a) in entries.iter_mut().zip(operator.chunks_exact(m)) {
                            *r -= Integer::from(ax(a));
                            r.div_exact_assign(&p);
                        }
                        if entries.iter().all(|r| r.significant_bits() <= WORD_BITS) {
                            residual = entries.iter().map(|r| i128::from(i64::exact_from(r))).collect();
                            big = None;
                        }
                    }
                    None => {
                        for (r, a) in residual.iter_mut().zip(operator.chunks_exact(m)) {
                            let t = *r - ax(a);
                            debug_assert_eq!(t % p, 0, "lifting residual not divisible by p");
                            *r = t / p;
                        }
                    }
                }
                approximation.push(&x);
            }
            attempts += 1;
            let seeded = seed.filter(|_| attempts <= HINTED_ATTEMPTS);
            let mut solution = self.reconstruct(operator, &mut approximation, rhs, seeded);
            if solution.is_none() && seeded.is_some() && target == cap {
                // Hadamard's bound suffices for the plain reconstruction, not for a wrong seed's.
                solution = self.reconstruct(operator, &mut approximation, rhs, None);
            }
            if let Some(solution) = solution {
                return (solution, SolveStats { lifting_steps: target, attempts });
            }
            assert!(target < cap, "p-adic lifting reached Hadamard's bound ({cap} steps) without a verified solution");
            target = (target + (target / STEP_GROWTH_DIVISOR).max(1)).min(cap);
        }
    }

    /// Vector rational reconstruction of the p-adic approximation, verified exactly; `None` if it
    /// fails.
    ///
    /// Components are reconstructed in turn after multiplying by the common denominator found so
    /// far, so after the first few they are integers that the reconstruction returns at once. The
    /// common denominator must stay within the balanced bound, so the denominator budget left for later
    /// components shrinks; an attempt made with too few digits therefore usually fails within the first
    /// two or three components, having folded only those. With a `seed`, the common denominator starts
    /// at it and the bounds are unbalanced: numerators may take all but `SEED_SLACK_BITS` of the
    /// digits, the factors found on top of the seed the rest (uniqueness needs `2 N D < p^k` either way).
    fn reconstruct(
        &self,
        operator: &[i64],
        approximation: &mut PAdic,
        rhs: &[Integer],
        seed: Option<&Natural>,
    ) -> Option<ExactSolution> {
        let modulus = approximation.modulus().clone();
        let half = (&modulus - Natural::ONE) >> 1u32;
        let (numerator_bound, factor_bound) = match seed {
            Some(_) => {
                // No more than half the digits, so that a short approximation keeps both bounds >= 1.
                let slack = (Natural::ONE << SEED_SLACK_BITS).min((&half).floor_sqrt());
                (&half / &slack, slack)
            }
            None => {
                let bound = half.floor_sqrt();
                (bound.clone(), bound)
            }
        };
        let mut denominator = seed.cloned().unwrap_or(Natural::ONE);
        // The factors found on top of the seed, and what is left of their bound.
        let mut found = Natural::ONE;
        let mut budget = factor_bound.clone();
        // (sign, numerator, new denominator factor) of denominator-so-far times each component.
        let mut parts = Vec::with_capacity(self.m);
        for j in 0..self.m {
            let a = approximation.component(j);
            let scaled = if denominator == 1u32 { a.clone() } else { &denominator * a % &modulus };
            let q = Rational::reconstruct_with_bounds_ref(&scaled, &modulus, &numerator_bound, &budget)?;
            let negative = q.sign() == Ordering::Less;
            let (numerator, factor) = q.into_numerator_and_denominator();
            if factor != 1u32 {
                denominator *= &factor;
                found *= &factor;
                budget = &factor_bound / &found;
            }
            parts.push((negative, numerator, factor));
        }
        // Bring every numerator to the final common denominator: multiply by the factors found later.
        let mut later = Natural::ONE;
        let mut numerators: Vec<Integer> = parts
            .into_iter()
            .rev()
            .map(|(negative, numerator, factor)| {
                let n = Integer::from_sign_and_abs(!negative, numerator * &later);
                if factor != 1u32 {
                    later *= factor;
                }
                n
            })
            .collect();
        numerators.reverse();
        let solution = ExactSolution { numerators, denominator };
        if !self.verify(operator, &solution, rhs) {
            return None;
        }
        // Without a seed the common denominator is the least; a seed may carry factors x's lacks.
        Some(match seed {
            Some(_) => solution.reduced(),
            None => solution,
        })
    }

    /// Whether `A * numerators == denominator * rhs` exactly.
    fn verify(&self, operator: &[i64], solution: &ExactSolution, rhs: &[Integer]) -> bool {
        let denominator = Integer::from(&solution.denominator);
        operator.chunks_exact(self.m).zip(rhs).all(|(row, b)| {
            let mut sum = Integer::ZERO;
            for (&a, n) in row.iter().zip(&solution.numerators) {
                if a != 0 {
                    sum.add_mul_assign(n, Integer::from(a));
                }
            }
            sum == &denominator * b
        })
    }
}

/// The p-adic digits of a lifting and, per component, `sum_s x_s p^s` as a big integer.
///
/// Components are folded into big integers only when reconstruction asks for them, so a failed
/// attempt that looks at a few components costs little, and the digits of each component are
/// folded in large blocks by a product tree (neighbours combined with `p`, then `p^2`, `p^4`, ...),
/// which keeps the big-number work near-linear in the number of digits.
struct PAdic {
    m: usize,
    /// The digits, one block of `m` per step.
    digits: Vec<u64>,
    /// `sum_{s < folded[j]} x_s[j] p^s`.
    values: Vec<Natural>,
    folded: Vec<usize>,
    /// `p^(2^l)` for the levels of the product tree.
    tree_powers: Vec<Natural>,
    /// `(s, p^s)` for every step count at which components were folded, increasing.
    moduli: Vec<(usize, Natural)>,
}

impl PAdic {
    fn new(p: u64, m: usize) -> Self {
        PAdic {
            m,
            digits: Vec::new(),
            values: vec![Natural::ZERO; m],
            folded: vec![0; m],
            tree_powers: vec![Natural::from(p)],
            moduli: vec![(0, Natural::ONE)],
        }
    }

    fn steps(&self) -> usize {
        self.digits.len() / self.m
    }

    fn push(&mut self, x: &[u64]) {
        self.digits.extend_from_slice(x);
    }

    /// `p^steps`.
    fn modulus(&mut self) -> &Natural {
        let steps = self.steps();
        let (last_steps, last) = self.moduli.last().expect("moduli start with p^0");
        if *last_steps < steps {
            let next = last * (&self.tree_powers[0]).pow((steps - last_steps) as u64);
            self.moduli.push((steps, next));
        }
        &self.moduli.last().expect("moduli start with p^0").1
    }

    /// `sum_{s < steps} x_s[j] p^s`.
    fn component(&mut self, j: usize) -> &Natural {
        let (from, to) = (self.folded[j], self.steps());
        if from < to {
            self.modulus();
            while 1 << self.tree_powers.len() < to - from {
                let next = self.tree_powers.last().expect("tree powers start with p").pow(2);
                self.tree_powers.push(next);
            }
            let mut level: Vec<Natural> = (from..to).map(|s| Natural::from(self.digits[s * self.m + j])).collect();
            for power in &self.tree_powers {
                if level.len() == 1 {
                    break;
                }
                let mut next = Vec::with_capacity(level.len().div_ceil(2));
                let mut it = level.into_iter();
                while let Some(low) = it.next() {
                    next.push(match it.next() {
                        Some(high) => low + high * power,
                        None => low,
                    });
                }
                level = next;
            }
            let block = level.pop().expect("at least one digit");
            let shift = &self.moduli.iter().find(|(s, _)| *s == from).expect("folded at a recorded step count").1;
            self.values[j] += block * shift;
            self.folded[j] = to;
        }
        &self.values[j]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use malachite::base::num::arithmetic::traits::Gcd;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_matrix(rng: &mut ChaCha8Rng, m: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
        (0..m).map(|_| (0..m).map(|_| rng.random_range(lo..hi)).collect()).collect()
    }

    fn random_vector(rng: &mut ChaCha8Rng, m: usize, lo: i64, hi: i64) -> Vec<i64> {
        (0..m).map(|_| rng.random_range(lo..hi)).collect()
    }

    fn transposed(matrix: &[Vec<i64>]) -> Vec<Vec<i64>> {
        (0..matrix.len()).map(|j| matrix.iter().map(|row| row[j]).collect()).collect()
    }

    /// Rational Gaussian elimination: the slow, obviously correct reference. `None` if singular.
    fn reference_solve(matrix: &[Vec<i64>], rhs: &[i64]) -> Option<Vec<Rational>> {
        let m = matrix.len();
        let mut a: Vec<Vec<Rational>> = matrix
            .iter()
            .zip(rhs)
            .map(|(row, &b)| row.iter().chain([&b]).map(|&x| Rational::from(x)).collect())
            .collect();
        for k in 0..m {
            let pivot = (k..m).find(|&i| a[i][k] != 0u32)?;
            a.swap(k, pivot);
            let pivot_row = a[k].clone();
            for (i, row) in a.iter_mut().enumerate() {
                if i != k && row[k] != 0u32 {
                    let f = &row[k] / &pivot_row[k];
                    for (x, y) in row.iter_mut().zip(&pivot_row).skip(k) {
                        *x -= &f * y;
                    }
                }
            }
        }
        Some((0..m).map(|i| &a[i][m] / &a[i][i]).collect())
    }

    /// The solution's invariants, and that it satisfies `matrix * x = rhs` exactly.
    fn assert_exact(matrix: &[Vec<i64>], rhs: &[i64], solution: &ExactSolution) {
        assert!(solution.denominator > 0u32);
        let g = solution.numerators.iter().fold(solution.denominator.clone(), |g, n| g.gcd(n.unsigned_abs_ref()));
        assert_eq!(g, 1u32, "common denominator is not the smallest");
        let den = Integer::from(&solution.denominator);
        for (row, &b) in matrix.iter().zip(rhs) {
            let lhs: Integer = row.iter().zip(&solution.numerators).map(|(&a, n)| Integer::from(a) * n).sum();
            assert_eq!(lhs, &den * Integer::from(b));
        }
    }

    #[test]
    fn column_exchanges_solve_as_a_fresh_factorization_does() {
        // More exchanges than MAX_ETAS, so that both the eta factors and the refactorization run.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let m = 12;
        let mut matrix = random_matrix(&mut rng, m, -9, 10);
        let mut solver = PadicSolver::new(&matrix).unwrap();
        for _ in 0..MAX_ETAS + 8 {
            let r = rng.random_range(0..m);
            let column = random_vector(&mut rng, m, -9, 10);
            let mut next = matrix.clone();
            for (row, &a) in next.iter_mut().zip(&column) {
                row[r] = a;
            }
            if PadicSolver::new(&next).is_err() {
                continue;
            }
            solver.replace_column(r, &column).unwrap();
            matrix = next;
            let rhs = random_vector(&mut rng, m, -5, 6);
            assert_matches_reference(&matrix, &rhs, &solver.solve(&rhs));
            assert_matches_reference(&transposed(&matrix), &rhs, &solver.solve_transposed(&rhs));
        }
    }

    fn assert_matches_reference(matrix: &[Vec<i64>], rhs: &[i64], solution: &ExactSolution) {
        let expected = reference_solve(matrix, rhs).expect("reference says singular");
        let got: Vec<Rational> = (0..matrix.len()).map(|i| solution.component(i)).collect();
        assert_eq!(got, expected);
        assert_exact(matrix, rhs, solution);
    }

    fn integers(xs: &[i64]) -> Vec<Integer> {
        xs.iter().map(|&x| Integer::from(x)).collect()
    }

    #[test]
    fn two_by_two_with_negative_entries_and_components() {
        let b = vec![vec![1, -2], vec![3, 4]];
        let solver = PadicSolver::new(&b).expect("nonsingular");
        let x = solver.solve(&[1, -1]);
        assert_eq!(x, ExactSolution { numerators: integers(&[1, -2]), denominator: Natural::from(5u32) });
        assert_eq!(x.component(1), Rational::from_signeds(-2i32, 5));
        let y = solver.solve_transposed(&[1, -1]);
        assert_eq!(y, ExactSolution { numerators: integers(&[7, 1]), denominator: Natural::from(10u32) });
    }

    #[test]
    fn three_by_three_tridiagonal() {
        let b = vec![vec![2, -1, 0], vec![-1, 2, -1], vec![0, -1, 2]];
        let solver = PadicSolver::new(&b).expect("nonsingular");
        let x = solver.solve(&[1, 0, 0]);
        assert_eq!(x, ExactSolution { numerators: integers(&[3, 2, 1]), denominator: Natural::from(4u32) });
        let x = solver.solve(&[0, 0, -4]);
        assert_eq!(x, ExactSolution { numerators: integers(&[-1, -2, -3]), denominator: Natural::ONE });
        let zero = solver.solve_transposed(&[0, 0, 0]);
        assert_eq!(zero, ExactSolution { numerators: integers(&[0, 0, 0]), denominator: Natural::ONE });
    }

    #[test]
    fn zero_pivots_need_row_exchanges() {
        let b = vec![vec![0, 2, 0], vec![0, 0, 3], vec![5, 0, 0]];
        let solver = PadicSolver::new(&b).expect("nonsingular");
        let x = solver.solve(&[1, 1, 1]);
        assert_eq!(x, ExactSolution { numerators: integers(&[6, 15, 10]), denominator: Natural::from(30u32) });
        let y = solver.solve_transposed(&[1, 1, 1]);
        assert_eq!(y, ExactSolution { numerators: integers(&[15, 10, 6]), denominator: Natural::from(30u32) });
    }

    #[test]
    fn empty_and_one_by_one() {
        let empty = PadicSolver::new(&[]).expect("the empty matrix is nonsingular");
        assert_eq!(empty.solve(&[]), ExactSolution { numerators: vec![], denominator: Natural::ONE });
        let solver = PadicSolver::new(&[vec![-6]]).expect("nonsingular");
        assert_eq!(solver.solve(&[4]).component(0), Rational::from_signeds(-2i32, 3));
        assert_eq!(solver.solve_transposed(&[-12]).component(0), Rational::from(2u32));
    }

    #[test]
    fn random_small_matrices_match_rational_elimination() {
        for seed in 0..3 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for m in [1, 2, 3, 4, 5, 7, 10, 16, 25, 40, 60] {
                let matrix = random_matrix(&mut rng, m, -20, 41);
                let rhs = random_vector(&mut rng, m, -50, 51);
                let solver = match PadicSolver::new(&matrix) {
                    Ok(solver) => solver,
                    Err(e) => {
                        assert_eq!(e, PadicError::Singular);
                        assert!(reference_solve(&matrix, &rhs).is_none());
                        continue;
                    }
                };
                assert_matches_reference(&matrix, &rhs, &solver.solve(&rhs));
                assert_matches_reference(&transposed(&matrix), &rhs, &solver.solve_transposed(&rhs));
            }
        }
    }

    #[test]
    fn sparse_nonnegative_matrices_match_rational_elimination() {
        // Mostly-zero rows force row exchanges in the modular factorization.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for m in [6, 12, 30] {
            let matrix: Vec<Vec<i64>> = (0..m)
                .map(|i| {
                    (0..m)
                        .map(|j| if i == j || rng.random_range(0..4) == 0 { rng.random_range(0..41) } else { 0 })
                        .collect()
                })
                .collect();
            let rhs = random_vector(&mut rng, m, 0, 10);
            let Ok(solver) = PadicSolver::new(&matrix) else {
                assert!(reference_solve(&matrix, &rhs).is_none());
                continue;
            };
            assert_matches_reference(&matrix, &rhs, &solver.solve(&rhs));
            assert_matches_reference(&transposed(&matrix), &rhs, &solver.solve_transposed(&rhs));
        }
    }

    #[test]
    fn singular_matrices_are_rejected() {
        let equal_rows = vec![vec![1, 2, 3], vec![4, 5, 6], vec![1, 2, 3]];
        assert_eq!(PadicSolver::new(&equal_rows).err(), Some(PadicError::Singular));
        let combination = vec![vec![1, 2, 3], vec![4, 5, 6], vec![9, 12, 15]];
        assert_eq!(PadicSolver::new(&combination).err(), Some(PadicError::Singular));
        assert_eq!(PadicSolver::new(&[vec![0, 0], vec![0, 0]]).err(), Some(PadicError::Singular));
    }

    #[test]
    fn bad_shapes_and_huge_entries_are_rejected() {
        assert_eq!(PadicSolver::new(&[vec![1, 2]]).err(), Some(PadicError::NotSquare));
        assert_eq!(PadicSolver::new(&[vec![1, 2], vec![3]]).err(), Some(PadicError::NotSquare));
        let huge = vec![vec![i64::MAX, 1, 0], vec![0, 1, 0], vec![0, 0, 1]];
        assert_eq!(PadicSolver::new(&huge).err(), Some(PadicError::EntriesTooLarge));
        // The limit itself is accepted: 2 * 2^63 = 2^64.
        let largest = vec![vec![i64::MIN, 0], vec![0, i64::MAX]];
        let solver = PadicSolver::new(&largest).expect("nonsingular");
        assert_matches_reference(&largest, &[i64::MAX, i64::MIN], &solver.solve(&[i64::MAX, i64::MIN]));
    }

    #[test]
    fn determinant_divisible_by_the_first_prime_falls_back_to_the_next() {
        let p = PRIMES[0] as i64;
        let matrix = vec![vec![p, 1], vec![0, 1]];
        let solver = PadicSolver::new(&matrix).expect("nonsingular over the rationals");
        assert_eq!(solver.factorization.field.p, PRIMES[1]);
        assert_matches_reference(&matrix, &[1, 2], &solver.solve(&[1, 2]));
        assert_matches_reference(&transposed(&matrix), &[1, 2], &solver.solve_transposed(&[1, 2]));
    }

    #[test]
    fn huge_determinant_needs_many_attempts() {
        // Entries of 40 bits give a determinant of about 830 bits, so the solution needs about 27
        // steps, reached after failed attempts at 3, 4, 5, 6, 7, 8, 10, 12, 15, 18 and 22 steps.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let m = 20;
        let matrix = random_matrix(&mut rng, m, -(1 << 40), 1 << 40);
        let rhs = random_vector(&mut rng, m, -(1 << 40), 1 << 40);
        let solver = PadicSolver::new(&matrix).expect("nonsingular");
        let (x, stats) = solver.solve_side(Side::Normal, &integers(&rhs));
        assert!(stats.attempts >= 8, "{stats:?}");
        assert!(stats.lifting_steps <= solver.step_cap(Side::Normal, &integers(&rhs)));
        assert_matches_reference(&matrix, &rhs, &x);
        let (y, stats) = solver.solve_side(Side::Transposed, &integers(&rhs));
        assert!(stats.attempts >= 8, "{stats:?}");
        assert_matches_reference(&transposed(&matrix), &rhs, &y);
    }

    #[test]
    fn a_known_denominator_saves_steps_and_a_wrong_one_changes_nothing() {
        // Entries of 40 bits: every solution's denominator divides the determinant (about 810 bits),
        // and the first one's here is a small factor short of the next one's.
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let m = 20;
        let matrix = random_matrix(&mut rng, m, -(1 << 40), 1 << 40);
        let solver = PadicSolver::new(&matrix).expect("nonsingular");
        let first = random_vector(&mut rng, m, -9, 10);
        let d = solver.solve(&first).denominator;
        let mut short_seeds = 0;
        for _ in 0..5 {
            let rhs = random_vector(&mut rng, m, -9, 10);
            let (plain, plain_stats) = solver.solve_side(Side::Normal, &integers(&rhs));
            let (hinted, hinted_stats) = solver.lift(Side::Normal, &integers(&rhs), Some(&d));
            assert_matches_reference(&matrix, &rhs, &hinted);
            assert_eq!(hinted, plain);
            short_seeds += usize::from(&d % &plain.denominator != 0u32);
            assert!(
                3 * hinted_stats.lifting_steps <= 2 * plain_stats.lifting_steps,
                "{hinted_stats:?} {plain_stats:?}"
            );
            // A seed far short of x's denominator: the seeded reconstructions fail, the plain one does not.
            let (wrong, stats) = solver.lift(Side::Normal, &integers(&rhs), Some(&Natural::from(3u32)));
            assert_eq!(wrong, plain);
            assert!(stats.attempts > HINTED_ATTEMPTS, "{stats:?}");
        }
        assert!(short_seeds > 0, "no seed here lacks a factor of the denominator");
    }

    #[test]
    fn hadamard_matrix_meets_the_bound() {
        // Sylvester's Hadamard matrix attains Hadamard's bound, |det| = 64^32, so the step cap is tight.
        let m = 64;
        let matrix: Vec<Vec<i64>> = (0..m)
            .map(|i: usize| {
                (0..m).map(|j: usize| if (i & j).count_ones().is_multiple_of(2) { 1 } else { -1 }).collect()
            })
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let rhs = random_vector(&mut rng, m, -1000, 1001);
        let solver = PadicSolver::new(&matrix).expect("nonsingular");
        let (x, stats) = solver.solve_side(Side::Normal, &integers(&rhs));
        assert!(stats.lifting_steps <= solver.step_cap(Side::Normal, &integers(&rhs)));
        // H^{-1} = H^T / 64, so the denominator divides 64.
        assert!(x.denominator <= 64u32);
        assert_matches_reference(&matrix, &rhs, &x);
    }

    #[test]
    fn hilbert_like_matrix() {
        // lcm(1..=23) / (i + j + 1): an ill-conditioned integer matrix with large solution entries.
        let m = 12;
        fn gcd(a: i64, b: i64) -> i64 {
            if b == 0 { a } else { gcd(b, a % b) }
        }
        let l = (1..=23).fold(1, |l, k| l / gcd(l, k) * k);
        let matrix: Vec<Vec<i64>> = (0..m).map(|i| (0..m).map(|j| l / (i + j + 1)).collect()).collect();
        let rhs: Vec<i64> = (0..m).map(|i| i - 5).collect();
        let solver = PadicSolver::new(&matrix).expect("nonsingular");
        assert_matches_reference(&matrix, &rhs, &solver.solve(&rhs));
        assert_matches_reference(&matrix, &rhs, &solver.solve_transposed(&rhs));
    }

    /// Solves a random `m x m` system with entries in `entries` both ways and
    /// checks the exact residuals (timings of the p-adic solve at scale live in
    /// `benches/higher_lower_exact.rs`, the higher-lower exact stage).
    fn check_structured(m: usize, entries: std::ops::Range<i64>, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let matrix = random_matrix(&mut rng, m, entries.start, entries.end);
        let rhs = random_vector(&mut rng, m, 0, 10);
        let solver = PadicSolver::new(&matrix).expect("nonsingular");
        let (x, stats) = solver.solve_side(Side::Normal, &integers(&rhs));
        assert!(stats.lifting_steps <= solver.step_cap(Side::Normal, &integers(&rhs)));
        assert_exact(&matrix, &rhs, &x);
        let (y, _) = solver.solve_side(Side::Transposed, &integers(&rhs));
        assert_exact(&transposed(&matrix), &rhs, &y);
    }

    #[test]
    fn a_big_right_hand_side_solves_as_the_combination_of_small_ones() {
        // sum_i c_i v_i with c_i of about 300 bits: one solve with a big residual equals the
        // combination of the word-sized solves, and is checked exactly.
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let m = 40;
        let matrix = random_matrix(&mut rng, m, -20, 21);
        let solver = PadicSolver::new(&matrix).expect("nonsingular");
        let parts: Vec<Vec<i64>> = (0..3).map(|_| random_vector(&mut rng, m, -9, 10)).collect();
        let weights: Vec<Integer> = (0..3).map(|i| (Integer::from(3) << 300u64) - Integer::from(7 * i + 1)).collect();
        let mut rhs = vec![Integer::ZERO; m];
        for (v, c) in parts.iter().zip(&weights) {
            for (r, &x) in rhs.iter_mut().zip(v) {
                *r += c * Integer::from(x);
            }
        }
        let big = solver.solve_transposed_integer(&rhs);
        for j in 0..m {
            let combined: Rational = parts
                .iter()
                .zip(&weights)
                .map(|(v, c)| Rational::from(c) * solver.solve_transposed(v).component(j))
                .sum();
            assert_eq!(big.component(j), combined);
        }
    }

    #[test]
    fn structured_300_by_300() {
        check_structured(300, 2..22, 1);
    }
}
