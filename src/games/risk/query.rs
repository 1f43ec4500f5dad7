//! `gamesweep risk ...`: answers for a player at the table, computed on the spot.

use super::battle::{Battles, DefenderRule};
use super::config::MAX_ARMIES;
use super::dice::Roll;
use super::long_run::{margin, optimum, roll_costs};
use crate::error::UserError;
use crate::exact::{DiceRational, format_pq, to_f64};

#[derive(Debug, clap::Subcommand)]
pub enum RiskQuery {
    /// The optimal long-run defence rule against three attack dice and its exact loss per army.
    Policy,
    /// Exact conquest probability and expected armies left for one battle.
    Battle {
        /// Armies on the attacking territory (A >= 2; the attacker throws min(3, A-1) dice).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_ARMIES)))]
        attackers: u32,
        /// Armies on the defending territory (D >= 1).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_ARMIES)))]
        defenders: u32,
        /// How the defender chooses its dice.
        #[arg(long, value_enum, default_value = "max-dice")]
        defender: DefenderRule,
    },
    /// How many dice to defend with against an attack roll: by the long-run
    /// rule, or, given the armies, to minimise the conquest probability.
    Defend {
        /// The attacker's dice, e.g. 6,4,1 (one to three values from 1 to 6).
        #[arg(long)]
        attack: String,
        /// Attacking armies (then --defenders is needed too).
        #[arg(long, requires = "defenders", value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_ARMIES)))]
        attackers: Option<u32>,
        /// Defending armies.
        #[arg(long, requires = "attackers", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_ARMIES)))]
        defenders: Option<u32>,
    },
}

/// Answers a query on standard output.
pub fn run(query: &RiskQuery) -> Result<(), UserError> {
    match query {
        RiskQuery::Policy => {
            let costs = roll_costs();
            let opt = optimum(&costs);
            println!("Optimal rule: {}.", opt.policy.rule());
            println!("Loss per committed army: {} = {:.6}", format_pq(&opt.loss), to_f64(&opt.loss));
            println!("\n x-y  P(roll)  dice  margin c2-c1-g (negative: two dice)");
            for c in &costs {
                let m = margin(c, &opt.loss);
                println!(
                    " {}-{}  {:>3}/216  {}     {:+.6}",
                    c.roll.x,
                    c.roll.y,
                    c.count,
                    opt.policy.dice(c.roll),
                    to_f64(&m)
                );
            }
        }
        RiskQuery::Battle { attackers, defenders, defender } => {
            let battles = Battles::<DiceRational>::solve(*attackers, *defenders, *defender);
            let o = battles.outcome(*attackers, *defenders);
            println!("{attackers} attacking vs {defenders} defending, defender {}:", defender.as_str());
            for (name, value) in [
                ("conquest probability", &o.conquest),
                ("expected attackers left", &o.attackers_left),
                ("expected defenders left", &o.defenders_left),
            ] {
                let exact = value.to_rational();
                let text = format_pq(&exact);
                let shown =
                    if text.len() > 60 { format!("{}... ({} characters)", &text[..40], text.len()) } else { text };
                println!("  {name}: {:.6}  exact {shown}", to_f64(&exact));
            }
        }
        RiskQuery::Defend { attack, attackers, defenders } => {
            let dice = parse_attack(attack)?;
            let roll = Roll { x: dice[0], y: dice.get(1).copied().unwrap_or(0) };
            match (attackers, defenders) {
                (Some(a), Some(d)) => defend_in_battle(&dice, roll, *a, *d)?,
                _ => {
                    if dice.len() != 3 {
                        return Err(UserError::new(format!(
                            "--attack: the long-run rule is for three attack dice, got {}; give --attackers and --defenders for a battle",
                            dice.len()
                        )));
                    }
                    let costs = roll_costs();
                    let opt = optimum(&costs);
                    let m = margin(&costs[roll.pair_index()], &opt.loss);
                    println!(
                        "Against {}-{}: defend with {} (long-run rule: {}; margin c2-c1-g = {:+.6}).",
                        roll.x,
                        roll.y,
                        dice_word(opt.policy.dice(roll)),
                        opt.policy.rule(),
                        to_f64(&m)
                    );
                }
            }
        }
    }
    Ok(())
}

fn defend_in_battle(dice: &[u8], roll: Roll, attackers: u32, defenders: u32) -> Result<(), UserError> {
    let expected = attackers.saturating_sub(1).min(3) as usize;
    if dice.len() != expected {
        return Err(UserError::new(format!(
            "--attack: with {attackers} attacking armies the attacker throws {expected} dice, got {}",
            dice.len()
        )));
    }
    let battles = Battles::<DiceRational>::solve(attackers, defenders, DefenderRule::Optimal);
    let one = battles.conquest_after_roll(attackers, defenders, roll, 1).to_rational();
    if defenders == 1 {
        println!("With one defending army only one die is allowed; conquest probability {:.6}.", to_f64(&one));
        return Ok(());
    }
    let two = battles.conquest_after_roll(attackers, defenders, roll, 2).to_rational();
    let best = if one < two { 1 } else { 2 };
    println!(
        "Against {} ({attackers} vs {defenders}): defend with {}. Conquest probability {:.6} with one die, {:.6} with two.",
        dice.iter().map(u8::to_string).collect::<Vec<_>>().join("-"),
        dice_word(best),
        to_f64(&one),
        to_f64(&two)
    );
    Ok(())
}

fn dice_word(dice: u8) -> &'static str {
    if dice == 1 { "one die" } else { "two dice" }
}

/// Parses "6,4,1" into dice sorted high to low.
fn parse_attack(text: &str) -> Result<Vec<u8>, UserError> {
    let mut dice = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.parse::<u8>() {
            Ok(v @ 1..=6) => dice.push(v),
            _ => return Err(UserError::new(format!("--attack: {part:?} is not a die value (allowed: 1 to 6)"))),
        }
    }
    if dice.is_empty() || dice.len() > 3 {
        return Err(UserError::new(format!("--attack: expected one to three dice such as 6,4,1, got {text:?}")));
    }
    dice.sort_unstable_by(|a, b| b.cmp(a));
    Ok(dice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_attack_dice() {
        assert_eq!(parse_attack("1, 6,4").unwrap(), vec![6, 4, 1]);
        assert!(parse_attack("7,1").unwrap_err().0.contains("1 to 6"));
        assert!(parse_attack("").is_err());
        assert!(parse_attack("1,2,3,4").is_err());
    }
}
