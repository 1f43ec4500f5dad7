//! How long the rest of a chain of N will take, for the progress line. A
//! chunk of the sweep solves its first N cold and the rest warm, one after
//! the other, so the chunk just below a power of two sets the sweep's wall
//! time; its user wants to know when it ends, not how many tasks are left.
//!
//! The estimate is the chain's warm N's measured seconds per unit of
//! `weight`, times the weight of the N left. A warm N's cost grows as about
//! m^2.5 (m the master's rows) and, within the last eighth below a power of
//! two, by a factor that grows with each halving of the distance to it (the
//! dual converges slowly there): both fitted to the warm N >= 128 of the
//! 1024 sweep (docs/history.md#d7c006a-a-chains-eta-from-a-fitted-cost-of-each-warm-n).
//! The cold first N says nothing about the warm ones and is left out. A
//! warm N resumed from a checkpoint counts with the seconds its step
//! stored, so a resumed chain has an estimate from its first line. Every
//! progress line of the chain carries it (a log without a terminal keeps
//! one line in 30 s, so a note on the last line of an N alone is mostly
//! lost); within an N the estimate is its expected cost less the seconds
//! already spent on it, never below zero, plus the N after it. The scheduling hint
//! (`task::expected_solve_cost`) ranks whole tasks across octaves; as this
//! weight it gave 0.92-4.2 times the time left (docs/history.md, `fadae21`'s entry).

/// The measured warm N of one chain so far.
#[derive(Default)]
pub struct ChainEta {
    seconds: f64,
    weight: f64,
}

/// The relative cost of one warm N: m^2.5, times 1 + 1.4 log2(1 / (8 d))
/// where d = (2^k - N + 1) / 2^k < 1/8 is N's distance below the next power
/// of two 2^k >= N.
fn weight(n: usize) -> f64 {
    let rows = n.div_ceil(2) as f64;
    let power = n.next_power_of_two() as f64;
    let distance = (power - n as f64 + 1.0) / power;
    rows.powf(2.5) * (1.0 + 1.4 * (1.0 / (8.0 * distance)).log2().max(0.0))
}

impl ChainEta {
    /// Records a warm N solved in `seconds` (all its stages).
    pub fn record_warm(&mut self, n: usize, seconds: f64) {
        self.seconds += seconds;
        self.weight += weight(n);
    }

    /// The N of `ns`, weighed once for the estimates that follow.
    pub fn weigh(ns: &[usize]) -> Weighed {
        Weighed { weight: ns.iter().map(|&n| weight(n)).sum(), empty: ns.is_empty() }
    }

    /// The seconds the chain should still take, once a warm N was measured:
    /// the rest of the N `in_progress` (N and the seconds spent on it so far),
    /// if one is, and the N `after` it.
    pub fn remaining(&self, in_progress: Option<(usize, f64)>, after: &Weighed) -> Option<f64> {
        let per_weight = (self.weight > 0.0).then(|| self.seconds / self.weight)?;
        let current = in_progress.map_or(0.0, |(n, spent)| (per_weight * weight(n) - spent).max(0.0));
        Some(current + per_weight * after.weight)
    }

    /// ", about H:MM:SS left in this chain", or nothing before the first warm
    /// N or once the chain has nothing left.
    pub fn note(&self, in_progress: Option<(usize, f64)>, after: &Weighed) -> String {
        match self.remaining(in_progress, after) {
            Some(seconds) if in_progress.is_some() || !after.empty => {
                format!(", about {} left in this chain", clock(seconds))
            }
            _ => String::new(),
        }
    }
}

/// A run of N's summed weight.
pub struct Weighed {
    weight: f64,
    empty: bool,
}

/// Seconds as H:MM:SS.
fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_estimate_before_a_warm_n() {
        let eta = ChainEta::default();
        assert_eq!(eta.remaining(Some((9, 1.0)), &ChainEta::weigh(&[10, 11])), None);
        assert_eq!(eta.note(Some((9, 1.0)), &ChainEta::weigh(&[10, 11])), "");
    }

    #[test]
    fn scales_the_measured_seconds_by_the_rows_to_the_power_2_5_mid_octave() {
        let mut eta = ChainEta::default();
        // m = 50 for N = 99 and 100 (at least an eighth below 128): 2 s each.
        eta.record_warm(99, 2.0);
        eta.record_warm(100, 2.0);
        // N = 101 (m = 51) and 199 (m = 100, far below 256).
        let left = eta.remaining(None, &ChainEta::weigh(&[101, 199])).unwrap();
        let expected = 2.0 * (51f64.powf(2.5) + 100f64.powf(2.5)) / 50f64.powf(2.5);
        assert!((left - expected).abs() < 1e-9, "{left} against {expected}");
        assert_eq!(eta.note(None, &ChainEta::weigh(&[101, 199])), ", about 0:00:13 left in this chain");
        assert_eq!(eta.note(None, &ChainEta::weigh(&[])), "");
    }

    #[test]
    fn the_n_in_progress_counts_what_it_has_left() {
        let mut eta = ChainEta::default();
        eta.record_warm(100, 2.0);
        // N = 100 again, 0.5 s in: 1.5 s of it left, then 2 s for the next.
        let left = eta.remaining(Some((100, 0.5)), &ChainEta::weigh(&[100])).unwrap();
        assert!((left - 3.5).abs() < 1e-9, "{left}");
        // Past its expected cost it counts as nothing left, never as less.
        let left = eta.remaining(Some((100, 60.0)), &ChainEta::weigh(&[100])).unwrap();
        assert!((left - 2.0).abs() < 1e-9, "{left}");
        assert_eq!(eta.note(Some((100, 60.0)), &ChainEta::weigh(&[])), ", about 0:00:00 left in this chain");
    }

    #[test]
    fn the_last_eighth_below_a_power_of_two_costs_more_each_halving_closer() {
        let factor = |n: usize| weight(n) / (n.div_ceil(2) as f64).powf(2.5);
        // 897 is an eighth below 1024 (d = 128 / 1024): no extra cost yet.
        assert!((factor(897) - 1.0).abs() < 1e-12);
        assert!((factor(600) - 1.0).abs() < 1e-12);
        // N = 1024: d = 1 / 1024, seven halvings below an eighth.
        assert!((factor(1024) - (1.0 + 1.4 * 7.0)).abs() < 1e-9);
        assert!((factor(961) - (1.0 + 1.4)).abs() < 1e-9);
        let factors: Vec<f64> = (897..=1024).map(factor).collect();
        assert!(factors.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn clock_carries_minutes_into_hours() {
        assert_eq!(clock(3599.6), "1:00:00");
        assert_eq!(clock(7322.0), "2:02:02");
        assert_eq!(clock(-1.0), "0:00:00");
    }
}
