//! `gamesweep report DIR`: a Markdown report (and the same as HTML) with, for
//! every game, the published numbers beside the ones computed into DIR, and
//! PNG figures. Every number of ours is read from the Parquet tables. The
//! analyses behind a section are written beside it as Parquet
//! (DIR/report/<game>/<table>.parquet), the figures to DIR/report/figures/
//! (with `--svg` each also as SVG, for print).

use crate::artifacts::columns::Columns;
use crate::artifacts::parquet_io::write_batch;
use crate::artifacts::{CheckedTasks, OutputDir, TaskProblem, VERIFICATION_TABLE};
use crate::error::UserError;
use crate::game::{Dataset, Game, ReportSection};
use crate::markdown::code_span;
use crate::panics;
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

/// What `gamesweep report` writes besides the Markdown, HTML and PNGs.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReportOptions {
    /// Every figure also as SVG beside its PNG (DIR/report/figures/<name>.svg).
    pub svg: bool,
}

/// Writes `DIR/report/index.md` and `index.html` and returns the first's
/// path. Only the parts of tasks that are intact (their markers' sizes and
/// SHA-256) and not failed by `verify` are read; the others are listed as
/// left out, never shown beside the certified. A directory that holds no gamesweep
/// run is refused before anything is written.
pub fn report(games: &[Box<dyn Game>], dir: &Path, options: ReportOptions) -> anyhow::Result<PathBuf> {
    let out = OutputDir::open(dir)?;
    if out.configs()?.is_empty() && out.markers()?.records.is_empty() {
        return Err(UserError::new(format!(
            "{}: no gamesweep run here (no stored config, no finished task); run `gamesweep run CONFIG --out {}` first",
            shorten(&dir.display().to_string()),
            shorten(&dir.display().to_string())
        ))
        .into());
    }
    let mut md = String::new();
    writeln!(md, "# gamesweep report\n")?;
    writeln!(
        md,
        "Output directory: {}; gamesweep {}.\n",
        code_span(&dir.display().to_string()),
        env!("CARGO_PKG_VERSION")
    )?;
    if options.svg {
        writeln!(md, "Every figure is also in `figures/` as SVG, under the PNG's name with `.svg`, for print.\n")?;
    }
    let checked = out.checked_tasks()?;
    for game in games {
        writeln!(md, "## {}\n", game.name())?;
        trust_notes(&mut md, &out, checked, game.name())?;
        if checked.intact.iter().any(|(g, _)| g == game.name()) {
            // A section that cannot be built (tables that pass their markers
            // but not `verify`, e.g. too few rows, or a figure that cannot be
            // drawn) is named, and the others are still reported.
            let (section, figures) = match panics::catching(|| build(game.as_ref(), &out, options)) {
                Ok(Ok(built)) => built,
                Ok(Err(error)) => (failed_section(&format!("{error:#}")), Vec::new()),
                Err(panic) => (failed_section(&panic), Vec::new()),
            };
            md.push_str(&section.markdown);
            for table in &section.tables {
                let path = dir.join("report").join(game.name()).join(format!("{}.parquet", table.name));
                out.write_atomic(&path, |file| write_batch(file, &table.batch))?;
            }
            for (file, bytes) in &figures {
                let path = dir.join("report").join("figures").join(file);
                out.write_atomic(&path, |f| Ok(std::io::Write::write_all(f, bytes)?))?;
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

/// Figures drawn: (file name under DIR/report/figures/, bytes).
type DrawnFigures = Vec<(String, Vec<u8>)>;

/// A game's section and its figures drawn.
fn build(game: &dyn Game, out: &OutputDir, options: ReportOptions) -> anyhow::Result<(ReportSection, DrawnFigures)> {
    let section = game.report(out)?;
    let mut files = Vec::new();
    for figure in &section.figures {
        files.push((figure.png_file(), figure.plot.png()?));
        if options.svg {
            files.push((figure.svg_file(), figure.plot.svg()?.into_bytes()));
        }
    }
    Ok((section, files))
}

/// The section of a game whose tables could not be reported, saying why.
fn failed_section(why: &str) -> ReportSection {
    let markdown = format!(
        "**This section could not be built** from the stored tables ({}); `gamesweep verify` checks them.\n\n",
        code_span(why)
    );
    ReportSection { markdown, tables: Vec::new(), figures: Vec::new() }
}

/// Text cut to 200 characters, control characters escaped, for one-line messages.
fn shorten(text: &str) -> String {
    code_span(text).trim_matches('`').trim().to_string()
}

/// The Markdown as a standalone HTML page (tables and figures included).
/// Nothing of the Markdown becomes markup it did not ask for in gamesweep's
/// own syntax: raw HTML is shown as text, and a link or image is kept only
/// when it points at one of the report's figures (`figures/NAME.png`).
fn html(md: &str) -> String {
    use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html::push_html};
    let ours = |dest: &str| {
        dest.strip_prefix("figures/")
            .and_then(|f| f.strip_suffix(".png"))
            .is_some_and(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
    };
    let mut dropped: Vec<bool> = Vec::new();
    let events = Parser::new_ext(md, Options::ENABLE_TABLES).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. }) if !ours(&dest_url) => {
            dropped.push(true);
            Some(Event::Text(CowStr::from("")))
        }
        Event::Start(tag @ (Tag::Link { .. } | Tag::Image { .. })) => {
            dropped.push(false);
            Some(Event::Start(tag))
        }
        Event::End(TagEnd::Link | TagEnd::Image) if dropped.pop() == Some(true) => None,
        other => Some(other),
    });
    let mut body = String::new();
    push_html(&mut body, events);
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gamesweep report</title>\n<style>\n\
         body {{ font-family: sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; }}\n\
         table {{ border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }}\n\
         th, td {{ border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }}\n\
         img {{ max-width: 100%; }}\n</style></head><body>\n{body}</body></html>\n"
    )
}

/// The report's notes on the tasks of `game` it leaves out (changed on disk,
/// or failed by `verify`) and on those it shows that were never verified.
fn trust_notes(md: &mut String, out: &OutputDir, checked: &CheckedTasks, game: &str) -> anyhow::Result<()> {
    let damaged: Vec<&TaskProblem> = checked.damaged.iter().filter(|p| p.game == game).collect();
    if !damaged.is_empty() {
        writeln!(
            md,
            "**Left out**: {} task(s) changed on disk since they were written, or failed `gamesweep verify`; \
             a plain `gamesweep run` of their config recomputes them: {}.\n",
            damaged.len(),
            damaged
                .iter()
                .map(|p| format!("{} ({})", code_span(&p.task), code_span(&p.why)))
                .collect::<Vec<_>>()
                .join(", ")
        )?;
    }
    let never: Vec<&str> = checked
        .intact
        .iter()
        .filter(|(g, task)| g == game && out.verification(g, task).is_none())
        .map(|(_, task)| task.as_str())
        .collect();
    if !never.is_empty() {
        writeln!(
            md,
            "**Never verified**: {} of the {} task(s) shown here have no `gamesweep verify` verdict yet; \
             `gamesweep verify DIR` checks them.\n",
            never.len(),
            checked.intact.iter().filter(|(g, _)| g == game).count()
        )?;
    }
    Ok(())
}
