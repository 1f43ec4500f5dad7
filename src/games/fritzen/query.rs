//! `gamesweep fritzen advise`: the best action for a player at the table.

use super::config::{MAX_POT, MAX_WEIGHT};
use super::dice::{DICE, Dice};
use super::dp::{Action, solve};
use super::model::Model;
use super::penalty::{Goal, expected_penalties};
use crate::error::UserError;
use crate::grid::{check_exact_range, format_decimal, parse_exact};

#[derive(Debug, clap::Subcommand)]
pub enum FritzenQuery {
    /// The best dice to set aside (with its expected cost and the runner-up).
    Advise {
        /// Aggressiveness: weight of the penalties dealt (0 to 1000; decimal, 1e2 or fraction).
        #[arg(long, default_value = "0", allow_negative_numbers = true)]
        lambda: String,
        /// Spread: extra weight of the penalty of 10 for every opponent at T <= 10 (0 to 1000).
        #[arg(long, default_value = "0", allow_negative_numbers = true)]
        mu: String,
        /// The street pot R every opponent receives for a completed street (0 to 10000).
        #[arg(long, default_value = "12", allow_negative_numbers = true)]
        pot: String,
        /// Dice already set aside, e.g. 2,4 (empty for none).
        #[arg(long, default_value = "")]
        aside: String,
        /// The dice just thrown, e.g. 3,4,4.
        #[arg(long)]
        throw: String,
        /// Playing for a street (the dice aside must then all differ).
        #[arg(long)]
        street: bool,
    },
}

/// Answers a query on standard output.
pub fn run(query: &FritzenQuery) -> Result<(), UserError> {
    let FritzenQuery::Advise { lambda, mu, pot, aside, throw, street } = query;
    // The same numbers and ranges a config accepts.
    let number = |name: &str, text: &str, max: u32| {
        let value = parse_exact(text).map_err(|why| UserError::new(format!("--{name}: {why}")))?;
        check_exact_range(&value, max).map_err(|why| UserError::new(format!("--{name}: {why}")))?;
        Ok(value)
    };
    let (lambda, mu, pot) =
        (number("lambda", lambda, MAX_WEIGHT)?, number("mu", mu, MAX_WEIGHT)?, number("pot", pot, MAX_POT)?);
    let aside_dice = parse_dice("aside", aside)?;
    let throw_dice = parse_dice("throw", throw)?;
    if throw_dice.is_empty() {
        return Err(UserError::new("--throw: no dice given, expected the dice just thrown, e.g. 3,4,4"));
    }
    if aside_dice.len() + throw_dice.len() != DICE {
        return Err(UserError::new(format!(
            "--aside and --throw: {} dice aside and {} thrown make {}, a turn has exactly {DICE} dice",
            aside_dice.len(),
            throw_dice.len(),
            aside_dice.len() + throw_dice.len()
        )));
    }
    if *street && !aside_dice.is_set() {
        return Err(UserError::new(format!(
            "--aside {aside_dice}: in a street the dice aside must all differ (a turn with equal dice aside is a normal turn)"
        )));
    }
    let model = Model::new();
    let u = expected_penalties::<f64>();
    let goal = Goal { lambda: crate::exact::to_f64(&lambda), mu: crate::exact::to_f64(&mu) };
    let solution = solve(&model, |a| goal.terminal_cost(a.pips(), &u), goal.street_cost(&crate::exact::to_f64(&pot)));
    println!(
        "lambda = {}, mu = {}, pot = {}; aside {aside_dice}, thrown {throw_dice}{}:",
        format_decimal(&lambda),
        format_decimal(&mu),
        format_decimal(&pot),
        if *street { ", playing for a street" } else { "" }
    );
    let normal = solution.normal_actions(&model, &aside_dice, &throw_dice);
    if *street {
        let actions = solution.street_actions(&model, &aside_dice, &throw_dice);
        if actions.is_empty() {
            println!("  No new face: the street is over and the turn goes on as a normal turn.");
            print_actions("normal", &normal);
        } else {
            print_actions("street", &actions);
        }
    } else {
        print_actions("normal", &normal);
        if aside_dice.is_empty() {
            let streets = solution.street_actions(&model, &aside_dice, &throw_dice);
            let (w, v) = (streets[0].value, normal[0].value);
            println!(
                "  Announce a street? {} (best street {} at {w:.6} vs {v:.6} normal).",
                if w < v { "yes" } else { "no" },
                streets[0].part
            );
        }
    }
    Ok(())
}

fn print_actions(mode: &str, actions: &[Action<f64>]) {
    println!("  best ({mode}): set aside {}  expected cost {:.6}", actions[0].part, actions[0].value);
    match actions.get(1) {
        Some(second) => println!(
            "  runner-up:     set aside {}  expected cost {:.6} (+{:.6})",
            second.part,
            second.value,
            second.value - actions[0].value
        ),
        None => println!("  (no other action)"),
    }
}

/// Parses "3,4,4" (or "" for no dice).
fn parse_dice(name: &str, text: &str) -> Result<Dice, UserError> {
    let mut faces = Vec::new();
    if text.trim().is_empty() {
        return Dice::from_faces(&faces).map_err(|why| UserError::new(format!("--{name}: {why}")));
    }
    for part in text.split(',').map(str::trim) {
        match part.parse::<u8>() {
            Ok(v @ 1..=6) => faces.push(v),
            _ if part.is_empty() => {
                return Err(UserError::new(format!("--{name}: an empty entry in {text:?} (write the dice as 3,4,4)")));
            }
            _ => return Err(UserError::new(format!("--{name}: {part:?} is not a die (allowed: 1 to 6)"))),
        }
    }
    Dice::from_faces(&faces).map_err(|why| UserError::new(format!("--{name}: {why}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn advise(aside: &str, throw: &str, street: bool) -> Result<(), UserError> {
        run(&FritzenQuery::Advise {
            lambda: "1".into(),
            mu: "1".into(),
            pot: "12".into(),
            aside: aside.into(),
            throw: throw.into(),
            street,
        })
    }

    #[test]
    fn bad_dice_get_one_clear_line() {
        assert!(advise("2,4", "3,4,7,1", false).unwrap_err().0.contains("--throw: \"7\" is not a die"));
        assert!(advise("2,4", "", false).unwrap_err().0.contains("no dice given"));
        assert!(advise("2,4,5", "3,4,4,1", false).unwrap_err().0.contains("exactly 6 dice"));
        assert!(advise("", "1,1,1,1,1,1,1", false).unwrap_err().0.contains("at most 6"));
        assert!(advise("2,2", "1,2,3,4", true).unwrap_err().0.contains("must all differ"));
        assert!(advise("2,4", "3,4,4,1", false).is_ok());
        assert!(advise("2,4", "2,2,4,4", true).is_ok());
    }
}
