//! Exact numbers of the form n / 6^e: the ring Z[1/6] in which every dice
//! probability and every expectation over fair dice lives.
//!
//! Keeping the denominator a power of six makes exact dynamic programmes over
//! dice fast: adding two values only scales one numerator by a small power of
//! six, and no gcd is ever taken. Values are reduced only when converted to a
//! [`Rational`] for output.

use malachite::base::num::arithmetic::traits::Pow;
use malachite::{Integer, Rational};
use std::cmp::Ordering;

/// The exact value `num / 6^exp` (not necessarily in lowest terms).
#[derive(Clone, Debug)]
pub struct DiceRational {
    num: Integer,
    exp: u32,
}

impl DiceRational {
    /// The value `num / 6^exp`.
    pub fn new(num: i64, exp: u32) -> Self {
        DiceRational { num: Integer::from(num), exp }
    }

    /// The integer `num`.
    pub fn from_integer(num: Integer) -> Self {
        DiceRational { num, exp: 0 }
    }

    /// The same value in lowest terms.
    pub fn to_rational(&self) -> Rational {
        Rational::from_integers_ref(&self.num, &power_of_six(self.exp))
    }

    /// The numerator scaled to denominator 6^exp (exp >= self.exp).
    fn numerator_at(&self, exp: u32) -> Integer {
        if exp == self.exp { self.num.clone() } else { &self.num * power_of_six(exp - self.exp) }
    }

    pub(crate) fn add(&self, other: &Self) -> Self {
        let exp = self.exp.max(other.exp);
        DiceRational { num: self.numerator_at(exp) + other.numerator_at(exp), exp }
    }

    pub(crate) fn sub(&self, other: &Self) -> Self {
        let exp = self.exp.max(other.exp);
        DiceRational { num: self.numerator_at(exp) - other.numerator_at(exp), exp }
    }

    pub(crate) fn mul(&self, other: &Self) -> Self {
        DiceRational { num: &self.num * &other.num, exp: self.exp + other.exp }
    }
}

fn power_of_six(exp: u32) -> Integer {
    if exp <= 24 { Integer::from(6u64.pow(exp)) } else { Integer::from(6u32).pow(u64::from(exp)) }
}

impl PartialEq for DiceRational {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for DiceRational {}

impl PartialOrd for DiceRational {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for DiceRational {
    fn cmp(&self, other: &Self) -> Ordering {
        let exp = self.exp.max(other.exp);
        self.numerator_at(exp).cmp(&other.numerator_at(exp))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rational(num: i64, den: i64) -> Rational {
        Rational::from_signeds(num, den)
    }

    #[test]
    fn arithmetic_matches_rationals() {
        let a = DiceRational::new(5, 1); // 5/6
        let b = DiceRational::new(-7, 2); // -7/36
        assert_eq!(a.add(&b).to_rational(), rational(23, 36));
        assert_eq!(a.sub(&b).to_rational(), rational(37, 36));
        assert_eq!(a.mul(&b).to_rational(), rational(-35, 216));
    }

    #[test]
    fn compares_across_exponents() {
        let half = DiceRational::new(3, 1);
        let same = DiceRational::new(18, 2);
        assert_eq!(half, same);
        assert!(DiceRational::new(17, 2) < half);
        assert!(DiceRational::new(-1, 30) < DiceRational::new(0, 0));
    }

    #[test]
    fn reduces_on_output() {
        assert_eq!(DiceRational::new(216, 3).to_rational(), rational(1, 1));
        let big = DiceRational::new(1, 40);
        assert_eq!(
            big.mul(&DiceRational::new(36, 0)).to_rational(),
            Rational::from_integers(Integer::from(1), Integer::from(6u32).pow(38))
        );
    }
}
