//! The same checks for every game in the registry (`games::all()`), on the
//! game's own tiny config: plan -> run -> verify -> report in a temp dir;
//! task ids round-trip (planned = stored markers, stable on replanning, safe
//! as file names); a rerun skips every task; a run killed between tasks and
//! resumed writes the same tables as an uninterrupted one. A new game gets
//! these checks by being registered.

mod common;
use arrow::record_batch::RecordBatch;
use common::*;
use gamesweep::config::ConfigFile;
use gamesweep::games;
use std::collections::BTreeMap;
use std::path::Path;

/// The planned task ids of `config` (the library's plan, as `run` makes it).
fn planned_ids(config: &Path) -> Vec<String> {
    let games = games::all();
    let file = ConfigFile::load(config).expect("the tiny config parses");
    let mut ids: Vec<String> =
        gamesweep::sweep::plan(&games, &file).expect("the tiny config plans").into_iter().map(|t| t.id).collect();
    ids.sort();
    ids
}

/// Every part of every table of `game`, by table and part, without the
/// timing columns (`*_seconds`), which differ between runs.
fn tables(out: &Path, game: &str) -> BTreeMap<String, RecordBatch> {
    let mut all = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(out.join(game)) else { return all };
    for entry in entries {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let table = dir.file_name().unwrap().to_string_lossy().into_owned();
        for (part, batch) in parts(&dir) {
            let keep: Vec<usize> =
                (0..batch.num_columns()).filter(|&i| !batch.schema().field(i).name().ends_with("_seconds")).collect();
            all.insert(format!("{table}/{part}"), batch.project(&keep).unwrap());
        }
    }
    all
}

fn conforms(game: &dyn gamesweep::game::Game) {
    let name = game.name();
    let tmp = TempDir::new(&format!("conformance-{name}"));
    let config = tmp.config("tiny.toml", &format!("[{name}]\n{}", game.tiny_config()));
    let (out, resumed) = (tmp.join("out"), tmp.join("resumed"));

    // Plan: at least two tasks, ids stable on replanning.
    let ids = planned_ids(&config);
    assert!(ids.len() >= 2, "{name}: the tiny config plans {} task(s); it needs two", ids.len());
    assert_eq!(ids, planned_ids(&config), "{name}: replanning gives other ids");

    // Run: every planned id comes back as a marker (the resume key round-trips).
    let first = run(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(first.status.success(), "{name}: run failed: {}", stderr(&first));
    assert_eq!(markers(&out, name), ids, "{name}: stored markers are not the planned ids");
    let ran = tables(&out, name);
    assert!(!ran.is_empty(), "{name}: no tables written");

    // A report before `verify` says that what it shows was never verified.
    let early = run(&["report", out.to_str().unwrap()]);
    assert!(early.status.success(), "{name}: report failed: {}", stderr(&early));
    let index = std::fs::read_to_string(out.join("report/index.md")).unwrap();
    let never = format!("**Never verified**: {n} of the {n} task(s) shown here", n = ids.len());
    assert!(index.contains(&never), "{name}: the report does not say its tasks were never verified");

    // Verify and report.
    let verify = run(&["verify", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&verify.stdout);
    assert!(verify.status.success(), "{name}: verify failed: {stdout}{}", stderr(&verify));
    assert!(stdout.contains(&format!("{name}: {} tasks planned", ids.len())), "{name}: {stdout}");
    assert!(stdout.contains(" 0 failed, 0 missing"), "{name}: {stdout}");
    let report = run(&["report", out.to_str().unwrap()]);
    assert!(report.status.success(), "{name}: report failed: {}", stderr(&report));
    let index = std::fs::read_to_string(out.join("report/index.md")).unwrap();
    assert!(!index.contains("Never verified"), "{name}: verified, yet the report says never verified");

    // A rerun skips every task and changes no table.
    let before = tables(&out, name);
    let rerun = run(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(rerun.status.success(), "{name}: rerun failed: {}", stderr(&rerun));
    let skipped = format!("ran 0 tasks, skipped {} already done", ids.len());
    assert!(stderr(&rerun).contains(&skipped), "{name}: {}", stderr(&rerun));
    assert_eq!(tables(&out, name), before, "{name}: a rerun changed the tables");

    // Killed between tasks: the first task done (its marker and parts), the
    // rest never finished. The resumed run does only the rest, and the
    // tables equal the uninterrupted run's.
    let partial = run(&["run", config.to_str().unwrap(), "--out", resumed.to_str().unwrap()]);
    assert!(partial.status.success(), "{name}: {}", stderr(&partial));
    for id in &ids[1..] {
        std::fs::remove_file(resumed.join(".tasks").join(name).join(format!("{id}.json"))).unwrap();
    }
    let resume = run(&["run", config.to_str().unwrap(), "--out", resumed.to_str().unwrap()]);
    assert!(resume.status.success(), "{name}: resume failed: {}", stderr(&resume));
    let expected = format!("ran {} tasks, skipped 1 already done", ids.len() - 1);
    assert!(stderr(&resume).contains(&expected), "{name}: {}", stderr(&resume));
    assert_eq!(markers(&resumed, name), ids, "{name}: resumed markers");
    assert_eq!(tables(&resumed, name), ran, "{name}: the resumed run wrote other tables");
}

#[test]
fn every_registered_game_conforms() {
    for game in games::all() {
        conforms(game.as_ref());
    }
}
