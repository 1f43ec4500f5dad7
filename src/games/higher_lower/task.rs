//! What one higher-lower task computes: its parameters and their cost.

use super::solve::Method;

/// One task: consecutive N (or a run of the configured N) for one method.
#[derive(Debug, Clone, PartialEq)]
pub struct HigherLowerTask {
    pub method: Method,
    pub ns: Vec<usize>,
    pub tolerance: f64,
}

/// A rough model of the seconds one N takes, for scheduling only: the master
/// costs about m^4 (m^2 pivots of O(m^2)), many times more just below a power
/// of two, where Alice's strategy is not the uniform interior and column
/// generation needs far more rounds (N = 993: 70-100 s warm, N = 956: 12 s,
/// N = 701: 1.2 s).
pub fn expected_solve_cost(n: usize) -> f64 {
    let m = n.div_ceil(2) as f64;
    let octave = (n as f64).log2().floor().exp2();
    let position = n as f64 / octave; // in [1, 2): how far N is into its octave
    1e-11 * m.powi(4) / (2.02 - position).powi(2) + 1e-8 * m.powi(3)
}
