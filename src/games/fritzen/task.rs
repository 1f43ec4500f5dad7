//! What one Fritzen task computes: its parameters, and the names of goals in ids.

use super::analysis::Setting;
use super::rollout::RolloutPolicy;
use crate::exact::Rational;
use crate::grid::format_decimal;
use sha2::{Digest, Sha256};

/// The pot up to which street thresholds are searched.
pub const THRESHOLD_MAX_POT: f64 = 10_000.0;

/// A goal as (lambda, mu).
pub type GoalPair = (Rational, Rational);

/// One Fritzen task; each variant is one independent computation.
#[derive(Debug, Clone)]
pub enum FritzenTask {
    /// U_x, state counts and the thesis's goal probabilities.
    Reference,
    /// A chunk of settings: summary, first throws, policy if asked.
    Settings { settings: Vec<Setting>, policy: bool, verify: usize },
    /// The street thresholds over the pot of one goal's first throws.
    Thresholds { goal: GoalPair },
    /// Seeded games at one table: each seat a goal, with or without the street option.
    Simulation {
        label: String,
        seats: Vec<(GoalPair, bool)>,
        games: u32,
        rounds: u32,
        seed: u64,
        fixed_pot: Option<u32>,
    },
    /// Monte-Carlo rollout policies against the DP for one goal.
    Rollout { goal: GoalPair, policies: Vec<RolloutPolicy>, rollouts: u32, seed: u64 },
}

/// A file-name-safe form of an exact number: "1.5", "1over3".
pub fn slug(value: &Rational) -> String {
    format_decimal(value).replace('/', "over")
}

/// A goal in ids and labels: "l1.5-m1over3".
pub fn goal_slug((lambda, mu): &GoalPair) -> String {
    format!("l{}-m{}", slug(lambda), slug(mu))
}

/// First 8 hex digits of the SHA-256 of `text`: ids that change when the content does.
pub fn short_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().take(4).map(|b| format!("{b:02x}")).collect()
}

/// Which of `n` items to pick for `k` evenly spread picks (first and last included).
pub fn spread(n: usize, k: usize) -> Vec<bool> {
    let mut picked = vec![false; n];
    if n <= k {
        picked.fill(true);
    } else if k == 1 {
        picked[0] = true;
    } else {
        for j in 0..k {
            picked[j * (n - 1) / (k - 1)] = true;
        }
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreads_picks_evenly() {
        assert_eq!(spread(3, 5), vec![true; 3]);
        assert_eq!(spread(5, 2), vec![true, false, false, false, true]);
        assert_eq!(spread(7, 3), vec![true, false, false, true, false, false, true]);
        assert_eq!(spread(4, 1), vec![true, false, false, false]);
    }

    #[test]
    fn slugs_are_file_name_safe() {
        let third = Rational::from_signeds(1, 3);
        assert_eq!(goal_slug(&(Rational::from_signeds(3, 2), third)), "l1.5-m1over3");
    }
}
