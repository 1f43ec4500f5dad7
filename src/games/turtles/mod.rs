//! Turning turtles (seed 003), solved through Nim and by exhaustive search on
//! every row of the configured lengths; moves mapped to Nim and back.

mod config;
mod report;
mod tables;
mod task;
pub mod turtle_row;
mod verify;

use crate::config::Section;
use crate::error::UserError;
use crate::game::{Dataset, Game, ReportSection, StoredTask, Table, Task, TaskContext, Verdict, boxed};
use task::LengthTask;

/// The game as the registry holds it (`games::all`).
pub struct Turtles;

impl Task for LengthTask {
    fn id(&self) -> String {
        format!("length-{}", self.0)
    }

    fn run(&self, _context: &dyn TaskContext) -> anyhow::Result<Vec<Table>> {
        Ok(vec![tables::rows_table(self.0)?])
    }

    fn verify(&self, stored: &StoredTask) -> anyhow::Result<Verdict> {
        verify::verify(self.0, stored)
    }

    fn cost_hint(&self) -> f64 {
        1e-8 * f64::from(self.0).powi(2) * (1u64 << self.0) as f64
    }
}

impl Game for Turtles {
    fn name(&self) -> &'static str {
        "turtles"
    }

    fn tiny_config(&self) -> &'static str {
        "lengths = { from = 1, to = 6 }\n"
    }

    fn plan(&self, section: &Section) -> Result<Vec<Box<dyn Task>>, UserError> {
        Ok(boxed(config::plan(section)?))
    }

    fn report(&self, data: &dyn Dataset) -> anyhow::Result<ReportSection> {
        report::report(data)
    }
}
