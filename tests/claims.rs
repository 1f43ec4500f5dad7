//! Claims of one's own on a higher-lower sweep: in a config and asked of a
//! finished run with `gamesweep conjecture`; a killed command resumed gives
//! the rows of an uninterrupted one; `verify` re-proves the claims' verdicts
//! and fails a forged one; the report lists them.

mod common;
use arrow::array::{Array, ArrayRef, StringArray};
use arrow::record_batch::RecordBatch;
use common::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// N = 1..70 in chunks of 35, with one claim of the config's own.
const SWEEP: &str = r#"
[higher_lower]
n = { from = 1, to = 70 }
chunk = 35

[[higher_lower.conjectures]]
name = "outer_keys"
statement = "a[1] >= 2/N and a[N] >= 2/N"
when = "N % 2 == 1"
"#;

/// A claim with many members (a face LP per member where the box does not settle it).
const ASKED: [&str; 4] = ["--name", "non_increasing", "for j in 2..N/2-1: a[j] >= a[j+1]", "--from=6"];

fn sweep(tmp: &TempDir, name: &str) -> std::path::PathBuf {
    let config = tmp.config(&format!("{name}.toml"), SWEEP);
    let out = tmp.join(name);
    let ran = run(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(ran.status.success(), "{}", stderr(&ran));
    out
}

/// The rows of the claim tasks of `name`, by part.
fn claim_rows(out: &Path, name: &str) -> BTreeMap<String, RecordBatch> {
    ["conjectures", "conjecture_proofs", "face_trees"]
        .iter()
        .flat_map(|table| {
            parts(&out.join("higher_lower").join(table))
                .into_iter()
                .filter(|(part, _)| part.starts_with(&format!("part-claim-{name}-")))
                .map(move |(part, batch)| (format!("{table}/{part}"), batch))
        })
        .collect()
}

fn conjecture(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["conjecture", out.to_str().unwrap()];
    args.extend(ASKED);
    args.extend(extra);
    run(&args)
}

#[test]
fn a_killed_conjecture_resumes_to_the_rows_of_an_uninterrupted_one() {
    let tmp = TempDir::new("claims-resume");
    let whole = sweep(&tmp, "whole");
    let asked = conjecture(&whole, &["--jobs", "1"]);
    let text = String::from_utf8_lossy(&asked.stdout);
    assert!(asked.status.success(), "{text}{}", stderr(&asked));
    assert!(text.contains("does not apply at 1..5 (N < 6 (from))"), "{text}");
    let expected = claim_rows(&whole, "non_increasing");
    assert_eq!(expected.len(), 6, "{:?}", expected.keys());

    // Killed (SIGKILL) once it has saved a step: no marker yet, the steps stay.
    let killed = sweep(&tmp, "killed");
    let mut args = vec!["conjecture".to_string(), killed.to_str().unwrap().to_string()];
    args.extend(ASKED.iter().map(|s| s.to_string()));
    args.extend(["--jobs".to_string(), "1".to_string()]);
    let mut child =
        binary().args(&args).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap();
    let steps = killed.join(".steps/higher_lower");
    let start = Instant::now();
    let saved = || files(&steps).iter().any(|f| f.extension().is_some_and(|e| e == "step"));
    while !saved() && start.elapsed() < Duration::from_secs(120) && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let claim_markers =
        markers(&killed, "higher_lower").iter().filter(|m| m.starts_with("claim-non_increasing")).count();
    assert!(saved() && claim_markers < 2, "killed too late: {claim_markers} claim tasks done");

    // The same command resumes from the steps and writes the same rows.
    let resumed = conjecture(&killed, &[]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(stderr(&resumed).contains("saved steps"), "{}", stderr(&resumed));
    assert_eq!(claim_rows(&killed, "non_increasing"), expected);
    // Asked again, it computes nothing and prints the same verdicts.
    let again = conjecture(&killed, &[]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("0 ran, 2 already done"));
    let verified = run(&["verify", killed.to_str().unwrap()]);
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
}

#[test]
fn verify_re_proves_claims_and_fails_a_forged_verdict_and_the_report_lists_them() {
    let tmp = TempDir::new("claims-verify");
    let out = sweep(&tmp, "out");
    assert!(conjecture(&out, &[]).status.success());
    let verified = run(&["verify", out.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&verified.stdout).into_owned();
    assert!(verified.status.success(), "{text}");
    // 2 solve tasks, 2 tasks of the config's claim, 2 of the asked one.
    assert!(text.contains("higher_lower: 6 tasks planned: 6 certified"), "{text}");

    let report = run(&["report", out.to_str().unwrap()]);
    assert!(report.status.success());
    let index = std::fs::read_to_string(out.join("report/index.md")).unwrap();
    for line in [
        "| outer\\_keys | ` a[1] >= 2/N and a[N] >= 2/N ` |",
        "| non\\_increasing | ` for j in 2..N/2-1: a[j] >= a[j+1] ` |",
    ] {
        assert!(index.contains(line), "{line} not in the report");
    }

    // A verdict flipped and the part resealed (consistent, but wrong): verify fails that task alone.
    let part = out.join("higher_lower/conjectures/part-claim-non_increasing-auto-n36-70.parquet");
    rewrite_column(&part, "verdict", |column| {
        let verdicts = column.as_any().downcast_ref::<StringArray>().unwrap();
        let flipped: Vec<&str> = verdicts
            .iter()
            .map(|v| match v.unwrap() {
                "holds for every optimal alpha" => "fails for every optimal alpha",
                "fails for every optimal alpha" => "holds for every optimal alpha",
                other => other,
            })
            .collect();
        Arc::new(StringArray::from(flipped)) as ArrayRef
    });
    let verified = run(&["verify", out.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&verified.stdout).into_owned();
    assert!(!verified.status.success());
    assert!(text.contains("5 certified, 0 repaired, 1 failed"), "{text}");
    assert!(text.contains("failed claim-non_increasing-auto-n36-70: N = "), "{text}");
}

/// What a claim adds is still re-proven when verify rests on the solve task's
/// verification: a claim's witness changed where the optimal face is not a
/// point (N = 4), or a stored row changed where alpha* alone decides, fails
/// that claim task alone.
#[test]
fn verify_fails_a_tampered_claim_proof_and_a_tampered_row() {
    let tmp = TempDir::new("claims-tamper");
    let out = sweep(&tmp, "out");
    assert!(conjecture(&out, &[]).status.success());
    // At N = 4 alpha_1 is the largest for some optimal alpha and not for others: two witnesses.
    let largest = ["conjecture", out.to_str().unwrap(), "--name", "largest", "for j in 2..N-1: a[1] > a[j]"];
    assert!(run(&largest).status.success());
    let proof_part = out.join("higher_lower/conjecture_proofs/part-claim-largest-auto-n1-35.parquet");
    assert!(claim_rows(&out, "largest")["conjecture_proofs/part-claim-largest-auto-n1-35.parquet"].num_rows() > 0);
    rewrite_column(&proof_part, "coefficient", |column| {
        let alpha = column.as_any().downcast_ref::<StringArray>().unwrap();
        Arc::new(alpha.iter().map(|a| a.map(|_| "1/4")).collect::<StringArray>()) as ArrayRef
    });
    let verified = run(&["verify", out.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&verified.stdout).into_owned();
    assert!(!verified.status.success());
    assert!(text.contains("failed claim-largest-auto-n1-35: N = 4"), "{text}");
    assert!(text.contains("7 certified, 0 repaired, 1 failed"), "{text}");

    // Another claim's rows: `holds` flipped at every N, the verdicts kept.
    let rows_part = out.join("higher_lower/conjectures/part-claim-non_increasing-auto-n36-70.parquet");
    rewrite_column(&rows_part, "holds", |column| {
        let holds = column.as_any().downcast_ref::<arrow::array::BooleanArray>().unwrap();
        Arc::new(holds.iter().map(|h| h.map(|h| !h)).collect::<arrow::array::BooleanArray>()) as ArrayRef
    });
    let verified = run(&["verify", out.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&verified.stdout).into_owned();
    assert!(text.contains("6 certified, 0 repaired, 2 failed"), "{text}");
    assert!(text.contains("failed claim-non_increasing-auto-n36-70: N = 36"), "{text}");
}
