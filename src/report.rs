//! `gamesweep report DIR`: a Markdown report (and the same as HTML) with, for
//! every game, the published numbers beside the ones computed into DIR, and
//! PNG figures. Every number of ours is read from the Parquet tables. The
//! analyses behind a section are written beside it as Parquet
//! (DIR/report/<game>/<table>.parquet), the figures to DIR/report/figures/.

use crate::artifacts::columns::Columns;
use crate::artifacts::parquet_io::write_batch;
use crate::artifacts::{OutputDir, VERIFICATION_TABLE};
use crate::game::{Dataset, Game};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// "Verification: N tasks certified, M repaired, K failed." from a game's
/// verification rows, for its report section; `None` before `gamesweep verify`.
pub fn verification_summary(data: &dyn Dataset, game: &str) -> anyhow::Result<Option<String>> {
    let Some(rows) = data.table(game, VERIFICATION_TABLE)? else { return Ok(None) };
    let status = rows.strs("status")?;
    let count = |s: &str| status.iter().filter(|v| *v == Some(s)).count();
    Ok(Some(format!(
        "Verification: {} tasks certified, {} repaired, {} failed.",
        count("certified"),
        count("repaired"),
        count("failed")
    )))
}

/// Writes `DIR/report/index.md` and returns its path.
pub fn report(games: &[Box<dyn Game>], dir: &Path) -> anyhow::Result<PathBuf> {
    let out = OutputDir::open(dir)?;
    let mut md = String::new();
    writeln!(md, "# gamesweep report\n")?;
    writeln!(md, "Output directory: `{}`; gamesweep {}.\n", dir.display(), env!("CARGO_PKG_VERSION"))?;
    let markers = out.markers()?;
    for (game, id, why) in &markers.unreadable {
        eprintln!("warning: {game}/{id} left out of the report: {why}");
    }
    for game in games {
        writeln!(md, "## {}\n", game.name())?;
        if markers.records.iter().any(|m| m.game == game.name()) {
            let section = game.report(&out)?;
            md.push_str(&section.markdown);
            for table in &section.tables {
                let path = dir.join("report").join(game.name()).join(format!("{}.parquet", table.name));
                out.write_atomic(&path, |file| write_batch(file, &table.batch))?;
            }
            for figure in &section.figures {
                let path = dir.join("report").join("figures").join(&figure.file);
                out.write_atomic(&path, |file| Ok(std::io::Write::write_all(file, &figure.png)?))?;
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
    let html = html(&md);
    out.write_atomic(&dir.join("report").join("index.html"), |file| {
        Ok(std::io::Write::write_all(file, html.as_bytes())?)
    })?;
    Ok(path)
}

/// The Markdown as a standalone HTML page (tables and figures included).
fn html(md: &str) -> String {
    use pulldown_cmark::{Options, Parser, html::push_html};
    let mut body = String::new();
    push_html(&mut body, Parser::new_ext(md, Options::ENABLE_TABLES));
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gamesweep report</title>\n<style>\n\
         body {{ font-family: sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; }}\n\
         table {{ border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }}\n\
         th, td {{ border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }}\n\
         img {{ max-width: 100%; }}\n</style></head><body>\n{body}</body></html>\n"
    )
}
