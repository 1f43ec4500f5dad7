//! Battle probabilities against brute-force Monte Carlo with real dice: the
//! simulation throws and compares physical dice by the rules, sharing no code
//! with the solver except the optimal defender's recorded choices.

use gamesweep::exact::{DiceRational, Scalar};
use gamesweep::games::risk::battle::{Battles, DefenderRule};
use gamesweep::games::risk::dice::Roll;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn throw(rng: &mut ChaCha8Rng, n: u32) -> Vec<u8> {
    let mut dice: Vec<u8> = (0..n).map(|_| rng.random_range(1..=6)).collect();
    dice.sort_unstable_by(|a, b| b.cmp(a));
    dice
}

/// Plays one battle; returns (conquered, attackers left, defenders left).
fn play(
    rng: &mut ChaCha8Rng,
    mut a: u32,
    mut d: u32,
    battles: &Battles<DiceRational>,
    rule: DefenderRule,
) -> (bool, u32, u32) {
    while a >= 2 && d >= 1 {
        let attack = throw(rng, (a - 1).min(3));
        let defender_dice = match rule {
            DefenderRule::MaxDice => d.min(2),
            DefenderRule::Optimal => {
                let roll = Roll { x: attack[0], y: attack.get(1).copied().unwrap_or(0) };
                battles.decisions(a, d).map_or(d.min(2), |choices| {
                    u32::from(choices.iter().find(|c| c.roll == roll).expect("every roll has a choice").dice)
                })
            }
        };
        let defence = throw(rng, defender_dice);
        for (x, r) in attack.iter().zip(&defence) {
            if r >= x { a -= 1 } else { d -= 1 }
        }
    }
    (d == 0, a, d)
}

#[test]
fn battle_values_lie_in_the_monte_carlo_confidence_intervals() {
    let trials = 200_000;
    let mut rng = ChaCha8Rng::seed_from_u64(20261122);
    for rule in [DefenderRule::MaxDice, DefenderRule::Optimal] {
        let battles = Battles::<DiceRational>::solve(12, 10, rule);
        for (a, d) in [(2, 1), (3, 2), (4, 3), (6, 5), (12, 10)] {
            let (mut wins, mut left_a, mut left_a2, mut left_d, mut left_d2) = (0u64, 0f64, 0f64, 0f64, 0f64);
            for _ in 0..trials {
                let (won, la, ld) = play(&mut rng, a, d, &battles, rule);
                wins += u64::from(won);
                left_a += f64::from(la);
                left_a2 += f64::from(la * la);
                left_d += f64::from(ld);
                left_d2 += f64::from(ld * ld);
            }
            let n = f64::from(trials);
            let exact = battles.outcome(a, d);
            // Sample mean and its standard error from the sum and the sum of squares;
            // 4.4 standard errors: a false alarm has probability about 1e-5 per check.
            let check = |what: &str, sum: f64, sum_of_squares: f64, exact: &DiceRational| {
                let mean = sum / n;
                let sd = ((sum_of_squares / n - mean * mean).max(1e-12) / n).sqrt();
                let value = exact.to_f64();
                assert!(
                    (mean - value).abs() <= 4.4 * sd,
                    "{rule:?} ({a},{d}) {what}: simulated {mean:.5} +- {sd:.5}, exact {value:.5}"
                );
            };
            check("conquest", wins as f64, wins as f64, &exact.conquest);
            check("attackers left", left_a, left_a2, &exact.attackers_left);
            check("defenders left", left_d, left_d2, &exact.defenders_left);
        }
    }
}
