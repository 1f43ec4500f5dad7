//! Random rows of cards, reproducible from (seed, N, distribution, row index): the
//! plain integer model and a realistic card model.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use std::fmt;

/// Highest card value allowed in the integer model.
pub const MAX_VALUE: u32 = 1_000_000;

/// How card values are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Distribution {
    /// Independent integers, uniform in low..=high.
    Uniform { low: u32, high: u32 },
    /// N cards dealt from a 52-card deck: values 2..=14, four of each (N <= 52).
    Deck,
}

impl Distribution {
    /// Most cards a row of this model can have.
    pub fn max_cards(self) -> Option<usize> {
        match self {
            Distribution::Deck => Some(52),
            Distribution::Uniform { .. } => None,
        }
    }

    /// The row with this index.
    pub fn row(self, seed: u64, n: usize, index: u64) -> Vec<u32> {
        let mut mix = seed ^ 0x9E37_79B9_7F4A_7C15;
        for part in [n as u64, self.code(), index] {
            mix = (mix ^ part).wrapping_mul(0xBF58_476D_1CE4_E5B9).rotate_left(31);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(mix);
        match self {
            Distribution::Uniform { low, high } => (0..n).map(|_| rng.random_range(low..=high)).collect(),
            Distribution::Deck => {
                let mut deck: Vec<u32> = (2..=14).flat_map(|v| [v; 4]).collect();
                // The first n cards of a Fisher-Yates shuffle.
                for i in 0..n {
                    let j = rng.random_range(i..deck.len());
                    deck.swap(i, j);
                }
                deck.truncate(n);
                deck
            }
        }
    }

    fn code(self) -> u64 {
        match self {
            Distribution::Uniform { low, high } => (u64::from(low) << 32) | u64::from(high),
            Distribution::Deck => u64::MAX,
        }
    }
}

/// "cards" or "uniform-LOW-HIGH".
impl crate::grid::Described for Distribution {
    fn described(&self) -> String {
        format!("\"{self}\"")
    }
}

impl fmt::Display for Distribution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Distribution::Uniform { low, high } => write!(f, "uniform-{low}-{high}"),
            Distribution::Deck => write!(f, "cards"),
        }
    }
}

impl std::str::FromStr for Distribution {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let bad =
            || format!("unknown distribution {text:?}, expected \"cards\" or \"uniform-LOW-HIGH\" (e.g. uniform-1-10)");
        if text == "cards" {
            return Ok(Distribution::Deck);
        }
        let range = text.strip_prefix("uniform-").ok_or_else(bad)?;
        let (low, high) = range.split_once('-').ok_or_else(bad)?;
        let (low, high): (u32, u32) = (low.parse().map_err(|_| bad())?, high.parse().map_err(|_| bad())?);
        if low > high || high > MAX_VALUE {
            return Err(format!("{text:?}: values must satisfy 0 <= LOW <= HIGH <= {MAX_VALUE}"));
        }
        Ok(Distribution::Uniform { low, high })
    }
}

impl<'de> Deserialize<'de> for Distribution {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer)?.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_reproducible_and_follow_the_model() {
        let uniform: Distribution = "uniform-1-4".parse().unwrap();
        assert_eq!(uniform.row(1, 30, 7), uniform.row(1, 30, 7));
        assert_ne!(uniform.row(1, 30, 7), uniform.row(1, 30, 8));
        assert!(uniform.row(1, 1000, 0).iter().all(|v| (1..=4).contains(v)));
        let deck = Distribution::Deck.row(3, 52, 0);
        let mut counts = [0; 15];
        for v in &deck {
            counts[*v as usize] += 1;
        }
        assert!(counts[2..].iter().all(|&c| c == 4), "a full deck: {counts:?}");
        assert_eq!(uniform.to_string(), "uniform-1-4");
        assert!("uniform-5-1".parse::<Distribution>().unwrap_err().contains("LOW <= HIGH"));
        assert!("normal".parse::<Distribution>().unwrap_err().contains("expected \"cards\""));
    }
}
