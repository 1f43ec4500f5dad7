//! One numeric interface for f64 and the exact types, so that a solver is
//! written once and run fast in floating point and again, exactly, to verify.

use super::dice_rational::DiceRational;
use super::fraction::to_f64;
use malachite::Rational;
use std::fmt::Debug;

/// The arithmetic the dice solvers need: a commutative ring with order,
/// containing the dice probabilities `count / 6^dice`.
pub trait Scalar: Clone + PartialOrd + Debug + Send + Sync {
    fn from_int(n: i64) -> Self;
    /// `count / 6^dice`: the probability of `count` of the 6^dice equally likely
    /// outcomes of a throw of `dice` dice.
    fn dice_prob(count: i64, dice: u32) -> Self;
    fn add(&self, other: &Self) -> Self;
    fn sub(&self, other: &Self) -> Self;
    fn mul(&self, other: &Self) -> Self;
    /// The nearest f64 (for exact types) or the value itself.
    fn to_f64(&self) -> f64;

    fn zero() -> Self {
        Self::from_int(0)
    }
}

/// A scalar that holds its value exactly.
pub trait ExactScalar: Scalar {
    /// The value in lowest terms.
    fn to_rational(&self) -> Rational;
}

impl ExactScalar for Rational {
    fn to_rational(&self) -> Rational {
        self.clone()
    }
}

impl ExactScalar for DiceRational {
    fn to_rational(&self) -> Rational {
        DiceRational::to_rational(self)
    }
}

impl Scalar for f64 {
    fn from_int(n: i64) -> Self {
        n as f64
    }
    fn dice_prob(count: i64, dice: u32) -> Self {
        count as f64 / 6f64.powi(dice as i32)
    }
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
    fn mul(&self, other: &Self) -> Self {
        self * other
    }
    fn to_f64(&self) -> f64 {
        *self
    }
}

impl Scalar for Rational {
    fn from_int(n: i64) -> Self {
        Rational::from(n)
    }
    fn dice_prob(count: i64, dice: u32) -> Self {
        Rational::from_signeds(count, 6i64.pow(dice))
    }
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
    fn mul(&self, other: &Self) -> Self {
        self * other
    }
    fn to_f64(&self) -> f64 {
        to_f64(self)
    }
}

impl Scalar for DiceRational {
    fn from_int(n: i64) -> Self {
        DiceRational::new(n, 0)
    }
    fn dice_prob(count: i64, dice: u32) -> Self {
        DiceRational::new(count, dice)
    }
    fn add(&self, other: &Self) -> Self {
        DiceRational::add(self, other)
    }
    fn sub(&self, other: &Self) -> Self {
        DiceRational::sub(self, other)
    }
    fn mul(&self, other: &Self) -> Self {
        DiceRational::mul(self, other)
    }
    fn to_f64(&self) -> f64 {
        to_f64(&self.to_rational())
    }
}
