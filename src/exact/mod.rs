//! Exact arithmetic shared by the games: the "p/q" text form stored in the
//! tables, a fast ring for dice probabilities, a scalar trait that lets one
//! algorithm run in f64 (sweeps) and in exact arithmetic (verification), and
//! exact solutions of integer linear systems by p-adic lifting.

mod dice_rational;
mod fraction;
mod padic;
mod rank;
mod scalar;
mod scaled;

pub use dice_rational::DiceRational;
pub use fraction::{format_pq, parse_canonical_pq, parse_pq, to_f64};
pub use padic::{ExactSolution, PadicError, PadicSolver};
pub use rank::{Pivots, pivots_mod_p, rank_mod_p};
pub use scalar::{ExactScalar, Scalar};
pub use scaled::{ScaledVector, common_denominator};

pub use malachite::{Integer, Natural, Rational};
