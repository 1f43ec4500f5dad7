//! The points a round prices: where Bob's best trees are sought, between the
//! master's duals and what the method draws them toward (the seed's guess,
//! or our stability centre and the running average of the duals).

use super::options::{Method, SolveOptions, SpeedUp};
use super::stabilisation::mix;

/// Weight of the guess in the seed's mixing heuristic at the start.
pub const GUESS_WEIGHT: f64 = 0.9;

/// The points `auto` prices each round, as weights of the stability centre in
/// c * centre + (1 - c) * pi (Wentges smoothing, spread out): every point's
/// best tree that improves the master enters, so one master solve gets
/// several cuts from between the best dual point and the master's duals.
/// A few points need several times fewer rounds than stopping at the first
/// improving point; many more save few rounds for their pricing. Warm solves
/// price these five and three toward the average below, eight DPs a round.
/// The counts tried and the rejected variants: docs/history.md.
pub const SPREAD: [f64; 5] = [0.99, 0.9, 0.7, 0.5, 0.0];

/// `auto` also prices c * centre + (1 - c) * average for these c, where the
/// average is a running mean of the master's normalised duals (the newest
/// weighted `AVERAGE_NEWEST`). Near a power of two the warm guess from N - 1
/// is within a few 1e-6 of V but is not beaten for hundreds of rounds,
/// because the direction from the centre to the vertex duals pi is no ascent
/// direction; Kelley's vertex duals oscillate, and their average is better
/// centred (the cheap part of an analytic-centre master).
pub const TOWARD_AVERAGE: [f64; 3] = [0.9, 0.5, 0.0];
const AVERAGE_NEWEST: f64 = 0.2;

/// The points of a cold solve (no N - 1), as `SPREAD` and `TOWARD_AVERAGE`:
/// six DPs a round. Its rounds are many and cheap (few pivots each), so the
/// DPs weigh more than in a warm solve.
const COLD_SPREAD: [f64; 4] = [0.99, 0.9, 0.5, 0.0];
const COLD_TOWARD_AVERAGE: [f64; 2] = [0.9, 0.5];

/// What a round's points are drawn toward besides the duals: the seed's
/// guess gamma with its weight (`guess`) and the stability centre (`auto`).
#[derive(Clone, Copy)]
pub struct Anchors<'a> {
    pub gamma: Option<&'a [f64]>,
    pub guess_weight: f64,
    pub centre: Option<&'a [f64]>,
    /// Whether the centre itself is priced first (the first round of a
    /// solve whose centre was not priced before it).
    pub centre_first: bool,
}

/// Whether the solve started from N - 1 (warm) or from scratch (cold).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Start {
    Warm,
    Cold,
}

/// The points to price in a round, nearest the stability centre first: the
/// seed's guess mixing for `guess`; for `auto` the centre alone in the first
/// round (`Anchors::centre_first`), then the spread from the centre to pi (`SPREAD`,
/// or `COLD_SPREAD`) and toward the running average of the duals
/// (`TOWARD_AVERAGE`, or `COLD_TOWARD_AVERAGE`; `average` keeps the average).
pub fn round_points(
    options: &SolveOptions,
    start: Start,
    anchors: &Anchors,
    pi: &[f64],
    average: &mut Option<Vec<f64>>,
) -> Vec<Vec<f64>> {
    let Anchors { gamma, guess_weight, centre, centre_first } = *anchors;
    match (options.method, gamma, centre) {
        (Method::Guess, Some(g), _) if guess_weight > 0.0 => vec![mix(g, pi, guess_weight), pi.to_vec()],
        (Method::Auto, _, Some(c)) => {
            let (spread, toward_average): (&[f64], &[f64]) = match start {
                Start::Cold => (&COLD_SPREAD, &COLD_TOWARD_AVERAGE),
                Start::Warm => (&SPREAD, &TOWARD_AVERAGE),
            };
            let first = centre_first.then_some(1.0);
            let mut points: Vec<Vec<f64>> =
                first.into_iter().chain(spread.iter().copied()).map(|w| mix(c, pi, w)).collect();
            if options.uses(SpeedUp::AveragedDuals) {
                let mean = average.as_ref().map_or_else(|| pi.to_vec(), |a| mix(pi, a, AVERAGE_NEWEST));
                points.extend(toward_average.iter().map(|&w| mix(c, &mean, w)));
                *average = Some(mean);
            }
            points
        }
        _ => vec![pi.to_vec()],
    }
}

/// The guess's weight after a guessed point found nothing: trust it less.
pub fn decayed(guess_weight: f64) -> f64 {
    if guess_weight < 0.02 { 0.0 } else { guess_weight * 0.5 }
}
