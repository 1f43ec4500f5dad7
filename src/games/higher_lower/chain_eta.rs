//! How long the rest of a chain of N will take, for the progress line. A
//! chunk of the sweep solves its first N cold and the rest warm, one after
//! the other, so the chunk just below a power of two sets the sweep's wall
//! time; its user wants to know when it ends, not how many tasks are left.
//!
//! Within one chunk the warm N cost about the same (their rounds vary more
//! than the master's size does), so the estimate is the warm N's measured
//! seconds per m^3 (m the master's rows, a pivot's cost times the number of
//! rows that change), times the m^3 of the N left. The cold first N says
//! nothing about the warm ones and is left out; so are N resumed from a
//! checkpoint, which cost nothing.

/// The measured warm N of one chain so far.
#[derive(Default)]
pub struct ChainEta {
    seconds: f64,
    weight: f64,
}

/// The relative cost of one warm N: the cube of the master's rows.
fn weight(n: usize) -> f64 {
    (n.div_ceil(2) as f64).powi(3)
}

impl ChainEta {
    /// Records a warm N solved in `seconds` (all its stages).
    pub fn record_warm(&mut self, n: usize, seconds: f64) {
        self.seconds += seconds;
        self.weight += weight(n);
    }

    /// The seconds the N in `left` should take, once a warm N was measured.
    pub fn remaining(&self, left: &[usize]) -> Option<f64> {
        (self.weight > 0.0).then(|| self.seconds / self.weight * left.iter().map(|&n| weight(n)).sum::<f64>())
    }

    /// ", about H:MM:SS left in this chain", or nothing before the first warm N.
    pub fn note(&self, left: &[usize]) -> String {
        match self.remaining(left) {
            Some(seconds) if !left.is_empty() => format!(", about {} left in this chain", clock(seconds)),
            _ => String::new(),
        }
    }
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
        assert_eq!(eta.remaining(&[10, 11]), None);
        assert_eq!(eta.note(&[10, 11]), "");
    }

    #[test]
    fn scales_the_measured_seconds_by_the_cube_of_the_rows() {
        let mut eta = ChainEta::default();
        // m = 50 for N = 99 and 100: 2 s each.
        eta.record_warm(99, 2.0);
        eta.record_warm(100, 2.0);
        let left = eta.remaining(&[101, 199]).unwrap();
        // m = 51 and 100: 2 s * (51^3 + 100^3) / 50^3.
        let expected = 2.0 * (51f64.powi(3) + 100f64.powi(3)) / 50f64.powi(3);
        assert!((left - expected).abs() < 1e-9, "{left} against {expected}");
        assert_eq!(eta.note(&[101, 199]), ", about 0:00:18 left in this chain");
        assert_eq!(eta.note(&[]), "");
    }

    #[test]
    fn clock_carries_minutes_into_hours() {
        assert_eq!(clock(3599.6), "1:00:00");
        assert_eq!(clock(7322.0), "2:02:02");
        assert_eq!(clock(-1.0), "0:00:00");
    }
}
