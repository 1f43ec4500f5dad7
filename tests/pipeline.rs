//! End-to-end behaviour of `gamesweep run` / `verify` / `report`: resume after
//! SIGKILL, sharding, and the verification stage catching wrong results.

mod common;
use arrow::array::{Array, StringArray, UInt8Array};
use common::*;
use std::path::Path;
use std::sync::Arc;

/// Small but complete Risk config.
const SMALL: &str = r#"
[risk]
round_outcomes = true
long_run = true
value_iteration = { horizon = [50, 300] }
battles = { attackers = 20, defenders = 15 }
"#;

#[test]
fn run_verify_report() {
    let tmp = TempDir::new("e2e");
    let config = tmp.config("small.toml", SMALL);
    let out = tmp.join("out");
    let run1 = run(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(run1.status.success(), "{}", stderr(&run1));
    assert_eq!(
        markers(&out, "risk"),
        [
            "battles-max-dice-a20-d15",
            "battles-optimal-a20-d15",
            "long-run",
            "round-outcomes",
            "value-iteration-h300",
            "value-iteration-h50"
        ]
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["tasks_done"], 6);
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(manifest["last_run"]["tasks_ran"], 6);
    assert_eq!(manifest["configs"].as_object().unwrap().len(), 1);

    let verify = run(&["verify", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&verify.stdout);
    assert!(verify.status.success(), "{stdout}{}", stderr(&verify));
    assert!(stdout.contains("risk: 6 tasks planned: 6 certified, 0 repaired, 0 failed, 0 missing"), "{stdout}");
    assert_eq!(parts(&out.join("risk/verification")).len(), 6);

    let report = run(&["report", out.to_str().unwrap()]);
    assert!(report.status.success(), "{}", stderr(&report));
    let md = std::fs::read_to_string(out.join("report/index.md")).unwrap();
    assert!(md.contains("| defender loss per committed army | 0.499743 | 0.499743 | yes |"), "{md}");
    assert!(md.contains("6 tasks certified"), "{md}");

    // A second run finds everything done; --force recomputes identical rows
    // and drops the verdicts about the data it replaced.
    let results = |out: &Path| {
        let mut all = parts(&out.join("risk"));
        all.retain(|part, _| !part.starts_with("verification/"));
        all
    };
    let before = results(&out);
    let run2 = run(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(stderr(&run2).contains("ran 0 tasks, skipped 6 already done"), "{}", stderr(&run2));
    let run3 = run(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap(), "--force", "--jobs", "1"]);
    assert!(stderr(&run3).contains("ran 6 tasks, skipped 0"), "{}", stderr(&run3));
    assert_eq!(results(&out), before);
    assert!(!out.join("risk/verification").read_dir().unwrap().any(|_| true), "stale verdicts kept");
}

#[test]
fn higher_lower_sweep_is_certified_and_tampering_is_caught() {
    let tmp = TempDir::new("hl");
    let config = tmp.config(
        "hl.toml",
        "[higher_lower]\nn = { from = 1, to = 40 }\nmethods = [\"auto\", \"dresher\"]\nchunk = 20\n",
    );
    let out = tmp.join("out");
    let run1 = run(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(run1.status.success(), "{}", stderr(&run1));
    assert_eq!(markers(&out, "higher_lower"), ["auto-n1-20", "auto-n21-40", "dresher-n1-20", "dresher-n21-40"]);
    let verify = run(&["verify", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&verify.stdout);
    assert!(stdout.contains("higher_lower: 4 tasks planned: 4 certified, 0 repaired, 0 failed, 0 missing"), "{stdout}");

    // Both methods find the same exact values.
    let values = &parts(&out.join("higher_lower/values"));
    let column = |part: &str| {
        let batch = &values[part];
        let v = batch.column_by_name("value").unwrap().as_any().downcast_ref::<StringArray>().unwrap().clone();
        (0..v.len()).map(|i| v.value(i).to_string()).collect::<Vec<_>>()
    };
    assert_eq!(column("part-auto-n21-40.parquet"), column("part-dresher-n21-40.parquet"));

    // Move a little of Alice's probability from key 1 to key 2 at N = 30,
    // keeping each cell a reduced fraction beside its nearest double.
    let alice = out.join("higher_lower/alice/part-auto-n21-40.parquet");
    let stored = parts(&out.join("higher_lower/alice"))["part-auto-n21-40.parquet"].clone();
    let ns = stored.column_by_name("n").unwrap().as_any().downcast_ref::<arrow::array::UInt32Array>().unwrap();
    let first = (0..ns.len()).find(|&i| ns.value(i) == 30).unwrap();
    let probs = stored.column_by_name("prob").unwrap().as_any().downcast_ref::<StringArray>().unwrap();
    let mut exact: Vec<gamesweep::exact::Rational> =
        probs.iter().map(|v| gamesweep::exact::parse_pq(v.unwrap()).unwrap()).collect();
    let moved = gamesweep::exact::Rational::from_signeds(1, 1000) * &exact[first];
    exact[first] -= &moved;
    exact[first + 1] += &moved;
    rewrite_exact(&alice, "prob", &exact);
    let verify = run(&["verify", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&verify.stdout);
    assert_eq!(verify.status.code(), Some(1));
    assert!(stdout.contains("failed auto-n21-40: 1 failed: N = 30: the best tree against alpha costs"), "{stdout}");

    // Replace the height-limited game's alpha at N = 3 (the only tree of height 2
    // ties with V against alpha*) by the uniform one: it no longer proves height 3.
    let heights = out.join("higher_lower/height_proofs/part-auto-n1-20.parquet");
    let stored = parts(&out.join("higher_lower/height_proofs"))["part-auto-n1-20.parquet"].clone();
    let ns = stored.column_by_name("n").unwrap().as_any().downcast_ref::<arrow::array::UInt32Array>().unwrap().clone();
    assert_eq!(ns.value(0), 3, "N = 3 needs the height-limited game");
    rewrite_column(&heights, "prob", |_| {
        Arc::new(StringArray::from(ns.iter().map(|n| format!("1/{}", n.unwrap())).collect::<Vec<_>>()))
    });
    let verify = run(&["verify", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&verify.stdout);
    assert!(stdout.contains("N = 3: bob_tallest_at_least = 3 is not proven by alpha or height_proofs"), "{stdout}");

    // Move half of a tree's weight to the next tree in Bob's wider mixture (the
    // face's hull) at its first N: it no longer holds every key to V, and
    // verify refuses it before building the face on it.
    let wider = out.join("higher_lower/face_mixture/part-dresher-n21-40.parquet");
    let stored = parts(&out.join("higher_lower/face_mixture"))["part-dresher-n21-40.parquet"].clone();
    let ns = stored.column_by_name("n").unwrap().as_any().downcast_ref::<arrow::array::UInt32Array>().unwrap().clone();
    assert!(ns.len() >= 2 && ns.value(0) == ns.value(1), "a wider mixture at N = 21..40");
    let weights = stored.column_by_name("weight").unwrap().as_any().downcast_ref::<StringArray>().unwrap().clone();
    let mut exact: Vec<gamesweep::exact::Rational> =
        weights.iter().map(|v| gamesweep::exact::parse_pq(v.unwrap()).unwrap()).collect();
    let moved = gamesweep::exact::Rational::from_signeds(1, 2) * &exact[0];
    exact[0] -= &moved;
    exact[1] += &moved;
    rewrite_exact(&wider, "weight", &exact);
    let verify = run(&["verify", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&verify.stdout);
    let expected = format!("N = {}: face_mixture: Bob's mixture lets Alice get", ns.value(0));
    assert!(stdout.contains("failed dresher-n21-40: ") && stdout.contains(&expected), "{stdout}");
}

/// Many medium tasks, so that a kill lands in the middle of the sweep.
const MANY: &str = r#"
[risk]
value_iteration = { horizon = { from = 6000, to = 9900, step = 100 } }
"#;

#[test]
fn resumes_after_sigkill_with_every_task_done_once() {
    let tmp = TempDir::new("kill");
    let config = tmp.config("many.toml", MANY);
    let (killed, reference) = (tmp.join("killed"), tmp.join("reference"));

    let mut child = binary()
        .args(["run", config.to_str().unwrap(), "--out", killed.to_str().unwrap(), "--jobs", "1"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while markers(&killed, "risk").len() < 3 {
        assert!(start.elapsed().as_secs() < 120, "no progress");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let done_at_kill = markers(&killed, "risk").len();
    assert!(done_at_kill < 40, "the kill must land mid-sweep (all {done_at_kill} tasks were done)");
    // Finished tasks have all their parts; nothing visible is half-written.
    for id in markers(&killed, "risk") {
        assert!(killed.join(format!("risk/convergence/part-{id}.parquet")).exists());
        assert!(killed.join(format!("risk/value_iteration/part-{id}.parquet")).exists());
    }

    let rerun = run(&["run", config.to_str().unwrap(), "--out", killed.to_str().unwrap()]);
    assert!(rerun.status.success(), "{}", stderr(&rerun));
    let expected = format!(
        "ran {} tasks, skipped {done_at_kill} already done, 0 done by another run, 0 failed",
        40 - done_at_kill
    );
    assert!(stderr(&rerun).contains(&expected), "{}", stderr(&rerun));

    let full = run(&["run", config.to_str().unwrap(), "--out", reference.to_str().unwrap()]);
    assert!(full.status.success());
    assert_eq!(markers(&killed, "risk"), markers(&reference, "risk"));
    assert_eq!(markers(&killed, "risk").len(), 40);
    // Exactly one part per (table, task), with the same rows as an uninterrupted run.
    assert_eq!(parts(&killed), parts(&reference));
    assert!(!files(&killed).iter().any(|f| f.to_string_lossy().contains(".tmp/")), "scratch files left");
}

/// One higher-lower chunk of 40 N: each N is saved as a step.
const ONE_CHUNK: &str = "[higher_lower]\nn = { from = 1, to = 40 }\nchunk = 40\n";

/// The values of every saved step of `task`, by step name (read while no run writes).
fn saved_values(out: &Path, task: &str) -> std::collections::BTreeMap<String, arrow::record_batch::RecordBatch> {
    let dir = out.join(".steps/higher_lower").join(task);
    let Ok(steps) = std::fs::read_dir(&dir) else { return Default::default() };
    let output = gamesweep::artifacts::OutputDir::open(out).unwrap();
    steps
        .map(|step| step.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned())
        .map(|step| {
            // ONE_CHUNK leaves the tolerance at its default.
            let of = gamesweep::artifacts::steps::StepOf { game: "higher_lower", task, settings: "tolerance=1e-10" };
            let values = output.read_step(of, &step).unwrap().unwrap().remove("values").unwrap();
            (step, values)
        })
        .collect()
}

/// The tables without their timing columns, which differ between runs.
fn without_timings(
    parts: std::collections::BTreeMap<String, arrow::record_batch::RecordBatch>,
) -> Vec<(String, arrow::record_batch::RecordBatch)> {
    parts
        .into_iter()
        .map(|(name, batch)| {
            let keep: Vec<usize> =
                (0..batch.num_columns()).filter(|&i| !batch.schema().field(i).name().ends_with("_seconds")).collect();
            (name, batch.project(&keep).unwrap())
        })
        .collect()
}

#[test]
fn a_long_task_killed_midway_resumes_after_its_last_saved_step() {
    let tmp = TempDir::new("steps");
    let config = tmp.config("chunk.toml", ONE_CHUNK);
    let (killed, reference) = (tmp.join("killed"), tmp.join("reference"));
    let task = "auto-n1-40";

    // Kill the run between two steps; if it finishes first (a slow poll), try again.
    let saved = (0..10)
        .find_map(|_| {
            let _ = std::fs::remove_dir_all(&killed);
            let mut child = binary()
                .args(["run", config.to_str().unwrap(), "--out", killed.to_str().unwrap()])
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let start = std::time::Instant::now();
            let steps = killed.join(".steps/higher_lower").join(task);
            let any_saved = || std::fs::read_dir(&steps).is_ok_and(|mut s| s.next().is_some());
            while !any_saved() && child.try_wait().unwrap().is_none() {
                assert!(start.elapsed().as_secs() < 120, "no step saved");
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            child.kill().unwrap(); // SIGKILL
            child.wait().unwrap();
            Some(saved_values(&killed, task)).filter(|_| markers(&killed, "higher_lower").is_empty())
        })
        .expect("the kill never landed between two steps");
    assert!(!saved.is_empty() && saved.len() < 40);
    // A step file copied to the name of the next N: refused on load, that N computed.
    let steps = killed.join(".steps/higher_lower").join(task);
    let next = saved.keys().last().unwrap().strip_prefix('n').unwrap().parse::<usize>().unwrap() + 1;
    let first = saved.keys().next().unwrap();
    std::fs::copy(steps.join(format!("{first}.step")), steps.join(format!("n{next:04}.step"))).unwrap();

    let rerun = run(&["run", config.to_str().unwrap(), "--out", killed.to_str().unwrap()]);
    assert!(rerun.status.success(), "{}", stderr(&rerun));
    let log = stderr(&rerun);
    assert!(
        log.contains(&format!("discarding damaged step n{next:04} (decoding")) && log.contains("copied over?"),
        "{log}"
    );
    assert!(log.contains(&format!("done higher_lower/{task} in")), "{log}");
    assert!(log.contains(&format!("resumed from {} saved steps", saved.len())), "{log}");
    assert_eq!(markers(&killed, "higher_lower"), [task]);
    assert!(!files(&killed).iter().any(|f| f.to_string_lossy().contains(".steps/")), "steps left behind");

    // Every N once, the saved ones exactly as saved (timings included).
    let values = parts(&killed.join("higher_lower/values")).remove(&format!("part-{task}.parquet")).unwrap();
    let ns = values.column_by_name("n").unwrap().as_any().downcast_ref::<arrow::array::UInt32Array>().unwrap();
    assert_eq!(ns.values().to_vec(), (1..=40).collect::<Vec<u32>>());
    for (step, row) in &saved {
        let n: usize = step.strip_prefix('n').unwrap().parse().unwrap();
        assert_eq!(&values.slice(n - 1, 1), row, "N = {n} was not taken from its step");
    }

    // The same tables as an uninterrupted run, up to timings; and certified.
    assert!(run(&["run", config.to_str().unwrap(), "--out", reference.to_str().unwrap()]).status.success());
    let tables = |out: &Path| without_timings(parts(&out.join("higher_lower")));
    assert_eq!(tables(&killed), tables(&reference));
    let verify = run(&["verify", killed.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&verify.stdout);
    assert!(verify.status.success(), "{stdout}{}", stderr(&verify));
    assert!(stdout.contains("higher_lower: 1 tasks planned: 1 certified, 0 repaired, 0 failed, 0 missing"), "{stdout}");
}

#[test]
fn shards_together_equal_the_unsharded_run() {
    let tmp = TempDir::new("shards");
    let config = tmp.config("small.toml", SMALL);
    let (sharded, whole) = (tmp.join("sharded"), tmp.join("whole"));
    let mut counts = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let before = markers(&sharded, "risk");
        let out = run(&["run", config.to_str().unwrap(), "--out", sharded.to_str().unwrap(), "--shard", &shard]);
        assert!(out.status.success(), "{}", stderr(&out));
        let new: Vec<String> = markers(&sharded, "risk").into_iter().filter(|id| !before.contains(id)).collect();
        counts.push(markers(&sharded, "risk").len());
        // `gamesweep plan --shard` lists exactly what that shard's run computes.
        let plan = run(&["plan", config.to_str().unwrap(), "--shard", &shard]);
        assert!(plan.status.success(), "{}", stderr(&plan));
        let listed: Vec<String> = String::from_utf8_lossy(&plan.stdout)
            .lines()
            .skip(1)
            .map(|line| line.split('\t').nth(2).unwrap().to_string())
            .collect();
        let mut sorted = listed.clone();
        sorted.sort();
        assert_eq!(sorted, new, "shard {shard}");
    }
    assert_eq!(counts, [2, 4, 6], "each shard runs its third of the 6 tasks");
    let out = run(&["run", config.to_str().unwrap(), "--out", whole.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(parts(&sharded), parts(&whole));
    let verify = run(&["verify", sharded.to_str().unwrap()]);
    assert!(verify.status.success());
}

#[test]
fn verify_fails_tampered_battles_and_repairs_wrong_float_policy() {
    let tmp = TempDir::new("tamper");
    let config = tmp.config("small.toml", SMALL);
    let out = tmp.join("out");
    assert!(run(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap()]).status.success());

    // Change one exact conquest probability of the optimal defender by 10^-50
    // (still a reduced fraction, with the same nearest double).
    let battles = out.join("risk/battles/part-battles-optimal-a20-d15.parquet");
    rewrite_column(&battles, "conquest", |column| {
        let values = column.as_any().downcast_ref::<StringArray>().unwrap();
        let mut values: Vec<String> = values.iter().map(|v| v.unwrap().to_string()).collect();
        let tiny = gamesweep::exact::parse_pq(&format!("1/1{}", "0".repeat(50))).unwrap();
        values[100] = gamesweep::exact::format_pq(&(gamesweep::exact::parse_pq(&values[100]).unwrap() + tiny));
        Arc::new(StringArray::from(values))
    });
    // Flip the float decision at the last roll of n = 300 (where the rule is settled).
    let vi = out.join("risk/value_iteration/part-value-iteration-h300.parquet");
    rewrite_column(&vi, "dice", |column| {
        let dice = column.as_any().downcast_ref::<UInt8Array>().unwrap();
        let last = dice.len() - 1;
        Arc::new(
            (0..dice.len()).map(|i| if i == last { 3 - dice.value(i) } else { dice.value(i) }).collect::<UInt8Array>(),
        )
    });

    let verify = run(&["verify", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&verify.stdout);
    assert_eq!(verify.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("4 certified, 1 repaired, 1 failed"), "{stdout}");
    assert!(
        stdout
            .contains("failed battles-optimal-a20-d15: exact recomputation differs: battles: column conquest, row 100"),
        "{stdout}"
    );
    assert!(
        stdout.contains("repaired value-iteration-h300: ") && stdout.contains(": 1 float decisions wrong"),
        "{stdout}"
    );

    // The repair replaced the table: a second verification certifies it.
    let again = run(&["verify", out.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("5 certified, 0 repaired, 1 failed"));
}

#[test]
fn two_runs_at_once_on_one_directory_compute_each_task_once() {
    let tmp = TempDir::new("twice");
    // Eight chunks of a second or less each.
    let config = tmp.config("hl.toml", "[higher_lower]\nn = { from = 1, to = 160 }\nchunk = 20\n");
    let out = tmp.join("out");
    let start = || {
        binary()
            .args(["run", config.to_str().unwrap(), "--out", out.to_str().unwrap(), "--jobs", "1"])
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (first, second) = (start(), start());
    let logs: Vec<String> = [first, second]
        .into_iter()
        .map(|child| {
            let output = child.wait_with_output().unwrap();
            assert!(output.status.success(), "{}", stderr(&output));
            stderr(&output)
        })
        .collect();
    let computed = |log: &str| -> Vec<String> {
        let done = log.lines().filter_map(|l| l.strip_prefix("done higher_lower/"));
        done.map(|l| l.split(' ').next().unwrap().to_string()).collect()
    };
    let (a, b) = (computed(&logs[0]), computed(&logs[1]));
    let mut all: Vec<String> = a.iter().chain(&b).cloned().collect();
    all.sort();
    assert_eq!(all, markers(&out, "higher_lower"), "every task computed exactly once:\n{}\n{}", logs[0], logs[1]);
    assert!(!a.is_empty() && !b.is_empty(), "both runs worked:\n{}\n{}", logs[0], logs[1]);
    for (log, other) in [(&logs[0], b.len()), (&logs[1], a.len())] {
        assert!(log.contains(&format!("{other} done by another run")), "{log}");
    }
    assert!(run(&["verify", out.to_str().unwrap()]).status.success());
    assert!(!out.join(".claims/higher_lower").read_dir().unwrap().any(|_| true), "claims released");
}

/// A config that changes a setting the task ids do not name (the tolerance,
/// a claim's statement) is reported on rerun, naming tasks and keys and the
/// command that recomputes them; that command recomputes exactly those.
#[test]
fn a_changed_setting_is_named_on_rerun_and_redone_on_request() {
    let tmp = TempDir::new("settings");
    let out = tmp.join("out");
    let o = out.to_str().unwrap();
    let section = |tolerance: &str, statement: &str| {
        format!(
            "[higher_lower]\nn = {{ from = 1, to = 6 }}\nchunk = 6\ntolerance = {tolerance}\n\
             [[higher_lower.conjectures]]\nname = \"mine\"\nstatement = \"{statement}\"\n"
        )
    };
    let first = tmp.config("a.toml", &section("1e-10", "a[1] >= a[2]"));
    assert!(run(&["run", first.to_str().unwrap(), "--out", o]).status.success());
    let before = snapshot(&out.join("higher_lower"));

    let changed = tmp.config("b.toml", &section("1e-8", "a[1] >= a[2]"));
    let plain = run(&["run", changed.to_str().unwrap(), "--out", o]);
    let note = stderr(&plain);
    assert!(plain.status.success(), "{note}");
    assert!(
        note.contains(
            "the config changes settings of 1 finished task(s): higher_lower/auto-n1-6 (tolerance 1e-10 -> 1e-8)"
        ),
        "{note}"
    );
    assert!(note.contains(&format!("gamesweep run {} --out {o} --redo-changed", changed.display())), "{note}");
    assert_eq!(snapshot(&out.join("higher_lower")), before, "a plain rerun keeps what was computed");

    let redo = run(&["run", changed.to_str().unwrap(), "--out", o, "--redo-changed"]);
    assert!(redo.status.success(), "{}", stderr(&redo));
    assert!(stderr(&redo).contains("recomputing them (--redo-changed)"), "{}", stderr(&redo));
    let marker = std::fs::read_to_string(out.join(".tasks/higher_lower/auto-n1-6.json")).unwrap();
    assert!(marker.contains("\"tolerance\": \"1e-8\""), "{marker}");
    let again = run(&["run", changed.to_str().unwrap(), "--out", o]);
    assert!(!stderr(&again).contains("changes settings"), "{}", stderr(&again));

    // A claim's statement is a setting of its claim task, not of the solve task.
    let restated = tmp.config("c.toml", &section("1e-8", "a[1] <= a[2]"));
    let note = stderr(&run(&["run", restated.to_str().unwrap(), "--out", o]));
    assert!(
        note.contains("higher_lower/claim-mine-auto-n1-6 (statement a[1] >= a[2] -> a[1] <= a[2])")
            && note.contains("of 1 finished task(s)"),
        "{note}"
    );
    let verified = run(&["verify", o]);
    assert!(verified.status.success(), "{}", stderr(&verified));
}

/// Runs gamesweep on a directory it may read but not write: as user
/// `nobody` (through setpriv, on a copy of the binary it can execute) when
/// the tests run as root, else after taking write permission away.
fn run_read_only(tmp: &TempDir, dir: &Path, args: &[&str]) -> std::process::Output {
    let as_root = std::process::Command::new("id").arg("-u").output().unwrap().stdout.starts_with(b"0");
    if !as_root {
        assert!(std::process::Command::new("chmod").args(["-R", "a-w"]).arg(dir).status().unwrap().success());
        let output = run(args);
        assert!(std::process::Command::new("chmod").args(["-R", "u+w"]).arg(dir).status().unwrap().success());
        return output;
    }
    let binary = tmp.join("gamesweep-copy");
    if !binary.exists() {
        std::fs::copy(env!("CARGO_BIN_EXE_gamesweep"), &binary).unwrap();
    }
    std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(&binary)
        .args(args)
        .output()
        .expect("setpriv runs (util-linux)")
}

/// A read-only archive is verified: the verdicts are printed, the run says it
/// could not record them, and nothing changes; a repair that cannot be
/// written leaves the stored result wrong, so that task fails.
#[test]
fn a_read_only_archive_is_verified_without_recording() {
    let tmp = TempDir::new("readonly");
    let config = tmp.config("small.toml", SMALL);
    let out = tmp.join("out");
    let o = out.to_str().unwrap();
    assert!(run(&["run", config.to_str().unwrap(), "--out", o]).status.success());
    let before = snapshot(&out);
    let clean = run_read_only(&tmp, &out, &["verify", o]);
    let (stdout, note) = (String::from_utf8_lossy(&clean.stdout), stderr(&clean));
    assert_eq!(clean.status.code(), Some(0), "{stdout}{note}");
    assert!(stdout.contains("risk: 6 tasks planned: 6 certified"), "{stdout}");
    assert!(note.contains("checked but not recorded") && note.contains("for 6 task(s)"), "{note}");
    assert_eq!(snapshot(&out), before, "a read-only verification writes nothing");

    let vi = out.join("risk/value_iteration/part-value-iteration-h300.parquet");
    rewrite_column(&vi, "dice", |column| {
        let dice = column.as_any().downcast_ref::<UInt8Array>().unwrap();
        Arc::new(
            (0..dice.len()).map(|i| if i == 0 { 3 - dice.value(i) } else { dice.value(i) }).collect::<UInt8Array>(),
        )
    });
    let wrong = run_read_only(&tmp, &out, &["verify", o]);
    let stdout = String::from_utf8_lossy(&wrong.stdout);
    assert_eq!(wrong.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("failed value-iteration-h300: ") && stdout.contains("the repair could not be written"),
        "{stdout}"
    );
}

/// Rewrites an exact column ("p/q" strings) and its `_f64` twin with `values`.
fn rewrite_exact(path: &Path, column: &str, values: &[gamesweep::exact::Rational]) {
    rewrite_column(path, column, |_| {
        Arc::new(StringArray::from(values.iter().map(gamesweep::exact::format_pq).collect::<Vec<_>>()))
    });
    rewrite_column(path, &format!("{column}_f64"), |_| {
        Arc::new(arrow::array::Float64Array::from(values.iter().map(gamesweep::exact::to_f64).collect::<Vec<_>>()))
    });
}

/// `chunk_starts` begins a task at each N it lists, besides those `chunk`
/// starts: each task's first N is solved cold, the rest warm from N - 1.
#[test]
fn chunk_starts_begin_tasks_solved_cold() {
    let tmp = TempDir::new("chunk-starts");
    let text = "[higher_lower]\nn = { from = 1, to = 20 }\nchunk = 8\nchunk_starts = [5, 12]\n";
    let config = tmp.config("starts.toml", text);
    let out = tmp.join("out");
    let result = run(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(result.status.success(), "{}", stderr(&result));
    let mut tasks = markers(&out, "higher_lower");
    tasks.sort();
    assert_eq!(tasks, ["auto-n1-4", "auto-n12-19", "auto-n20-20", "auto-n5-11"]);
    let mut cold = Vec::new();
    for (path, batch) in parts(&out) {
        if path.contains("/values/") {
            let n = batch.column_by_name("n").unwrap().as_any().downcast_ref::<arrow::array::UInt32Array>().unwrap();
            let warm = batch.column_by_name("warm_started").unwrap();
            let warm = warm.as_any().downcast_ref::<arrow::array::BooleanArray>().unwrap();
            cold.extend((0..batch.num_rows()).filter(|&i| !warm.value(i)).map(|i| n.value(i)));
        }
    }
    cold.sort_unstable();
    assert_eq!(cold, [1, 5, 12, 20]);
}
