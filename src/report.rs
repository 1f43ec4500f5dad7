//! `gamesweep report DIR`: a Markdown report with, for every game, the
//! published numbers beside the ones computed into DIR. Every number of ours
//! is read from the Parquet tables. The analyses behind a section are written
//! beside it as Parquet (DIR/report/<game>/<table>.parquet).

use crate::artifacts::OutputDir;
use crate::artifacts::parquet_io::write_batch;
use crate::game::Game;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Writes `DIR/report/index.md` and returns its path.
pub fn report(games: &[Box<dyn Game>], dir: &Path) -> anyhow::Result<PathBuf> {
    let out = OutputDir::open(dir)?;
    let mut md = String::new();
    writeln!(md, "# gamesweep report\n")?;
    writeln!(md, "Output directory: `{}`; gamesweep {}.\n", dir.display(), env!("CARGO_PKG_VERSION"))?;
    let markers = out.markers()?;
    for game in games {
        writeln!(md, "## {}\n", game.name())?;
        if markers.iter().any(|m| m.game == game.name()) {
            let section = game.report(&out)?;
            md.push_str(&section.markdown);
            for table in &section.tables {
                let path = dir.join("report").join(game.name()).join(format!("{}.parquet", table.name));
                out.write_atomic(&path, |file| write_batch(file, &table.batch))?;
            }
        } else {
            writeln!(md, "No data for this game in this directory (its config section was not run).")?;
        }
        md.push('\n');
    }
    let path = dir.join("report").join("index.md");
    out.write_atomic(&path, |file| {
        std::io::Write::write_all(file, md.as_bytes())?;
        Ok(())
    })?;
    Ok(path)
}
