//! gamesweep: solves games from published work exactly and at scale, sweeps
//! their parameters, writes every result as Parquet, and verifies the results
//! in exact arithmetic. See ARCHITECTURE.md for the module map.

pub mod artifacts;
pub mod config;
pub mod error;
pub mod exact;
pub mod export;
pub mod game;
pub mod games;
pub mod grid;
pub mod keys;
pub mod markdown;
pub mod panics;
pub mod plot;
pub mod published;
pub mod report;
pub mod sweep;
pub mod verify;
