//! The dense kernels the master's simplex spends its time in (dot products
//! for pricing and FTRAN, row updates of the explicit inverse; the face LPs'
//! scan of their cut rows too), compiled twice:
//! for the baseline x86-64 target and for AVX2 + FMA, chosen at run time so the
//! binary stays portable and still runs the master much faster where the CPU
//! has them (docs/history.md#2a99b21-stabilisation-variants-measured-and-rejected).

/// sum_i a_i b_i with `b` stored in single precision (the master's columns:
/// small integers, exact in f32, at half the memory traffic of f64).
pub fn dot_f32(a: &[f64], b: &[f32]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports the features the function is compiled for.
        return unsafe { dot_f32_avx2(a, b) };
    }
    dot_widened_body::<f32, false>(a, b)
}

/// sum_i a_i b_i with `b` stored in bytes (the master's tree columns: small
/// integers, at a quarter of the memory traffic of f32).
pub fn dot_u8(a: &[f64], b: &[u8]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports the features the function is compiled for.
        return unsafe { dot_u8_avx2(a, b) };
    }
    dot_widened_body::<u8, false>(a, b)
}

/// The dot products of `a` with four byte columns, each summed exactly as
/// `dot_u8` sums it (the same lanes in the same order, so the same bits):
/// pricing scans the working set with it. One column's sum is a chain of
/// dependent multiply-adds, so `dot_u8` waits on their latency; four columns
/// interleaved keep the units busy and read `a` once per four.
pub fn dot_u8_x4(a: &[f64], b: [&[u8]; 4]) -> [f64; 4] {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports the features the function is compiled for.
        return unsafe { dot_u8_x4_avx2(a, b) };
    }
    dot_x4_body::<u8, 8, false>(a, b)
}

/// sum_i a_i b_i, in four lanes: the face LPs scan thousands of cut rows
/// with it at every pivot (one sequential sum made that scan the face stage's
/// largest cost; docs/history.md#43f2704-the-face-lps-scan-and-factorisation).
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports the features the function is compiled for.
        return unsafe { dot_avx2(a, b) };
    }
    dot_body::<false>(a, b)
}

/// The dot products of `a` with each of `bs`, four at a time so that `a` is
/// read once per four: the master computes the directions B^-1 b of its
/// entering candidates row by row of B^-1 this way.
pub fn dots(a: &[f64], bs: &[Vec<f64>], out: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: as above.
        return unsafe { dots_avx2(a, bs, out) };
    }
    dots_body::<false>(a, bs, out)
}

/// y_i -= factor * x_i.
pub fn sub_scaled(y: &mut [f64], factor: f64, x: &[f64]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: as above.
        return unsafe { sub_scaled_avx2(y, factor, x) };
    }
    sub_scaled_body::<false>(y, factor, x)
}

/// out_k = sum_i a_i rows[k m + i] in single precision (m = a.len()): the
/// sketch's length estimates, where six digits are plenty and eight lanes
/// per instruction halve the cost of f64.
pub fn dots_single(a: &[f32], rows: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: as above.
        return unsafe { dots_single_avx2(a, rows, out) };
    }
    dots_single_body::<false>(a, rows, out)
}

/// y_i -= factor * x_i, and the updated y copied to `single` in single
/// precision in the same sweep (the sketch keeps Z in f64 and reads it in f32).
pub fn sub_scaled_narrowed(y: &mut [f64], factor: f64, x: &[f64], single: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: as above.
        return unsafe { sub_scaled_narrowed_avx2(y, factor, x, single) };
    }
    sub_scaled_narrowed_body::<false>(y, factor, x, single)
}

/// y_i -= factor * x_i, returning sum_i y_i a_i of the updated y: the pass
/// over B^-1 updates a row and takes its entry of the entering direction
/// while the row is in registers.
pub fn sub_scaled_dot(y: &mut [f64], factor: f64, x: &[f64], a: &[f64]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: as above.
        return unsafe { sub_scaled_dot_avx2(y, factor, x, a) };
    }
    sub_scaled_dot_body::<false>(y, factor, x, a)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn dots_single_avx2(a: &[f32], rows: &[f32], out: &mut [f32]) {
    dots_single_body::<true>(a, rows, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn sub_scaled_narrowed_avx2(y: &mut [f64], factor: f64, x: &[f64], single: &mut [f32]) {
    sub_scaled_narrowed_body::<true>(y, factor, x, single)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn sub_scaled_dot_avx2(y: &mut [f64], factor: f64, x: &[f64], a: &[f64]) -> f64 {
    sub_scaled_dot_body::<true>(y, factor, x, a)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn dot_u8_avx2(a: &[f64], b: &[u8]) -> f64 {
    dot_widened_body::<u8, true>(a, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn dot_u8_x4_avx2(a: &[f64], b: [&[u8]; 4]) -> [f64; 4] {
    dot_x4_body::<u8, 8, true>(a, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn dot_f32_avx2(a: &[f64], b: &[f32]) -> f64 {
    dot_widened_body::<f32, true>(a, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn dot_avx2(a: &[f64], b: &[f64]) -> f64 {
    dot_body::<true>(a, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn dots_avx2(a: &[f64], bs: &[Vec<f64>], out: &mut [f64]) {
    dots_body::<true>(a, bs, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn sub_scaled_avx2(y: &mut [f64], factor: f64, x: &[f64]) {
    sub_scaled_body::<true>(y, factor, x)
}

/// a * b + c, fused where the target has FMA (a software fma call is slow).
#[inline(always)]
fn multiply_add<const FUSED: bool>(a: f64, b: f64, c: f64) -> f64 {
    if FUSED { a.mul_add(b, c) } else { a * b + c }
}

/// sum_i a_i b_i with `b` in a narrow type widened to f64 (the master's
/// columns: f32 or bytes), eight independent accumulators so the compiler
/// can vectorise the sum.
#[inline(always)]
fn dot_widened_body<T: Copy + Into<f64>, const FUSED: bool>(a: &[f64], b: &[T]) -> f64 {
    debug_assert_eq!(a.len(), b.len());
    let mut lanes = [0.0f64; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = a8.remainder().iter().zip(b8.remainder()).map(|(x, y)| x * (*y).into()).sum();
    for (x, y) in a8.zip(b8) {
        for k in 0..8 {
            lanes[k] = multiply_add::<FUSED>(x[k], y[k].into(), lanes[k]);
        }
    }
    lanes.iter().sum::<f64>() + tail
}

/// Four dot products sharing `a`, side by side, each in `LANES` lanes summed
/// as one alone would be (`dot_widened_body` with eight lanes for the byte
/// scan, `dot_body` with four for the exact rule's directions), so that the
/// results are the same bits.
#[inline(always)]
fn dot_x4_body<T: Copy + Into<f64>, const LANES: usize, const FUSED: bool>(a: &[f64], b: [&[T]; 4]) -> [f64; 4] {
    debug_assert!(b.iter().all(|b| b.len() == a.len()));
    let mut lanes = [[0.0f64; LANES]; 4];
    let split = a.len() / LANES * LANES;
    for i in (0..split).step_by(LANES) {
        let x = &a[i..i + LANES];
        for (lane, b) in lanes.iter_mut().zip(&b) {
            let y = &b[i..i + LANES];
            for k in 0..LANES {
                lane[k] = multiply_add::<FUSED>(x[k], y[k].into(), lane[k]);
            }
        }
    }
    let mut sums = [0.0; 4];
    for ((sum, lane), b) in sums.iter_mut().zip(&lanes).zip(&b) {
        let tail: f64 = a[split..].iter().zip(&b[split..]).map(|(x, y)| x * (*y).into()).sum();
        *sum = lane.iter().sum::<f64>() + tail;
    }
    sums
}

#[inline(always)]
fn dots_body<const FUSED: bool>(a: &[f64], bs: &[Vec<f64>], out: &mut [f64]) {
    let mut groups = bs.chunks_exact(4);
    let mut done = 0;
    for group in groups.by_ref() {
        out[done..done + 4]
            .copy_from_slice(&dot_x4_body::<f64, 4, FUSED>(a, [&group[0], &group[1], &group[2], &group[3]]));
        done += 4;
    }
    for (b, o) in groups.remainder().iter().zip(&mut out[done..]) {
        *o = dot_body::<FUSED>(a, b);
    }
}

/// One dot product, with four lanes (the last candidates of `dots`: fewer
/// than four improving variables is common near the optimum).
#[inline(always)]
fn dot_body<const FUSED: bool>(a: &[f64], b: &[f64]) -> f64 {
    let mut lanes = [0.0f64; 4];
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail: f64 = a4.remainder().iter().zip(b4.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in a4.zip(b4) {
        for k in 0..4 {
            lanes[k] = multiply_add::<FUSED>(x[k], y[k], lanes[k]);
        }
    }
    lanes.iter().sum::<f64>() + tail
}

/// a * b + c in single precision, fused where the target has FMA.
#[inline(always)]
fn multiply_add_single<const FUSED: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FUSED { a.mul_add(b, c) } else { a * b + c }
}

/// Rows four at a time, eight lanes each, so `a` is read once per four rows.
#[inline(always)]
fn dots_single_body<const FUSED: bool>(a: &[f32], rows: &[f32], out: &mut [f32]) {
    let m = a.len();
    debug_assert_eq!(rows.len(), m * out.len());
    let split = m / 8 * 8;
    let mut start = 0;
    while start < out.len() {
        let group = (out.len() - start).min(4);
        let mut lanes = [[0.0f32; 8]; 4];
        for i in (0..split).step_by(8) {
            let x = &a[i..i + 8];
            for (g, lane) in lanes.iter_mut().enumerate().take(group) {
                let y = &rows[(start + g) * m + i..(start + g) * m + i + 8];
                for k in 0..8 {
                    lane[k] = multiply_add_single::<FUSED>(x[k], y[k], lane[k]);
                }
            }
        }
        for (g, lane) in lanes.iter().enumerate().take(group) {
            let row = &rows[(start + g) * m..(start + g + 1) * m];
            let tail: f32 = a[split..].iter().zip(&row[split..]).map(|(x, y)| x * y).sum();
            out[start + g] = lane.iter().sum::<f32>() + tail;
        }
        start += group;
    }
}

/// Eight independent accumulators, as in `dot_widened_body`.
#[inline(always)]
fn sub_scaled_dot_body<const FUSED: bool>(y: &mut [f64], factor: f64, x: &[f64], a: &[f64]) -> f64 {
    debug_assert!(y.len() == x.len() && y.len() == a.len());
    let mut lanes = [0.0f64; 8];
    let split = y.len() / 8 * 8;
    for ((y, x), a) in y[..split].chunks_exact_mut(8).zip(x.chunks_exact(8)).zip(a.chunks_exact(8)) {
        for k in 0..8 {
            y[k] = multiply_add::<FUSED>(-factor, x[k], y[k]);
            lanes[k] = multiply_add::<FUSED>(y[k], a[k], lanes[k]);
        }
    }
    let mut tail = 0.0;
    for ((y, x), a) in y[split..].iter_mut().zip(&x[split..]).zip(&a[split..]) {
        *y = multiply_add::<FUSED>(-factor, *x, *y);
        tail += *y * a;
    }
    lanes.iter().sum::<f64>() + tail
}

#[inline(always)]
fn sub_scaled_narrowed_body<const FUSED: bool>(y: &mut [f64], factor: f64, x: &[f64], single: &mut [f32]) {
    debug_assert!(y.len() == x.len() && y.len() == single.len());
    for ((y, x), s) in y.iter_mut().zip(x).zip(single) {
        *y = multiply_add::<FUSED>(-factor, *x, *y);
        *s = *y as f32;
    }
}

#[inline(always)]
fn sub_scaled_body<const FUSED: bool>(y: &mut [f64], factor: f64, x: &[f64]) {
    debug_assert_eq!(y.len(), x.len());
    for (y, x) in y.iter_mut().zip(x) {
        *y = multiply_add::<FUSED>(-factor, *x, *y);
    }
}

/// Pivot steps of `invert_in_place` whose updates outside their own columns
/// wait and are applied together, row by row while the row is in the L1
/// cache: one pass over the matrix per block instead of one per step (at
/// m = 500 the matrix is 2 MB, past the L2 cache).
const INVERT_BLOCK: usize = 16;

/// Inverts the m x m row-major matrix `a` in place by Gauss-Jordan with
/// partial pivoting; on failure returns the column whose pivot is
/// (numerically) zero, and `a` is left undefined. Each step stores the
/// inverse's new column where B's eliminated column was, so a step updates m
/// entries a row where the augmented [B | I] updated 2m - col: m^3
/// multiply-adds instead of 1.5 m^3, on half the memory, every entry the
/// same operations in the same order (the augmented form's other updates
/// subtract zeros). Steps go in blocks of `INVERT_BLOCK` columns: within a
/// block only the block's columns are updated at once (they choose the
/// pivots), the rest of a row when the block ends or the row becomes the
/// pivot row, each entry by the same operations in the same order as one
/// step at a time. The master rebuilds its inverse with it, the exact stage's
/// walks their float inverse.
pub fn invert_in_place(a: &mut [f64], m: usize) -> Result<(), usize> {
    debug_assert_eq!(a.len(), m * m);
    // order[k]: B's row that was the pivot row of step k, so the column
    // stored at k is B^-1's column order[k].
    let mut order: Vec<usize> = (0..m).collect();
    // pivots[s]: the block's step s's pivot row, scaled; factors[i][s]: the
    // multiple of it that row i has yet to lose outside the block (0: none).
    let mut pivots = vec![0.0; INVERT_BLOCK * m];
    let mut factors = vec![[0.0f64; INVERT_BLOCK]; m];
    // Row `row` loses its waiting multiples of the block [start, end)'s first
    // `steps` pivot rows, outside the block, in step order.
    let catch_up = |row: &mut [f64], waiting: &[f64], pivots: &[f64], (start, end): (usize, usize)| {
        for (factor, pivot_row) in waiting.iter().zip(pivots.chunks_exact(m)) {
            if *factor != 0.0 {
                sub_scaled(&mut row[..start], *factor, &pivot_row[..start]);
                sub_scaled(&mut row[end..], *factor, &pivot_row[end..]);
            }
        }
    };
    for start in (0..m).step_by(INVERT_BLOCK) {
        let end = (start + INVERT_BLOCK).min(m);
        for col in start..end {
            let step = col - start;
            let p = (col..m).max_by(|&x, &y| a[x * m + col].abs().total_cmp(&a[y * m + col].abs())).ok_or(col)?;
            if a[p * m + col].abs() <= 1e-9 {
                return Err(col);
            }
            if p != col {
                let (upper, lower) = a.split_at_mut(p * m);
                upper[col * m..(col + 1) * m].swap_with_slice(&mut lower[..m]);
                factors.swap(p, col);
                order.swap(p, col);
            }
            let row = &mut a[col * m..(col + 1) * m];
            catch_up(row, &factors[col][..step], &pivots[..step * m], (start, end));
            factors[col] = [0.0; INVERT_BLOCK];
            let pivot = row[col];
            row[col] = 1.0;
            for v in row.iter_mut() {
                *v /= pivot;
            }
            let pivot_row = &mut pivots[step * m..(step + 1) * m];
            pivot_row.copy_from_slice(row);
            for (i, (row, waiting)) in a.chunks_exact_mut(m).zip(&mut factors).enumerate() {
                let factor = row[col];
                if i != col && factor != 0.0 {
                    row[col] = 0.0;
                    sub_scaled(&mut row[start..end], factor, &pivot_row[start..end]);
                    waiting[step] = factor;
                }
            }
        }
        let steps = end - start;
        for (row, waiting) in a.chunks_exact_mut(m).zip(&mut factors) {
            catch_up(row, &waiting[..steps], &pivots[..steps * m], (start, end));
            *waiting = [0.0; INVERT_BLOCK];
        }
    }
    let mut unpermuted = vec![0.0; m];
    for row in a.chunks_exact_mut(m) {
        for (k, &v) in row.iter().enumerate() {
            unpermuted[order[k]] = v;
        }
        row.copy_from_slice(&unpermuted);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernels_agree_with_plain_loops() {
        let a: Vec<f64> = (0..37).map(|i| f64::from(i) * 0.5 - 3.0).collect();
        let b: Vec<f64> = (0..37).map(|i| 1.0 / f64::from(i + 1)).collect();
        let small: Vec<f32> = (0..37).map(|i| (i % 7) as f32).collect();
        let mixed: f64 = a.iter().zip(&small).map(|(x, y)| x * f64::from(*y)).sum();
        assert!((dot_f32(&a, &small) - mixed).abs() < 1e-12);
        let bytes: Vec<u8> = small.iter().map(|&v| v as u8).collect();
        assert!((dot_u8(&a, &bytes) - mixed).abs() < 1e-12);
        let columns: Vec<Vec<u8>> = (0..4).map(|t| bytes.iter().map(|v| v * t + 1).collect()).collect();
        let four = dot_u8_x4(&a, [&columns[0], &columns[1], &columns[2], &columns[3]]);
        for (sum, column) in four.iter().zip(&columns) {
            assert_eq!(sum.to_bits(), dot_u8(&a, column).to_bits(), "the same bits as one at a time");
        }
        let bs: Vec<Vec<f64>> = (0..6).map(|t| a.iter().map(|x| x * f64::from(t) - 1.0).collect()).collect();
        assert!((dot(&a, &b) - a.iter().zip(&b).map(|(x, y)| x * y).sum::<f64>()).abs() < 1e-12);
        let mut out = vec![0.0; 6];
        dots(&b, &bs, &mut out);
        for (o, c) in out.iter().zip(&bs) {
            assert!((o - b.iter().zip(c).map(|(x, y)| x * y).sum::<f64>()).abs() < 1e-12);
        }
        let rows: Vec<f32> = (0..11 * 37).map(|k| (k % 11) as f32 - 4.0).collect();
        let mut single = vec![0.0f32; 11];
        dots_single(&small, &rows, &mut single);
        for (o, row) in single.iter().zip(rows.chunks_exact(37)) {
            assert_eq!(*o, small.iter().zip(row).map(|(x, y)| x * y).sum::<f32>(), "small integers are exact");
        }
        let mut fused = b.clone();
        let product = sub_scaled_dot(&mut fused, 2.0, &a, &b);
        let mut y = b.clone();
        sub_scaled(&mut y, 2.0, &a);
        assert_eq!(fused, y);
        let (mut narrowed, mut single) = (b.clone(), vec![0.0f32; b.len()]);
        sub_scaled_narrowed(&mut narrowed, 2.0, &a, &mut single);
        assert_eq!(narrowed, y);
        assert_eq!(single, y.iter().map(|&v| v as f32).collect::<Vec<_>>());
        assert!((product - y.iter().zip(&b).map(|(y, b)| y * b).sum::<f64>()).abs() < 1e-12);
        for ((y, a), b) in y.iter().zip(&a).zip(&b) {
            assert!((y - (b - 2.0 * a)).abs() < 1e-12);
        }
    }

    /// [B | I] reduced to [I | B^-1] by plain loops, the textbook form.
    fn augmented_inverse(b: &[f64], m: usize) -> Vec<f64> {
        let width = 2 * m;
        let mut a = vec![0.0; m * width];
        for i in 0..m {
            a[i * width..i * width + m].copy_from_slice(&b[i * m..(i + 1) * m]);
            a[i * width + m + i] = 1.0;
        }
        for col in 0..m {
            let p = (col..m).max_by(|&x, &y| a[x * width + col].abs().total_cmp(&a[y * width + col].abs())).unwrap();
            for k in 0..width {
                a.swap(p * width + k, col * width + k);
            }
            let pivot = a[col * width + col];
            for k in 0..width {
                a[col * width + k] /= pivot;
            }
            for i in (0..m).filter(|&i| i != col) {
                let factor = a[i * width + col];
                for k in 0..width {
                    a[i * width + k] -= factor * a[col * width + k];
                }
            }
        }
        (0..m).flat_map(|i| a[i * width + m..(i + 1) * width].to_vec()).collect()
    }

    /// Gauss-Jordan in place one step at a time, every row updated at every
    /// step: what `invert_in_place` computed before its steps went in blocks.
    fn inverse_step_by_step(a: &mut [f64], m: usize) {
        let mut order: Vec<usize> = (0..m).collect();
        let mut pivot_row = vec![0.0; m];
        for col in 0..m {
            let p = (col..m).max_by(|&x, &y| a[x * m + col].abs().total_cmp(&a[y * m + col].abs())).unwrap();
            for k in 0..m {
                a.swap(p * m + k, col * m + k);
            }
            order.swap(p, col);
            let pivot = a[col * m + col];
            a[col * m + col] = 1.0;
            for k in 0..m {
                a[col * m + k] /= pivot;
            }
            pivot_row.copy_from_slice(&a[col * m..(col + 1) * m]);
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

    #[test]
    fn the_inverse_in_blocks_has_the_bits_of_one_step_at_a_time() {
        // Sizes below, at and across the block, entries like the master's (small
        // integers, many zeros) so that rows swap and factors vanish.
        let mut state = 777u64;
        for m in [1, 5, 16, 17, 40, 71] {
            let b: Vec<f64> = (0..m * m)
                .map(|k| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let v = ((state >> 33) % 9) as f64;
                    if k % m == k / m { v + 1.0 } else { v * f64::from(u8::from(state >> 60 > 5)) }
                })
                .collect();
            let (mut blocked, mut stepped) = (b.clone(), b.clone());
            invert_in_place(&mut blocked, m).unwrap();
            inverse_step_by_step(&mut stepped, m);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&blocked), bits(&stepped), "m = {m}");
        }
    }

    #[test]
    fn the_inverse_in_place_is_the_augmented_forms() {
        // Small entries like the master's (trees' depths), rows that need swapping.
        let m = 23;
        let mut state = 12345u64;
        let b: Vec<f64> = (0..m * m)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((state >> 33) % 12) as f64
            })
            .collect();
        let mut inverse = b.clone();
        invert_in_place(&mut inverse, m).unwrap();
        let textbook = augmented_inverse(&b, m);
        for (x, y) in inverse.iter().zip(&textbook) {
            assert!((x - y).abs() <= 1e-12 * (1.0 + y.abs()), "{x} against {y}");
        }
        for i in 0..m {
            for j in 0..m {
                let product: f64 = (0..m).map(|k| b[i * m + k] * inverse[k * m + j]).sum();
                assert!((product - f64::from(u8::from(i == j))).abs() < 1e-9);
            }
        }
        let mut singular = b.clone();
        for j in 0..m {
            singular[5 * m + j] = 2.0 * b[j] - b[2 * m + j];
        }
        assert!(invert_in_place(&mut singular, m).is_err());
    }
}
