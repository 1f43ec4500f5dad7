//! Simulated games: 2..6 players around a table, each playing the optimal
//! policy of their own goal (lambda, mu), with the real penalties: 10 to
//! every opponent for T <= 10, 30 - T to oneself, the throwing for x after
//! T >= 30 (to the left neighbour), and a street pot that starts empty each
//! game, grows by 2 with every announced street and goes to every opponent
//! when a street is completed (or, as in the thesis's model, a fixed pot R).
//! Each game is seeded from (seed, game), so the result does not depend on
//! the number of threads.

use super::dice::{DICE, Dice, FACES};
use super::dp::{Solution, solve};
use super::model::Model;
use super::penalty::{Goal, MAX_X};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// The pot grows by this much with every announced street.
pub const POT_STEP: u32 = 2;

/// One seat at the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    pub goal: Goal<f64>,
    /// Whether the player may announce a street.
    pub street: bool,
}

/// A table and how long to play.
#[derive(Debug, Clone)]
pub struct Table {
    pub players: Vec<Player>,
    /// Games, each starting with an empty pot.
    pub games: u32,
    /// Turns of each player per game.
    pub rounds: u32,
    pub seed: u64,
    /// A fixed pot R for every street (the thesis's model); `None`: the real
    /// pot, empty at the start of a game and 2 more with every announcement.
    pub fixed_pot: Option<u32>,
}

/// Per player: means per turn over all games, with standard errors over games.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerStats {
    /// Penalty the player's own turns gave the player (30 - T).
    pub own: Estimate,
    /// Penalty the player's turns dealt to the others, in all.
    pub dealt: Estimate,
    /// Everything the player received, own turns and the others' (per turn).
    pub received: Estimate,
    pub streets_announced: u64,
    pub streets_completed: u64,
    pub turns: u64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    /// Standard error of the mean.
    pub se: f64,
}

/// What happened in one turn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TurnOutcome {
    /// Total pips aside (21 for a completed street).
    pub pips: u32,
    pub announced_street: bool,
    pub completed_street: bool,
}

/// Plays a table; policies are solved once per player and pot.
pub fn simulate(model: &Model, u: &[f64; MAX_X + 1], table: &Table) -> Vec<PlayerStats> {
    let players = table.players.len();
    // The pots a street can be played for: the fixed one, or up to POT_STEP per turn of a game.
    let pots: Vec<u32> = match table.fixed_pot {
        Some(pot) => vec![pot],
        None => (0..=table.rounds * players as u32).map(|k| k * POT_STEP).collect(),
    };
    let policies: Vec<Vec<Solution<f64>>> = table
        .players
        .iter()
        .map(|p| {
            pots.par_iter()
                .map(|&pot| solve(model, |a| p.goal.terminal_cost(a.pips(), u), p.goal.street_cost(&f64::from(pot))))
                .collect()
        })
        .collect();
    let per_game: Vec<GameTotals> =
        (0..table.games).into_par_iter().map(|game| play_game(model, &policies, table, game)).collect();
    (0..players)
        .map(|i| {
            let turns = u64::from(table.games) * u64::from(table.rounds);
            let estimate = |f: &dyn Fn(&GameTotals) -> f64| mean_and_se(per_game.iter().map(f), table.rounds);
            PlayerStats {
                own: estimate(&|g| g.own[i]),
                dealt: estimate(&|g| g.dealt[i]),
                received: estimate(&|g| g.received[i]),
                streets_announced: per_game.iter().map(|g| g.announced[i]).sum(),
                streets_completed: per_game.iter().map(|g| g.completed[i]).sum(),
                turns,
            }
        })
        .collect()
}

/// Mean per turn and its standard error from per-game sums over `rounds` turns.
fn mean_and_se(game_sums: impl Iterator<Item = f64>, rounds: u32) -> Estimate {
    let sums: Vec<f64> = game_sums.collect();
    let n = sums.len() as f64;
    let mean = sums.iter().sum::<f64>() / n;
    let variance = if sums.len() > 1 { sums.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    let per_turn = f64::from(rounds);
    Estimate { mean: mean / per_turn, se: (variance / n).sqrt() / per_turn }
}

/// Per-player sums of one game.
struct GameTotals {
    own: Vec<f64>,
    dealt: Vec<f64>,
    received: Vec<f64>,
    announced: Vec<u64>,
    completed: Vec<u64>,
}

fn play_game(model: &Model, policies: &[Vec<Solution<f64>>], table: &Table, game: u32) -> GameTotals {
    let mut rng = ChaCha8Rng::seed_from_u64(table.seed ^ (u64::from(game) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let p = table.players.len();
    let mut totals = GameTotals {
        own: vec![0.0; p],
        dealt: vec![0.0; p],
        received: vec![0.0; p],
        announced: vec![0; p],
        completed: vec![0; p],
    };
    let mut pot = table.fixed_pot.unwrap_or(0);
    for _ in 0..table.rounds {
        for (i, (player, player_policies)) in table.players.iter().zip(policies).enumerate() {
            // A street is played for the pot after its own announcement.
            let street_policy = match table.fixed_pot {
                Some(_) => &player_policies[0],
                None => &player_policies[((pot + POT_STEP) / POT_STEP) as usize],
            };
            let outcome = play_turn(&mut rng, model, street_policy, player.street);
            let deal = |totals: &mut GameTotals, to: usize, amount: f64| {
                totals.received[to] += amount;
                totals.dealt[i] += amount;
            };
            if outcome.announced_street {
                if table.fixed_pot.is_none() {
                    pot += POT_STEP;
                }
                totals.announced[i] += 1;
            }
            if outcome.completed_street {
                totals.completed[i] += 1;
                for other in (0..p).filter(|&o| o != i) {
                    deal(&mut totals, other, f64::from(pot));
                }
                pot = table.fixed_pot.unwrap_or(0);
            } else if outcome.pips <= 10 {
                for other in (0..p).filter(|&o| o != i) {
                    deal(&mut totals, other, 10.0);
                }
            } else if outcome.pips < 30 {
                let own = f64::from(30 - outcome.pips);
                totals.own[i] += own;
                totals.received[i] += own;
            } else if outcome.pips > 30 && p > 1 {
                let penalty = throw_for(&mut rng, outcome.pips - 30);
                deal(&mut totals, (i + 1) % p, f64::from(penalty));
            }
        }
    }
    totals
}

/// One turn under `policy` (a normal turn's choices do not depend on the pot).
pub fn play_turn(rng: &mut ChaCha8Rng, model: &Model, policy: &Solution<f64>, street_allowed: bool) -> TurnOutcome {
    let mut aside = Dice::EMPTY;
    let mut throw = roll(rng, DICE);
    let announced = street_allowed
        && policy.state_value(model, &aside, &throw, true) < policy.state_value(model, &aside, &throw, false);
    let mut street = announced;
    loop {
        let part = match street.then(|| policy.street_choice(model, &aside, &throw)).flatten() {
            Some(part) => part,
            None => {
                street = false;
                policy.normal_choice(model, &aside, &throw)
            }
        };
        aside = aside.plus(&part);
        if aside.len() == DICE {
            break;
        }
        throw = roll(rng, DICE - aside.len());
    }
    TurnOutcome { pips: aside.pips(), announced_street: announced, completed_street: street }
}

/// A throw of `n` dice.
pub fn roll(rng: &mut ChaCha8Rng, n: usize) -> Dice {
    let mut counts = [0u8; FACES];
    for _ in 0..n {
        counts[rng.random_range(0..FACES)] += 1;
    }
    Dice::from_counts(counts)
}

/// The throwing for x (1..=6): the penalty it deals.
pub fn throw_for(rng: &mut ChaCha8Rng, mut x: u32) -> u32 {
    let mut penalty = x;
    loop {
        let mut dice = DICE;
        while dice > 0 {
            let hits = (0..dice).filter(|_| rng.random_range(1..=6u32) == x).count();
            if hits == 0 {
                return penalty;
            }
            penalty += hits as u32 * x;
            dice -= hits;
        }
        // All six show x: on to x + 1, unless x = 6.
        if x as usize == MAX_X {
            return penalty;
        }
        x += 1;
        penalty += x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{Rational, to_f64};
    use crate::games::fritzen::penalty::expected_penalties;

    #[test]
    fn the_one_person_game_matches_its_exact_expectation() {
        let model = Model::new();
        let u = expected_penalties();
        let goal = Goal { lambda: 0.0, mu: 0.0 };
        let table = Table {
            players: vec![Player { goal: goal.clone(), street: false }, Player { goal: goal.clone(), street: false }],
            games: 20_000,
            rounds: 1,
            seed: 7,
            fixed_pot: None,
        };
        let stats = simulate(&model, &u, &table);
        let exact: Rational = {
            let ue: [crate::exact::DiceRational; 7] = expected_penalties();
            let g = Goal { lambda: crate::exact::DiceRational::new(0, 0), mu: crate::exact::DiceRational::new(0, 0) };
            let solution = solve(&model, |a| g.terminal_cost(a.pips(), &ue), crate::exact::DiceRational::new(0, 0));
            solution.normal_turn(&model).to_rational()
        };
        for s in &stats {
            let z = (s.own.mean - to_f64(&exact)) / s.own.se;
            assert!(z.abs() < 4.0, "simulated {} +- {} vs exact {}", s.own.mean, s.own.se, to_f64(&exact));
        }
    }

    #[test]
    fn throwing_for_x_averages_u_x() {
        let u = expected_penalties::<f64>();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let trials = 100_000;
        for x in [1u32, 4, 6] {
            let mean = (0..trials).map(|_| f64::from(throw_for(&mut rng, x))).sum::<f64>() / f64::from(trials);
            assert!((mean - u[x as usize]).abs() < 0.05, "x = {x}: {mean} vs {}", u[x as usize]);
        }
    }

    #[test]
    fn games_are_reproducible_and_thread_independent() {
        let model = Model::new();
        let u = expected_penalties();
        let table = Table {
            players: vec![
                Player { goal: Goal { lambda: 1.0, mu: 1.0 }, street: true },
                Player { goal: Goal { lambda: 3.0, mu: 1.0 }, street: true },
                Player { goal: Goal { lambda: 0.0, mu: 0.0 }, street: false },
            ],
            games: 300,
            rounds: 3,
            seed: 42,
            fixed_pot: None,
        };
        let a = simulate(&model, &u, &table);
        let b =
            rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| simulate(&model, &u, &table));
        assert_eq!(a, b);
        assert_eq!(a[2].streets_announced, 0);
        // Everything dealt is received by someone.
        let dealt: f64 = a.iter().map(|s| s.dealt.mean).sum();
        let received_from_others: f64 = a.iter().map(|s| s.received.mean - s.own.mean).sum();
        assert!((dealt - received_from_others).abs() < 1e-9);
        // A fixed pot of 12 makes streets worth announcing for (1, 1) and (3, 1).
        let fixed = simulate(&model, &u, &Table { fixed_pot: Some(12), ..table });
        assert!(fixed[1].streets_announced > a[1].streets_announced);
    }
}
