//! Higher-lower's exact values as OEIS b-files (`gamesweep export --format
//! oeis`) from a verified sweep of N = 1..60: the terms the OEIS shows
//! (A286676's DATA; the denominators of its EXAMPLE for A286677), each line's
//! fraction against the checked value, the b-file format, and the stop at
//! the first N without a checked value.

mod common;
use common::{TempDir, binary};
use gamesweep::artifacts::parquet_io::read_batch;
use gamesweep::exact::parse_canonical_pq;
use gamesweep::published;
use std::collections::BTreeMap;
use std::path::Path;

const CONFIG: &str = "[higher_lower]\nn = { from = 1, to = 60 }\nmethods = [\"auto\"]\nchunk = 20\n";

/// A verified sweep of N = 1..60 in three tasks.
fn sweep(dir: &TempDir) -> std::path::PathBuf {
    let out = dir.join("out");
    let config = dir.config("oeis.toml", CONFIG);
    let run = binary().args(["run"]).arg(&config).arg("--out").arg(&out).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let verify = binary().arg("verify").arg(&out).output().unwrap();
    assert!(verify.status.success(), "{}", String::from_utf8_lossy(&verify.stderr));
    out
}

/// The b-file's terms, after checking its format: "n a(n)" lines for n = 1, 2, 3, ...,
/// digits without leading zeros, no blank line, a final newline.
fn terms(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.ends_with('\n') && !text.contains("\n\n"), "{}: blank or unterminated lines", path.display());
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let (n, a) = line.split_once(' ').unwrap_or_else(|| panic!("{line:?}: not \"n a(n)\""));
            assert_eq!(n, (i + 1).to_string(), "{}: n out of sequence", path.display());
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && !s.starts_with('0');
            assert!(digits(a), "{}: {line:?}: a(n) is not a number without leading zeros", path.display());
            a.to_string()
        })
        .collect()
}

/// V(N) by N as stored in the sweep's `values` parts.
fn stored_values(out: &Path) -> BTreeMap<usize, String> {
    let mut values = BTreeMap::new();
    for entry in std::fs::read_dir(out.join("higher_lower/values")).unwrap() {
        let batch = read_batch(&entry.unwrap().path()).unwrap();
        let n = batch.column_by_name("n").unwrap().as_any().downcast_ref::<arrow::array::UInt32Array>().unwrap();
        let v = batch.column_by_name("value").unwrap().as_any().downcast_ref::<arrow::array::StringArray>().unwrap();
        for r in 0..batch.num_rows() {
            values.insert(n.value(r) as usize, v.value(r).to_string());
        }
    }
    values
}

fn published_terms(key: &str) -> Vec<String> {
    let oeis = published::section("higher_lower")["oeis"].as_table().unwrap();
    oeis[key].as_array().unwrap().iter().map(|t| t.as_integer().unwrap().to_string()).collect()
}

#[test]
fn b_files_of_a_checked_sweep_equal_the_oeis_terms_and_the_checked_values() {
    let dir = TempDir::new("oeis");
    let out = sweep(&dir);
    let dest = dir.join("b");
    let export = binary().arg("export").arg(&out).arg("--out").arg(&dest).args(["--format", "oeis"]).output().unwrap();
    assert!(export.status.success(), "{}", String::from_utf8_lossy(&export.stderr));
    let (numerators, denominators) = (terms(&dest.join("b286676.txt")), terms(&dest.join("b286677.txt")));
    assert_eq!(numerators.len(), 60);
    assert_eq!(denominators.len(), 60);
    let a286676 = published_terms("a286676");
    assert_eq!(a286676.len(), 52);
    assert_eq!(numerators[..52], a286676[..]);
    let a286677 = published_terms("a286677_from_example");
    assert_eq!(denominators[..a286677.len()], a286677[..]);
    for (n, value) in stored_values(&out) {
        let line = format!("{}/{}", numerators[n - 1], denominators[n - 1]);
        assert_eq!(parse_canonical_pq(&line).unwrap(), parse_canonical_pq(&value).unwrap(), "N = {n}");
        assert_eq!(line, value, "N = {n}: the b-files' fraction is the reduced checked value");
    }
}

#[test]
fn b_files_stop_at_the_first_n_without_a_checked_value() {
    let dir = TempDir::new("oeis-gap");
    let out = sweep(&dir);
    // The middle task (N = 21..40) loses its verdict: never verified.
    std::fs::remove_file(out.join("higher_lower/verification/part-auto-n21-40.parquet")).unwrap();
    let dest = dir.join("b");
    let refused = binary().arg("export").arg(&out).arg("--out").arg(&dest).args(["--format", "oeis"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("higher_lower/auto-n21-40: never verified"), "{said}");
    assert!(!dest.exists(), "nothing written when a task is not checked");
    let args = ["--format", "oeis", "--leave-out"];
    let left_out = binary().arg("export").arg(&out).arg("--out").arg(&dest).args(args).output().unwrap();
    assert!(left_out.status.success(), "{}", String::from_utf8_lossy(&left_out.stderr));
    let said = String::from_utf8_lossy(&left_out.stderr);
    assert!(said.contains("n = 1..20") && said.contains("N = 21 has no checked value"), "{said}");
    assert_eq!(terms(&dest.join("b286676.txt")).len(), 20);
}
