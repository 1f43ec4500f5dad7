//! Damage is found, named, never certified, and a plain rerun repairs it: for
//! every game, each kind of artifact is damaged in a copy of a finished and
//! verified run (a part's bytes flipped or cut short, a marker garbled or
//! deleted, one value edited, one row deleted); then `verify` must fail
//! naming the task and the damage, a plain `run` must recompute exactly the
//! damaged tasks, and `verify` must certify everything again. Edited values
//! and deleted rows are written consistently (the marker's checksum updated),
//! as a bug would write them, so that only the exact checks can find them.

mod common;
use arrow::array::{Array, ArrayRef, BooleanArray, Float64Array, StringArray, UInt64Array};
use arrow::record_batch::RecordBatch;
use common::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Every game, tiny.
const ALL: &str = r#"
[higher_lower]
n = { from = 1, to = 12 }
chunk = 6

[fritzen]
goals = [[1, 1]]
pot = 12
[fritzen.thresholds]
goals = [[1, 1]]
[fritzen.simulation]
goals = [[0, 0]]
games = 50
[fritzen.rollout]
goals = [[0, 0]]
rollouts = 1

[cards]
n = 8
distributions = ["cards"]
rows = 20

[nim]
exhaustive = { heaps = 2, max_heap = 7 }
random = { positions = 100, heaps = 3, bits = 20 }
examples = [[3, 4, 5]]

[turtles]
lengths = [4, 5]

[risk]
round_outcomes = true
long_run = true
value_iteration = { horizon = 30 }
battles = { attackers = 8, defenders = 6, defender = ["optimal"] }
"#;

/// One damage: the part (game, table, task) it hits and what `verify` must say about it.
struct Damage {
    game: &'static str,
    table: &'static str,
    task: &'static str,
    change: fn(&RecordBatch) -> RecordBatch,
    says: &'static str,
}

struct Fixture {
    tmp: TempDir,
    config: PathBuf,
    clean: PathBuf,
}

impl Fixture {
    fn new(name: &str) -> Self {
        let tmp = TempDir::new(name);
        let config = tmp.config("all.toml", ALL);
        let clean = tmp.join("clean");
        let out = run(&["run", config.to_str().unwrap(), "--out", clean.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        let (ok, stdout) = verify(&clean);
        assert!(ok, "{stdout}");
        Fixture { tmp, config, clean }
    }

    /// A fresh copy of the clean run.
    fn copy(&self, name: &str) -> PathBuf {
        let dir = self.tmp.join(name);
        let status = std::process::Command::new("cp").arg("-a").arg(&self.clean).arg(&dir).status().unwrap();
        assert!(status.success());
        dir
    }

    /// Runs the config into `dir` again; returns its log.
    fn rerun(&self, dir: &Path) -> String {
        let out = run(&["run", self.config.to_str().unwrap(), "--out", dir.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    }

    /// `damage` applied to a copy: verify fails naming each damaged task, a
    /// plain rerun recomputes each one, and verify certifies everything.
    fn found_and_repaired(&self, name: &str, damaged: &[(&str, &str, &str)], damage: impl Fn(&Path)) {
        let dir = self.copy(name);
        damage(&dir);
        let (ok, stdout) = verify(&dir);
        assert!(!ok, "{name}: verify passed damaged data:\n{stdout}");
        for (game, task, says) in damaged {
            let line = stdout.lines().find(|l| l.contains(&format!(" {task}: "))).unwrap_or_else(|| {
                panic!("{name}: verify does not name {game}/{task}:\n{stdout}");
            });
            assert!(!line.contains("certified"), "{name}: {line}");
            assert!(line.contains(says), "{name}: {line:?} lacks {says:?}");
        }
        let log = self.rerun(&dir);
        let ran = format!("ran {} tasks", damaged.len());
        assert!(log.contains(&ran), "{name}: the rerun did not recompute exactly the damaged tasks:\n{log}");
        let (ok, stdout) = verify(&dir);
        assert!(ok, "{name}: not repaired by a plain rerun:\n{stdout}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Runs `verify`: (exit code 0, stdout).
fn verify(dir: &Path) -> (bool, String) {
    let out = run(&["verify", dir.to_str().unwrap()]);
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
}

fn part(dir: &Path, game: &str, table: &str, task: &str) -> PathBuf {
    dir.join(game).join(table).join(format!("part-{task}.parquet"))
}

/// Rewrites a part with `change` applied and reseals its marker.
fn rewrite(path: &Path, change: fn(&RecordBatch) -> RecordBatch) {
    rewrite_unsealed(path, change);
    reseal(path);
}

/// Rewrites a part with `change` applied, its marker left as it was.
fn rewrite_unsealed(path: &Path, change: fn(&RecordBatch) -> RecordBatch) {
    let batch = parts(path.parent().unwrap())[path.file_name().unwrap().to_str().unwrap()].clone();
    let changed = change(&batch);
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(std::fs::File::create(path).unwrap(), changed.schema(), None).unwrap();
    writer.write(&changed).unwrap();
    writer.close().unwrap();
}

/// Runs `report` on `dir` and returns its Markdown.
fn report(dir: &Path) -> String {
    let out = run(&["report", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::read_to_string(dir.join("report/index.md")).unwrap()
}

/// The batch without row `row`.
fn without_row(batch: &RecordBatch, row: usize) -> RecordBatch {
    let keep: Vec<bool> = (0..batch.num_rows()).map(|r| r != row).collect();
    arrow::compute::filter_record_batch(batch, &BooleanArray::from(keep)).unwrap()
}

/// The batch with column `name` replaced.
fn with_column(batch: &RecordBatch, name: &str, column: ArrayRef) -> RecordBatch {
    let mut columns = batch.columns().to_vec();
    columns[batch.schema().index_of(name).unwrap()] = column;
    RecordBatch::try_new(batch.schema(), columns).unwrap()
}

fn strings(batch: &RecordBatch, name: &str) -> Vec<String> {
    let c = batch.column_by_name(name).unwrap().as_any().downcast_ref::<StringArray>().unwrap();
    (0..c.len()).map(|r| c.value(r).to_string()).collect()
}

fn floats(batch: &RecordBatch, name: &str) -> Vec<f64> {
    batch.column_by_name(name).unwrap().as_any().downcast_ref::<Float64Array>().unwrap().values().to_vec()
}

/// One deleted row per game.
const DELETED_ROWS: [Damage; 6] = [
    Damage {
        game: "higher_lower",
        table: "values",
        task: "auto-n7-12",
        change: |b| without_row(b, 3),
        says: "values: N = 10 missing",
    },
    Damage {
        game: "fritzen",
        table: "first_throw",
        task: "settings-l1-m1-r12-x1-f1d550cb",
        change: |b| without_row(b, 5),
        says: "first_throw: lambda = 1/1, mu = 1/1, pot = 12/1, throw",
    },
    Damage {
        game: "cards",
        table: "games",
        task: "n8-cards-rows0-19-s0",
        change: |b| without_row(b, 3),
        says: "games: row 0, player-first, minimax missing",
    },
    Damage {
        game: "nim",
        table: "positions",
        task: "exhaustive-h2-max7",
        change: |b| without_row(b, 2),
        says: "positions stored",
    },
    Damage { game: "turtles", table: "rows", task: "length-5", change: |b| without_row(b, 7), says: "missing" },
    Damage {
        game: "risk",
        table: "value_iteration",
        task: "value-iteration-h30",
        change: |b| without_row(b, 0),
        says: "value_iteration: horizon 30, n = 1, roll",
    },
];

/// One edited value per game, each where a different check must catch it.
const EDITED_VALUES: [Damage; 6] = [
    Damage {
        game: "higher_lower",
        table: "values",
        task: "auto-n7-12",
        change: |b| {
            let mut v = floats(b, "value_f64");
            v[3] = 3.5;
            with_column(b, "value_f64", Arc::new(Float64Array::from(v)))
        },
        says: "value_f64 = 3.5 is not the nearest double of value = 35/12",
    },
    Damage {
        game: "fritzen",
        table: "first_throw",
        task: "settings-l1-m1-r12-x1-f1d550cb",
        change: |b| {
            let (mut v0, w0) = (floats(b, "v0"), floats(b, "w0"));
            v0[0] += 1.0;
            let margin: Vec<f64> = w0.iter().zip(&v0).map(|(w, v)| w - v).collect();
            let b = with_column(b, "v0", Arc::new(Float64Array::from(v0)));
            with_column(&b, "margin", Arc::new(Float64Array::from(margin)))
        },
        says: "stored V0",
    },
    Damage {
        game: "cards",
        table: "games",
        task: "n8-cards-rows0-19-s0",
        change: |b| {
            let column = |name: &str| {
                b.column_by_name(name).unwrap().as_any().downcast_ref::<UInt64Array>().unwrap().values().to_vec()
            };
            let (mut player, mut opponent) = (column("player"), column("opponent_score"));
            player[0] += 1;
            opponent[0] -= 1;
            let margin: Vec<i64> = player.iter().zip(&opponent).map(|(p, o)| *p as i64 - *o as i64).collect();
            let b = with_column(b, "player", Arc::new(UInt64Array::from(player)));
            let b = with_column(&b, "opponent_score", Arc::new(UInt64Array::from(opponent)));
            with_column(&b, "margin", Arc::new(arrow::array::Int64Array::from(margin)))
        },
        says: "row 0, player-first, greedy: stored",
    },
    Damage {
        game: "nim",
        table: "positions",
        task: "exhaustive-h2-max7",
        change: |b| {
            // A move in a lost position.
            let mut moves = strings(b, "bouton");
            let lost = moves.iter().position(|m| m.is_empty()).unwrap();
            moves[lost] = "1:0".into();
            with_column(b, "bouton", Arc::new(StringArray::from(moves)))
        },
        says: "bouton: \"1:0\" is wrong",
    },
    Damage {
        game: "turtles",
        table: "rows",
        task: "length-4",
        change: |b| {
            let c = b.column_by_name("brute_wins").unwrap().as_any().downcast_ref::<BooleanArray>().unwrap();
            let flipped: Vec<bool> = (0..c.len()).map(|r| c.value(r) != (r == 1)).collect();
            with_column(b, "brute_wins", Arc::new(BooleanArray::from(flipped)))
        },
        says: "verdict or move",
    },
    Damage {
        game: "risk",
        table: "battles",
        task: "battles-optimal-a8-d6",
        change: |b| {
            let mut v = floats(b, "conquest_f64");
            v[0] *= 2.0;
            with_column(b, "conquest_f64", Arc::new(Float64Array::from(v)))
        },
        says: "conquest_f64",
    },
];

#[test]
fn every_kind_of_damage_of_every_game_is_found_named_and_repaired_by_a_rerun() {
    let fixture = Fixture::new("damage");
    let named = |damages: &[Damage]| -> Vec<(&str, &str, &str)> {
        damages.iter().map(|d| (d.game, d.task, d.says)).collect::<Vec<_>>()
    };

    // Consistently written wrong results: only the exact checks see them.
    for (name, damages) in [("deleted-row", &DELETED_ROWS), ("edited-value", &EDITED_VALUES)] {
        fixture.found_and_repaired(name, &named(damages), |dir| {
            for d in damages {
                rewrite(&part(dir, d.game, d.table, d.task), d.change);
            }
        });
    }

    // Parts damaged on disk: a byte flipped, a file cut short.
    let flipped: Vec<(&str, &str, &str)> = DELETED_ROWS.iter().map(|d| (d.game, d.task, "content changed")).collect();
    fixture.found_and_repaired("flipped-byte", &flipped, |dir| {
        for d in &DELETED_ROWS {
            let path = part(dir, d.game, d.table, d.task);
            let mut bytes = std::fs::read(&path).unwrap();
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x20;
            std::fs::write(&path, bytes).unwrap();
        }
    });
    let cut: Vec<(&str, &str, &str)> =
        DELETED_ROWS.iter().map(|d| (d.game, d.task, "bytes, the marker recorded")).collect();
    fixture.found_and_repaired("truncated-part", &cut, |dir| {
        for d in &DELETED_ROWS {
            let path = part(dir, d.game, d.table, d.task);
            let bytes = std::fs::read(&path).unwrap();
            std::fs::write(&path, &bytes[..bytes.len() / 3]).unwrap();
        }
    });

    // Markers: garbled, and deleted (the task is missing, its parts are left without one).
    let garbled: Vec<(&str, &str, &str)> = DELETED_ROWS.iter().map(|d| (d.game, d.task, "damaged marker")).collect();
    fixture.found_and_repaired("garbled-marker", &garbled, |dir| {
        for d in &DELETED_ROWS {
            std::fs::write(dir.join(".tasks").join(d.game).join(format!("{}.json", d.task)), "{\"game\": ").unwrap();
        }
    });
    let deleted: Vec<(&str, &str, &str)> =
        DELETED_ROWS.iter().map(|d| (d.game, d.task, "planned but not finished (parts without a marker")).collect();
    fixture.found_and_repaired("deleted-marker", &deleted, |dir| {
        for d in &DELETED_ROWS {
            std::fs::remove_file(dir.join(".tasks").join(d.game).join(format!("{}.json", d.task))).unwrap();
        }
    });
}

#[test]
fn a_damaged_manifest_config_or_step_is_reported_and_a_rerun_heals_it() {
    let fixture = Fixture::new("directory");

    // The manifest: a summary rebuilt by every run.
    let dir = fixture.copy("manifest");
    std::fs::write(dir.join("manifest.json"), "garbage").unwrap();
    let (ok, stdout) = verify(&dir);
    assert!(!ok && stdout.contains("problem: manifest.json: damaged"), "{stdout}");
    assert!(fixture.rerun(&dir).contains("ran 0 tasks, skipped 18 already done"));
    assert!(verify(&dir).0);

    // The stored config, the plan verify checks against: nothing can be verified without it.
    let dir = fixture.copy("config");
    let stored = std::fs::read_dir(dir.join(".configs")).unwrap().next().unwrap().unwrap().path();
    std::fs::write(&stored, "[risk]\nlong_run = true\n").unwrap();
    let (ok, stdout) = verify(&dir);
    assert!(!ok && stdout.contains("its content does not match its SHA-256 name (damaged)"), "{stdout}");
    assert!(stdout.contains("unverifiable auto-n1-6: no stored config plans this task"), "{stdout}");
    fixture.rerun(&dir);
    assert!(verify(&dir).0, "the rerun stores its config again");

    // A part no config plans, without a marker: reported, and left out of the report.
    let dir = fixture.copy("orphan");
    let values = part(&dir, "higher_lower", "values", "auto-n1-6");
    std::fs::copy(&values, part(&dir, "higher_lower", "values", "auto-n1-99")).unwrap();
    let (ok, stdout) = verify(&dir);
    assert!(!ok && stdout.contains("orphaned auto-n1-99: parts without a marker (values)"), "{stdout}");
    assert!(run(&["report", dir.to_str().unwrap()]).status.success());
    std::fs::remove_file(part(&dir, "higher_lower", "values", "auto-n1-99")).unwrap();
    assert!(verify(&dir).0);

    // A damaged checkpoint of an unfinished task is discarded and computed again.
    let dir = fixture.copy("step");
    std::fs::remove_file(dir.join(".tasks/higher_lower/auto-n7-12.json")).unwrap();
    let steps = dir.join(".steps/higher_lower/auto-n7-12");
    std::fs::create_dir_all(&steps).unwrap();
    std::fs::write(steps.join("n0008.step"), "gamesweep-step-1\ncut short").unwrap();
    let log = fixture.rerun(&dir);
    assert!(log.contains("discarding damaged step n0008"), "{log}");
    assert!(log.contains("ran 1 tasks"), "{log}");
    assert!(!steps.exists(), "steps of the finished task removed");
    assert!(verify(&dir).0);

    // A value edited in place (the marker untouched): the report leaves the
    // task out, naming it, and never shows the edited number.
    let dir = fixture.copy("edited");
    let before = report(&dir);
    assert!(before.contains("Long-run defence") && !before.contains("Left out"), "{before}");
    rewrite_unsealed(&part(&dir, "risk", "long_run", "long-run"), |b| {
        with_column(b, "loss_per_army_f64", Arc::new(Float64Array::from(vec![0.987654321; b.num_rows()])))
    });
    let md = report(&dir);
    assert!(!md.contains("0.987654"), "{md}");
    assert!(md.contains("**Left out**: 1 task(s) changed on disk"), "{md}");
    assert!(md.contains("` long-run ` (` risk/long_run/part-long-run.parquet: "), "{md}");
    assert!(fixture.rerun(&dir).contains("ran 1 tasks"));
    assert!(!report(&dir).contains("Left out"));

    // A task whose run fails is missing, and verify says why.
    let dir = fixture.copy("failed-run");
    std::fs::remove_file(dir.join(".tasks/higher_lower/auto-n1-6.json")).unwrap();
    let blocker = dir.join(".steps/higher_lower/auto-n1-6/n0003.step/in-the-way");
    std::fs::create_dir_all(&blocker).unwrap();
    let out = run(&["run", fixture.config.to_str().unwrap(), "--out", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let (ok, stdout) = verify(&dir);
    assert!(!ok && stdout.contains("missing auto-n1-6: planned but not finished"), "{stdout}");
    assert!(stdout.contains("its last run failed: N = 3: loading step n0003"), "{stdout}");
    std::fs::remove_dir_all(blocker.parent().unwrap()).unwrap();
    assert!(fixture.rerun(&dir).contains("ran 1 tasks"));
    assert!(verify(&dir).0);

    // A zero-row part and a part with other columns are failed checks, not panics.
    let dir = fixture.copy("shapes");
    rewrite(&part(&dir, "risk", "long_run", "long-run"), |b| b.slice(0, 0));
    rewrite(&part(&dir, "turtles", "rows", "length-4"), |b| {
        let keep: Vec<usize> = (0..b.num_columns()).filter(|&i| b.schema().field(i).name() != "nim_move").collect();
        b.project(&keep).unwrap()
    });
    // Before verify, the report names the section it cannot build and still builds the others.
    let md = report(&dir);
    assert!(md.contains("**This section could not be built**") && md.contains("## nim"), "{md}");
    let out = run(&["verify", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", stderr(&out));
    assert!(stdout.contains("failed long-run: long_run: 0 rows, planned 1"), "{stdout}");
    assert!(stdout.contains("failed length-4: verification error: missing column nim_move"), "{stdout}");
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    // The report leaves out what verify failed, naming it.
    let md = report(&dir);
    assert!(md.contains("**Left out**: 1 task(s)") && md.contains("failed it: long_run: 0 rows, planned 1"), "{md}");
    assert!(fixture.rerun(&dir).contains("ran 2 tasks"));
    assert!(verify(&dir).0);
}
