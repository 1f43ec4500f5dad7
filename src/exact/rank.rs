//! Rank of an integer matrix modulo a prime: a lower bound on its rank over
//! the rationals, so a full rank modulo p proves full rank exactly (the
//! converse can fail only when p divides every maximal minor).

/// A prime just below 2^61.
const PRIME: u64 = (1 << 61) - 1;

/// a * b mod p for the Mersenne prime p = 2^61 - 1 (shift-and-add reduction).
fn mul(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    let folded = (product as u64 & PRIME) + (product >> 61) as u64;
    let folded = (folded & PRIME) + (folded >> 61);
    if folded >= PRIME { folded - PRIME } else { folded }
}

fn inverse(a: u64) -> u64 {
    // Fermat: a^(p-2).
    let (mut base, mut exp, mut acc) = (a, PRIME - 2, 1u64);
    while exp > 0 {
        if exp & 1 == 1 {
            acc = mul(acc, base);
        }
        base = mul(base, base);
        exp >>= 1;
    }
    acc
}

/// The rank modulo 2^61 - 1 of `rows` (all of equal length).
pub fn rank_mod_p(rows: &[Vec<i64>]) -> usize {
    let cols = rows.first().map_or(0, Vec::len);
    let mut a: Vec<Vec<u64>> =
        rows.iter().map(|r| r.iter().map(|&x| x.rem_euclid(PRIME as i64) as u64).collect()).collect();
    let mut rank = 0;
    for col in 0..cols {
        let Some(pivot) = (rank..a.len()).find(|&r| a[r][col] != 0) else { continue };
        a.swap(rank, pivot);
        let scale = inverse(a[rank][col]);
        let pivot_row: Vec<u64> = a[rank].iter().map(|&x| mul(x, scale)).collect();
        for row in a.iter_mut().skip(rank + 1) {
            let factor = row[col];
            if factor != 0 {
                for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    let sub = mul(factor, *p);
                    *x = if *x >= sub { *x - sub } else { *x + PRIME - sub };
                }
            }
        }
        rank += 1;
        if rank == a.len() {
            break;
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mersenne_multiplication_is_exact() {
        for (a, b) in [(PRIME - 1, PRIME - 1), (1 << 60, 12345), (987_654_321_987, 123_456_789_123)] {
            assert_eq!(u128::from(mul(a, b)), u128::from(a) * u128::from(b) % u128::from(PRIME));
        }
        assert_eq!(mul(inverse(12345), 12345), 1);
    }

    #[test]
    fn ranks() {
        assert_eq!(rank_mod_p(&[vec![1, 2], vec![2, 4]]), 1);
        assert_eq!(rank_mod_p(&[vec![1, 2], vec![3, 4]]), 2);
        assert_eq!(rank_mod_p(&[vec![0, 0, 0]]), 0);
        assert_eq!(rank_mod_p(&[vec![1, 0, -1], vec![0, 1, 1], vec![1, 1, 0], vec![2, -3, -5]]), 2);
        assert_eq!(rank_mod_p(&[]), 0);
    }
}
