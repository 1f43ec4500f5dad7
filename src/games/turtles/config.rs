//! The `[turtles]` config section and its expansion into tasks.

use super::task::LengthTask;
use super::turtle_row::MAX_LENGTH;
use crate::config::Section;
use crate::error::UserError;
use crate::grid::IntGrid;
use serde::Deserialize;

/// The `[turtles]` config section.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurtlesConfig {
    /// Row lengths: every row of each length is solved (2^length rows).
    lengths: IntGrid<1, MAX_LENGTH>,
}

/// One task per length, in the configured order.
pub fn plan(section: &Section) -> Result<Vec<LengthTask>, UserError> {
    let config: TurtlesConfig = section.parse()?;
    Ok(config.lengths.values().iter().map(|&l| LengthTask(l)).collect())
}
