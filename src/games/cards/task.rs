//! What one cards task computes: its parameters.

use super::card_rows::Distribution;

/// A block of random rows of one length and model.
#[derive(Debug, Clone, PartialEq)]
pub struct CardsTask {
    pub n: usize,
    pub distribution: Distribution,
    pub seed: u64,
    /// Row indices first..last (inclusive).
    pub first: u64,
    pub last: u64,
    pub minimax: bool,
    /// The optimal score comes from the content cache (`optimal::best_score_cached`).
    pub cache: bool,
}
