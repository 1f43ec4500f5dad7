//! The registry of games: the only place that lists them.

pub mod cards;
pub mod fritzen;
pub mod higher_lower;
pub mod nim;
pub mod risk;
pub mod turtles;

use crate::game::Game;

/// Every game, in the order their tasks are planned.
pub fn all() -> Vec<Box<dyn Game>> {
    vec![
        Box::new(higher_lower::HigherLower),
        Box::new(fritzen::Fritzen),
        Box::new(cards::Cards),
        Box::new(nim::Nim),
        Box::new(turtles::Turtles),
        Box::new(risk::Risk),
    ]
}
