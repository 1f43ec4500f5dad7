//! The face stage of higher-lower (every conjecture decided over all of
//! Alice's optimal strategies, the bound on Bob's tallest tree) on stored
//! solutions: its seconds beside the solve and exact seconds the sweep
//! stored for the same N, and the verdicts. It reads the `values`, `alice`
//! and `bob` tables of a higher-lower output directory; without one it
//! solves N = 100..=140 first (untimed).
//!
//!   cargo bench --bench higher_lower_face
//!   HL_FACE_DIR=data/hl1024 cargo bench --bench higher_lower_face
//!   HL_FACE_DIR=data/hl1024 HL_FACE_N=961,987 cargo bench --bench higher_lower_face
//!
//! With HL_FACE_PART=height only the bound on Bob's tallest tree (Table 3.1,
//! `height_limit`) runs, and each N's bound is printed beside ours; with
//! HL_FACE_HINT=1 as well, how many N would be proven by N - 1's alpha; with
//! HL_FACE_HINT=stored, N - 1's stored height proof is tried first, as the sweep does (in the whole
//! face stage too).
//! HL_FACE_VERTEX=1 builds each face from Bob's vertex mixture (`bob`) even
//! where the run stored a wider one (`face_mixture`): the stage before widening.
//!
//! With HL_FACE_PART=claim and HL_FACE_CLAIM='STATEMENT' (a claim, e.g.
//! 'a[2] = a[3] + a[4]') each N's seconds are split: building the face
//! (its hull's directions), deciding the claim on a fresh face, and deciding
//! it on a face that starts from the built-in conjectures' cuts and box, as
//! `gamesweep conjecture` does from a sweep's stored `face_cuts` and proofs.

use arrow::array::{Array, Float64Array, ListArray, StringArray, UInt8Array, UInt32Array};
use arrow::record_batch::RecordBatch;
use gamesweep::exact::{Rational, parse_pq};
use gamesweep::games::higher_lower::claims::{Claim, builtin};
use gamesweep::games::higher_lower::exact_stage::exact_stage;
use gamesweep::games::higher_lower::face::polytope::AliceFace;
use gamesweep::games::higher_lower::face::verdicts::{decide_all, decide_claim};
use gamesweep::games::higher_lower::face::{FaceOutcome, face_stage};
use gamesweep::games::higher_lower::height_limit::{HeightHints, tallest_tree_at_least};
use gamesweep::games::higher_lower::mixture::Mixture;
use gamesweep::games::higher_lower::solve::{Method, SolveOptions, solve};
use gamesweep::games::higher_lower::tree::Tree;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// One stored N: V, alpha, Bob's mixture, and the sweep's solve + exact seconds.
struct Stored {
    value: Rational,
    alpha: Vec<Rational>,
    bob: Mixture,
    /// The wider mixture the face was built from (`face_mixture`), if any.
    wider: Option<Mixture>,
    /// The height-limited game's alpha that proved Table 3.1's bound (`height_proofs`), if any.
    height_proof: Option<Vec<Rational>>,
    /// The trees the float solve priced, where the directory holds its checkpoint-only `warm_start`.
    priced: Vec<Tree>,
    seconds: f64,
}

impl Stored {
    /// The mixture whose support gives the face's hull: the wider one unless
    /// HL_FACE_VERTEX=1 asks for Bob's vertex mixture (the face stage before
    /// `exact_stage::widen`).
    fn hull(&self) -> &Mixture {
        match &self.wider {
            Some(wider) if std::env::var("HL_FACE_VERTEX").is_err() => wider,
            _ => &self.bob,
        }
    }
}

fn main() {
    let mut stored = match std::env::var("HL_FACE_DIR") {
        Ok(dir) => read(Path::new(&dir)),
        Err(_) => solved(100..=140),
    };
    if let Ok(only) = std::env::var("HL_FACE_N") {
        let keep: Vec<usize> = only.split(',').map(|s| s.trim().parse().expect("N")).collect();
        stored.retain(|n, _| keep.contains(n));
    }
    if std::env::var("HL_FACE_PART").is_ok_and(|part| part == "height") {
        return heights(&stored);
    }
    if std::env::var("HL_FACE_PART").is_ok_and(|part| part == "hull") {
        for (n, s) in &stored {
            let clock = Instant::now();
            let face = AliceFace::new(&s.value, &s.alpha, s.hull()).expect("the face");
            let seconds = clock.elapsed().as_secs_f64();
            let z = gamesweep::games::higher_lower::hull::OptimalFace::new(&s.value, s.hull()).directions().unwrap();
            let digits: usize = z.iter().flat_map(|v| v.numerators.iter()).map(|x| x.to_string().len()).sum();
            let nonzero: usize = z.iter().flat_map(|v| v.numerators.iter()).filter(|x| **x != 0u32).count();
            let den: usize = z.iter().map(|v| v.denominator.to_string().len()).max().unwrap_or(0);
            println!(
                "N = {n}: d = {}, {seconds:.2} s, {nonzero} non-zero entries, {digits} digits, denominators up to {den} digits",
                face.dimension()
            );
        }
        return;
    }
    if std::env::var("HL_FACE_PART").is_ok_and(|part| part == "claim") {
        let statement = std::env::var("HL_FACE_CLAIM").expect("HL_FACE_CLAIM='a statement'");
        let claim = Claim::parse("asked", &statement, 1, None).unwrap_or_else(|e| panic!("{e}"));
        return claim_seconds(&stored, &claim);
    }
    let start = Instant::now();
    let from_stored = std::env::var("HL_FACE_HINT").is_ok_and(|hint| hint == "stored");
    let outcomes: Vec<(usize, Result<FaceOutcome, String>)> = stored
        .par_iter()
        .map(|(&n, s)| {
            let tallest = s.bob.iter().filter(|(_, y)| *y > 0u32).map(|(t, _)| t.height()).max().unwrap_or(0);
            // With HL_FACE_HINT=stored, N - 1's stored height proof is tried first, as in the sweep.
            let previous = stored.get(&(n - 1)).and_then(|p| p.height_proof.as_deref()).filter(|_| from_stored);
            let outcome = face_stage(
                &s.value,
                &s.alpha,
                s.hull(),
                None,
                tallest,
                builtin(),
                HeightHints { previous, priced: &s.priced },
            );
            if let Ok(o) = &outcome {
                eprintln!("N = {n}: d = {}, {:.2} s (sweep {:.2} s)", o.dimension, o.seconds, s.seconds);
            }
            (n, outcome)
        })
        .collect();
    let wall = start.elapsed().as_secs_f64();
    let face: f64 = outcomes.iter().filter_map(|(_, o)| o.as_ref().ok()).map(|o| o.seconds).sum();
    let sweep: f64 = stored.values().map(|s| s.seconds).sum();
    let mut verdicts: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    let mut slowest: Vec<(f64, usize, usize)> = Vec::new();
    for (n, outcome) in &outcomes {
        match outcome {
            Ok(o) => {
                for d in &o.decided {
                    verdicts.entry((d.name.as_str(), d.verdict.as_str())).or_default().push(*n);
                }
                slowest.push((o.seconds, *n, o.dimension));
            }
            Err(why) => println!("N = {n}: FAILED: {why}"),
        }
    }
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!(
        "{} N; face stage {face:.1} s CPU ({wall:.1} s wall on {} threads)",
        stored.len(),
        rayon::current_num_threads()
    );
    println!("sweep's solve + exact seconds for the same N: {sweep:.1} s; face / sweep = {:.3}", face / sweep);
    println!("slowest N (seconds, N, face dimension): {:?}", &slowest[..slowest.len().min(8)]);
    for ((name, verdict), ns) in &verdicts {
        let shown: Vec<String> = ns.iter().take(12).map(usize::to_string).collect();
        println!(
            "{name:>30} | {verdict:<30} | {:>5} N | {}{}",
            ns.len(),
            shown.join(", "),
            if ns.len() > 12 { ", ..." } else { "" }
        );
    }
}

/// One claim per N: the face's construction, the claim on a fresh face,
/// and on a face that starts from the built-ins' cuts and box.
fn claim_seconds(stored: &BTreeMap<usize, Stored>, claim: &Claim) {
    let start = Instant::now();
    let rows: Vec<(usize, usize, [f64; 4], String)> = stored
        .par_iter()
        .map(|(&n, s)| {
            let clock = Instant::now();
            let face = AliceFace::new(&s.value, &s.alpha, s.hull()).expect("the face");
            let build = clock.elapsed().as_secs_f64();
            let clock = Instant::now();
            let cold = decide_claim(&face, claim);
            let cold_seconds = clock.elapsed().as_secs_f64();
            // The cache a sweep keeps: the built-ins' cuts and box.
            let clock = Instant::now();
            let _ = decide_all(&face, builtin());
            let builtins = clock.elapsed().as_secs_f64();
            let cached = AliceFace::new(&s.value, &s.alpha, s.hull()).expect("the face");
            cached.add_cuts(face.tree_cuts());
            if let Ok(bounds) = face.box_bounds() {
                cached.set_box(bounds);
            }
            let clock = Instant::now();
            let warm = decide_claim(&cached, claim);
            let warm_seconds = clock.elapsed().as_secs_f64();
            if let Some(why) = cold.why.as_ref().or(warm.why.as_ref()) {
                eprintln!("N = {n}: undecided: {why}");
            }
            assert_eq!(cold.verdict, warm.verdict, "N = {n}");
            eprintln!(
                "N = {n}: d = {}, build {build:.2} s, claim cold {cold_seconds:.2} s, warm {warm_seconds:.2} s ({}), {} cuts",
                face.dimension(),
                warm.verdict.as_str(),
                face.tree_cuts().len()
            );
            (n, face.dimension(), [build, cold_seconds, warm_seconds, builtins], warm.verdict.as_str().to_string())
        })
        .collect();
    let total = |k: usize| rows.iter().map(|r| r.2[k]).sum::<f64>();
    println!(
        "{} N, {:.1} s wall on {} threads: build {:.1} s, claim on a fresh face {:.1} s, from the cache {:.1} s \
         (the built-ins that made the cache: {:.1} s) CPU",
        rows.len(),
        start.elapsed().as_secs_f64(),
        rayon::current_num_threads(),
        total(0),
        total(1),
        total(2),
        total(3)
    );
    let mut slowest = rows.clone();
    slowest.sort_by(|a, b| (b.2[0] + b.2[2]).total_cmp(&(a.2[0] + a.2[2])));
    for (n, d, [build, cold, warm, _], verdict) in slowest.iter().take(8) {
        println!("N = {n}: d = {d}, build {build:.2} s, cold {cold:.2} s, cached {warm:.2} s, {verdict}");
    }
}

/// Table 3.1 alone: each N's proven least height of Bob's tallest tree
/// beside ours, with what proved it and the seconds.
fn heights(stored: &BTreeMap<usize, Stored>) {
    let start = Instant::now();
    // (N, ours, proven at least, the height-limited game's alpha, seconds)
    type Proven = (usize, u8, u8, Option<Vec<Rational>>, f64);
    let from_stored = std::env::var("HL_FACE_HINT").is_ok_and(|hint| hint == "stored");
    let proofs: Vec<Proven> = stored
        .par_iter()
        .map(|(&n, s)| {
            let begin = Instant::now();
            let ours = s.bob.iter().filter(|(_, y)| *y > 0u32).map(|(t, _)| t.height()).max().unwrap_or(0);
            // With HL_FACE_HINT=stored, N - 1's stored height proof is the hint, as in the sweep.
            let previous = stored.get(&(n - 1)).and_then(|p| p.height_proof.as_deref()).filter(|_| from_stored);
            // HL_FACE_PRICED=0 leaves the solve's priced trees out of the height-limited game's start.
            let priced = if std::env::var("HL_FACE_PRICED").is_ok_and(|p| p == "0") { &[][..] } else { &s.priced };
            let hints = HeightHints { previous, priced };
            let (at_least, limited) = tallest_tree_at_least(&s.value, &s.alpha, s.hull(), ours, hints);
            eprintln!("N = {n}: {at_least} of {ours}, {:.2} s", begin.elapsed().as_secs_f64());
            (n, ours, at_least, limited, begin.elapsed().as_secs_f64())
        })
        .collect();
    // With HL_FACE_HINT=1: would N - 1's limited alpha, its middle key repeated, have refuted at N
    // (what the sweep tries first, `tallest_tree_at_least`'s `previous`)?
    if std::env::var("HL_FACE_HINT").is_ok() && !from_stored {
        let (mut tried, mut refuted, mut seconds) = (0, 0, 0.0);
        for pair in proofs.windows(2) {
            let ((m, _, _, Some(previous), _), (n, _, at_least, Some(_), spent)) = (&pair[0], &pair[1]) else {
                continue;
            };
            if m + 1 != *n {
                continue;
            }
            let clock = Instant::now();
            let mut alpha = previous.clone();
            alpha.insert(n / 2, previous[(n - 1) / 2].clone());
            let total: Rational = alpha.iter().sum();
            let alpha: Vec<Rational> = alpha.iter().map(|a| a / &total).collect();
            let works = gamesweep::games::higher_lower::height_limit::refutes(&stored[n].value, &alpha, at_least - 1);
            let took = clock.elapsed().as_secs_f64();
            eprintln!("N = {n}: N - 1's alpha refutes: {works} ({took:.2} s against {spent:.2} s)");
            tried += 1;
            refuted += usize::from(works);
            seconds += took;
        }
        println!("hint: {refuted} of {tried} N refuted by N - 1's alpha, {seconds:.1} s");
    }
    let rows: Vec<(usize, u8, u8, bool, f64)> =
        proofs.into_iter().map(|(n, ours, at_least, limited, s)| (n, ours, at_least, limited.is_some(), s)).collect();
    for (n, ours, at_least, limited, seconds) in &rows {
        let by = if *limited { "height-limited game's alpha" } else { "alpha* or size" };
        println!("N = {n}: ours {ours}, proven at least {at_least} (by {by}), {seconds:.3} s");
    }
    let short: Vec<usize> = rows.iter().filter(|r| r.2 < r.1).map(|r| r.0).collect();
    let cpu: f64 = rows.iter().map(|r| r.4).sum();
    println!(
        "{} N; {} proven equal to ours, {} not: {short:?}; {} by the height-limited game; {cpu:.1} s CPU, {:.1} s wall",
        rows.len(),
        rows.len() - short.len(),
        short.len(),
        rows.iter().filter(|r| r.3).count(),
        start.elapsed().as_secs_f64()
    );
}

/// Solves the N of `ns` (a warm chain) and keeps their exact solutions.
fn solved(ns: std::ops::RangeInclusive<usize>) -> BTreeMap<usize, Stored> {
    let options = SolveOptions::new(Method::Auto, 1e-10, 10_000_000);
    let mut previous = None;
    let mut stored = BTreeMap::new();
    for n in ns {
        let float = solve(n, &options, previous.as_ref());
        let exact = exact_stage(&float).expect("exact stage");
        let seconds = float.seconds + exact.seconds;
        let (value, alpha, bob, wider) = (exact.value, exact.alpha, exact.bob, exact.face_mixture);
        let priced = float.pool.clone();
        stored.insert(n, Stored { value, alpha, bob, wider, height_proof: None, priced, seconds });
        previous = Some(float);
    }
    stored
}

/// Every row of one table of the output directory.
fn table(dir: &Path, name: &str) -> Vec<RecordBatch> {
    let folder = dir.join("higher_lower").join(name);
    let mut batches = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display())) {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "parquet") {
            let file = std::fs::File::open(&path).expect("a part");
            let reader = ParquetRecordBatchReaderBuilder::try_new(file).expect("parquet").build().expect("a reader");
            batches.extend(reader.map(|b| b.expect("a batch")));
        }
    }
    batches
}

fn column<'a, T: 'static>(batch: &'a RecordBatch, name: &str) -> &'a T {
    batch.column_by_name(name).and_then(|c| c.as_any().downcast_ref::<T>()).unwrap_or_else(|| panic!("column {name}"))
}

fn read(dir: &Path) -> BTreeMap<usize, Stored> {
    let parse = |s: &str| parse_pq(s).expect("p/q");
    let mut stored: BTreeMap<usize, Stored> = BTreeMap::new();
    for batch in table(dir, "values") {
        let (n, value) = (column::<UInt32Array>(&batch, "n"), column::<StringArray>(&batch, "value"));
        let (solve, exact) =
            (column::<Float64Array>(&batch, "solve_seconds"), column::<Float64Array>(&batch, "exact_seconds"));
        for r in 0..batch.num_rows() {
            let entry = Stored {
                value: parse(value.value(r)),
                alpha: Vec::new(),
                bob: Mixture::default(),
                wider: None,
                height_proof: None,
                priced: Vec::new(),
                seconds: solve.value(r) + exact.value(r),
            };
            stored.insert(n.value(r) as usize, entry);
        }
    }
    for (n, alpha) in distributions(dir, "alice") {
        stored.get_mut(&n).expect("values row").alpha = alpha;
    }
    for name in ["bob", "face_mixture"] {
        // A run of an older version has no face_mixture.
        if name == "face_mixture" && !dir.join("higher_lower").join(name).exists() {
            continue;
        }
        for batch in table(dir, name) {
            let (n, w) = (column::<UInt32Array>(&batch, "n"), column::<StringArray>(&batch, "weight"));
            let depths = column::<ListArray>(&batch, "depths");
            for r in 0..batch.num_rows() {
                let list = depths.value(r);
                let d = list.as_any().downcast_ref::<UInt8Array>().expect("u8 depths");
                let tree = Tree::from_depths(d.values().to_vec()).expect("a tree");
                let entry = stored.get_mut(&(n.value(r) as usize)).expect("values row");
                let mixture =
                    if name == "bob" { &mut entry.bob } else { entry.wider.get_or_insert_with(Mixture::default) };
                mixture.push(tree, parse(w.value(r)));
            }
        }
    }
    for (n, proof) in distributions(dir, "height_proofs") {
        stored.get_mut(&n).expect("values row").height_proof = Some(proof);
    }
    // Checkpoints hold it; an output directory built from them (one part per step) may too.
    if dir.join("higher_lower").join("warm_start").exists() {
        for batch in table(dir, "warm_start") {
            let n = column::<UInt32Array>(&batch, "n").value(0) as usize;
            let pool = column::<ListArray>(&batch, "pool").value(0);
            let pool = pool.as_any().downcast_ref::<ListArray>().expect("lists of depths");
            let trees = (0..pool.len()).map(|k| {
                let depths = pool.value(k);
                let depths = depths.as_any().downcast_ref::<UInt8Array>().expect("u8 depths");
                Tree::from_depths(depths.values().to_vec()).expect("a tree")
            });
            stored.get_mut(&n).expect("values row").priced = trees.collect();
        }
    }
    stored
}

/// Each N's distribution over the keys from a table of rows (n, i, prob): Alice's
/// strategies (`alice`) or the height-limited game's (`height_proofs`).
fn distributions(dir: &Path, name: &str) -> BTreeMap<usize, Vec<Rational>> {
    let mut rows: BTreeMap<usize, Vec<(u32, Rational)>> = BTreeMap::new();
    for batch in table(dir, name) {
        let (n, i, p) = (
            column::<UInt32Array>(&batch, "n"),
            column::<UInt32Array>(&batch, "i"),
            column::<StringArray>(&batch, "prob"),
        );
        for r in 0..batch.num_rows() {
            rows.entry(n.value(r) as usize).or_default().push((i.value(r), parse_pq(p.value(r)).expect("p/q")));
        }
    }
    rows.into_iter()
        .map(|(n, mut keyed)| {
            keyed.sort_by_key(|(i, _)| *i);
            (n, keyed.into_iter().map(|(_, p)| p).collect())
        })
        .collect()
}
