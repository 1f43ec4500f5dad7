//! A rational vector over one common denominator: numerators and a positive
//! denominator, not reduced. Dot products of such vectors are integer sums
//! with one reduction at the end, where a sum of reduced rationals with
//! thousand-digit denominators pays a gcd per term (those gcds were most of
//! the higher-lower face stage near N = 1000;
//! docs/history.md#43e1a9e-conjectures-over-every-optimal-alpha-the-face-stage).

use malachite::base::num::arithmetic::traits::Lcm;
use malachite::base::num::basic::traits::Zero;
use malachite::base::num::conversion::traits::RoundingFrom;
use malachite::base::num::logic::traits::SignificantBits;
use malachite::base::rounding_modes::RoundingMode;
use malachite::{Integer, Natural, Rational};

/// Integers q_i = r_i * D and D, for the least common denominator D of `values`.
pub fn common_denominator(values: &[Rational]) -> (Vec<Integer>, Natural) {
    let scaled = ScaledVector::from_rationals(values);
    (scaled.numerators, Natural::try_from(scaled.denominator).expect("a positive denominator"))
}

#[derive(Debug, Clone, PartialEq)]
pub struct ScaledVector {
    pub numerators: Vec<Integer>,
    /// Positive.
    pub denominator: Integer,
}

impl ScaledVector {
    /// Over the least common denominator of `values`.
    pub fn from_rationals(values: &[Rational]) -> Self {
        let scale =
            values.iter().fold(Natural::from(1u32), |d, v| if *v == 0u32 { d } else { d.lcm(v.to_denominator()) });
        let numerators = values
            .iter()
            .map(|v| {
                if *v == 0u32 {
                    return Integer::ZERO;
                }
                let (num, den) = v.to_numerator_and_denominator();
                let magnitude = Integer::from(num * (&scale / den));
                if *v < 0u32 { -magnitude } else { magnitude }
            })
            .collect();
        ScaledVector { numerators, denominator: Integer::from(scale) }
    }

    pub fn len(&self) -> usize {
        self.numerators.len()
    }

    pub fn is_empty(&self) -> bool {
        self.numerators.is_empty()
    }

    /// Entry k, reduced.
    pub fn get(&self, k: usize) -> Rational {
        Rational::from_integers(self.numerators[k].clone(), self.denominator.clone())
    }

    /// Every entry, reduced.
    pub fn to_rationals(&self) -> Vec<Rational> {
        (0..self.len()).map(|k| self.get(k)).collect()
    }

    /// self . other, exact.
    pub fn dot(&self, other: &ScaledVector) -> Rational {
        let mut sum = Integer::ZERO;
        for (x, y) in self.numerators.iter().zip(&other.numerators) {
            if *x != 0u32 && *y != 0u32 {
                sum += x * y;
            }
        }
        Rational::from_integers(sum, &self.denominator * &other.denominator)
    }

    /// self . d for small integer weights d (a tree's depths).
    pub fn dot_small(&self, d: &[u8]) -> Rational {
        let mut sum = Integer::ZERO;
        for (x, &y) in self.numerators.iter().zip(d) {
            sum += x * Integer::from(y);
        }
        Rational::from_integers(sum, self.denominator.clone())
    }

    /// Each entry as the nearest-ish double (both parts shifted into range first).
    pub fn to_f64s(&self) -> Vec<f64> {
        let shift = self.denominator.significant_bits().saturating_sub(900);
        let near = |x: &Integer| f64::rounding_from(&(x >> shift), RoundingMode::Nearest).0;
        let den = near(&self.denominator);
        self.numerators.iter().map(|x| near(x) / den).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_denominators() {
        let q = |p: i64, d: i64| Rational::from_signeds(p, d);
        let (numerators, d) = common_denominator(&[q(1, 6), q(-3, 4), q(2, 1)]);
        assert_eq!(d, Natural::from(12u32));
        assert_eq!(numerators, vec![Integer::from(2), Integer::from(-9), Integer::from(24)]);
    }

    #[test]
    fn dots_and_entries_match_rational_arithmetic() {
        let q = |p: i64, d: i64| Rational::from_signeds(p, d);
        let x = ScaledVector::from_rationals(&[q(1, 6), q(-3, 4), q(0, 1), q(2, 1)]);
        let y = ScaledVector::from_rationals(&[q(5, 7), q(1, 3), q(9, 2), q(-1, 5)]);
        assert_eq!(x.denominator, Integer::from(12));
        assert_eq!(x.dot(&y), q(5, 42) - q(1, 4) - q(2, 5));
        assert_eq!(x.dot_small(&[1, 2, 3, 4]), q(1, 6) - q(3, 2) + q(8, 1));
        assert_eq!(x.to_rationals(), vec![q(1, 6), q(-3, 4), q(0, 1), q(2, 1)]);
        assert_eq!(x.to_f64s(), vec![1.0 / 6.0, -0.75, 0.0, 2.0]);
        // Far beyond f64's range, the ratios survive.
        let big =
            ScaledVector { numerators: vec![Integer::from(3) << 5000u64], denominator: Integer::from(4) << 5000u64 };
        assert_eq!(big.to_f64s(), vec![0.75]);
    }
}
