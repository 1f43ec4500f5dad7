//! The hard N of higher-lower, just below powers of two: warm chains solved
//! as a sweep solves them (the first N cold, each next one warm from the
//! previous), by the master before working sets on one thread ("old") and
//! with the working set on one and on two threads ("new"), with loosely
//! solved early masters as well, with points toward the averaged duals
//! priced as well, with sketched steepest edges, and with the duals of warm
//! solves boxed around the centre (each on one and two threads),
//! side by side in one run: seconds (median of the runs), pricing rounds,
//! simplex pivots and the ratio to "old". All use the cache-friendly Knuth DP.
//!
//!   cargo bench --bench higher_lower_hard                       # chains 249..256 and 505..512
//!   HL_HARD_CHAINS=505-512,1009-1016 HL_HARD_RUNS=1 cargo bench --bench higher_lower_hard
//!   HL_HARD_VARIANTS=5,6 cargo bench --bench higher_lower_hard  # only these (1-based); the first is the base
//!
//! With HL_HARD_STAGES=1 each chain is solved once as a sweep solves it (2
//! threads) and each N then goes through the exact and face stages twice:
//! "old" from Bob's vertex mixture (`exact_vertex`, the face's hull from it),
//! "new" as the sweep does now (`exact_stage` with the wider mixture). Per N
//! and in all: CPU-bound seconds of solve, exact and face, the hull's
//! dimension, and that the verdicts agree.
//!
//!   HL_HARD_STAGES=1 HL_HARD_CHAINS=961-968 cargo bench --bench higher_lower_hard

mod common;
use common::human;
use gamesweep::games::higher_lower::claims::builtin;
use gamesweep::games::higher_lower::exact_stage::{exact_stage, exact_vertex};
use gamesweep::games::higher_lower::face::face_stage;
use gamesweep::games::higher_lower::height_limit::HeightHints;
use gamesweep::games::higher_lower::solve::{FloatSolution, Method, SolveOptions, SpeedUp, solve};
use std::time::Instant;

/// One way of solving a chain: the speed-ups it uses, on how many threads.
struct Variant {
    name: &'static str,
    speed_ups: &'static [SpeedUp],
    threads: usize,
}

const VARIANTS: [Variant; 11] = [
    Variant { name: "old: whole pool priced, 1 thread", speed_ups: &[], threads: 1 },
    Variant { name: "new: working set, 1 thread", speed_ups: &[SpeedUp::WorkingSet], threads: 1 },
    Variant { name: "new: working set, 2 threads", speed_ups: &[SpeedUp::WorkingSet], threads: 2 },
    Variant {
        name: "new: + loose masters, 2 threads",
        speed_ups: &[SpeedUp::WorkingSet, SpeedUp::LooseMaster],
        threads: 2,
    },
    Variant {
        name: "new: + loose masters, 1 thread",
        speed_ups: &[SpeedUp::WorkingSet, SpeedUp::LooseMaster],
        threads: 1,
    },
    Variant {
        name: "new: + averaged duals, 1 thread",
        speed_ups: &[SpeedUp::WorkingSet, SpeedUp::LooseMaster, SpeedUp::AveragedDuals],
        threads: 1,
    },
    Variant {
        name: "new: + averaged duals, 2 threads",
        speed_ups: &[SpeedUp::WorkingSet, SpeedUp::LooseMaster, SpeedUp::AveragedDuals],
        threads: 2,
    },
    Variant {
        name: "new: + sketched edges, 1 thread",
        speed_ups: &[SpeedUp::WorkingSet, SpeedUp::LooseMaster, SpeedUp::AveragedDuals, SpeedUp::SketchedEdges],
        threads: 1,
    },
    Variant {
        name: "new: + sketched edges, 2 threads",
        speed_ups: &[SpeedUp::WorkingSet, SpeedUp::LooseMaster, SpeedUp::AveragedDuals, SpeedUp::SketchedEdges],
        threads: 2,
    },
    Variant {
        name: "new: + boxed duals, 1 thread",
        speed_ups: &[
            SpeedUp::WorkingSet,
            SpeedUp::LooseMaster,
            SpeedUp::AveragedDuals,
            SpeedUp::SketchedEdges,
            SpeedUp::BoxedDuals,
        ],
        threads: 1,
    },
    Variant {
        name: "new: + boxed duals, 2 threads",
        speed_ups: &[
            SpeedUp::WorkingSet,
            SpeedUp::LooseMaster,
            SpeedUp::AveragedDuals,
            SpeedUp::SketchedEdges,
            SpeedUp::BoxedDuals,
        ],
        threads: 2,
    },
];

/// (seconds, rounds, pivots) of one chain, solved in a pool of `threads`.
fn chain(first: usize, last: usize, variant: &Variant) -> (f64, u64, u64) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(variant.threads).build().expect("a thread pool");
    let options = SolveOptions::with_speed_ups(Method::Auto, 1e-10, 10_000_000, variant.speed_ups);
    pool.install(|| {
        let start = Instant::now();
        let (mut rounds, mut pivots) = (0, 0);
        let mut previous: Option<FloatSolution> = None;
        for n in first..=last {
            let solution = solve(n, &options, previous.as_ref());
            rounds += u64::from(solution.rounds);
            pivots += solution.iterations;
            previous = Some(solution);
        }
        (start.elapsed().as_secs_f64(), rounds, pivots)
    })
}

/// The exact and face stages' seconds of one N, old and new, with the hull
/// dimensions; "new" tries N - 1's height-limited alpha (`previous`) first
/// and returns its own.
type Stages = ([(f64, f64, usize); 2], Option<Vec<gamesweep::exact::Rational>>);

fn stages(float: &FloatSolution, previous: Option<&[gamesweep::exact::Rational]>) -> Stages {
    let tallest = |bob: &[(gamesweep::games::higher_lower::tree::Tree, gamesweep::exact::Rational)]| {
        bob.iter().map(|(t, _)| t.height()).max().unwrap_or(0)
    };
    let clock = Instant::now();
    let old = exact_vertex(float).expect("the exact stage");
    let old_exact = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let old_face =
        face_stage(&old.value, &old.alpha, &old.bob, None, tallest(&old.bob), builtin(), HeightHints::default())
            .expect("the face stage");
    let old_seconds = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let mut new = exact_stage(float).expect("the exact stage");
    let new_exact = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let face_hull = new.face_hull.take();
    let hull = new.face_mixture.as_ref().unwrap_or(&new.bob);
    let new_face = face_stage(
        &new.value,
        &new.alpha,
        hull,
        face_hull,
        tallest(&new.bob),
        builtin(),
        HeightHints { previous, priced: &float.pool },
    )
    .expect("the face");
    let new_seconds = clock.elapsed().as_secs_f64();
    let verdicts = |face: &gamesweep::games::higher_lower::face::FaceOutcome| {
        face.decided.iter().map(|d| d.verdict).collect::<Vec<_>>()
    };
    assert_eq!(verdicts(&old_face), verdicts(&new_face), "N = {}: the verdicts differ", float.n);
    assert_eq!(old_face.bob_tallest_at_least, new_face.bob_tallest_at_least, "N = {}", float.n);
    (
        [(old_exact, old_seconds, old_face.dimension), (new_exact, new_seconds, new_face.dimension)],
        new_face.height_proof,
    )
}

/// The chain's solve, then the exact and face stages old and new per N.
fn stage_chain(first: usize, last: usize) {
    let options = SolveOptions::new(Method::Auto, 1e-10, 10_000_000);
    let mut previous: Option<FloatSolution> = None;
    let mut height_proof: Option<Vec<gamesweep::exact::Rational>> = None;
    let (mut solve_total, mut old_total, mut new_total) = (0.0, [0.0; 2], [0.0; 2]);
    for n in first..=last {
        let float = solve(n, &options, previous.as_ref());
        let ([(oe, of, od), (ne, nf, nd)], proof) = stages(&float, height_proof.as_deref());
        height_proof = proof;
        println!(
            "  N = {n}: solve {:>7.1} s | old: exact {oe:>6.1} s, face {of:>7.1} s (d = {od:>2}) | new: exact {ne:>6.1} s, face {nf:>6.1} s (d = {nd:>2})",
            float.seconds
        );
        solve_total += float.seconds;
        old_total = [old_total[0] + oe, old_total[1] + of];
        new_total = [new_total[0] + ne, new_total[1] + nf];
        previous = Some(float);
    }
    let (old, new) = (solve_total + old_total[0] + old_total[1], solve_total + new_total[0] + new_total[1]);
    println!(
        "  all: solve {solve_total:.1} s; old exact {:.1} s + face {:.1} s = {old:.1} s; new exact {:.1} s + face {:.1} s = {new:.1} s; x{:.2} (face x{:.1})",
        old_total[0],
        old_total[1],
        new_total[0],
        new_total[1],
        old / new,
        (old_total[0] + old_total[1]) / (new_total[0] + new_total[1]).max(1e-9)
    );
}

fn main() {
    let chains: Vec<(usize, usize)> = std::env::var("HL_HARD_CHAINS")
        .unwrap_or_else(|_| "249-256,505-512".into())
        .split(',')
        .map(|c| {
            let (a, b) = c.trim().split_once('-').expect("FIRST-LAST");
            (a.parse().expect("N"), b.parse().expect("N"))
        })
        .collect();
    let runs: Option<usize> = std::env::var("HL_HARD_RUNS").ok().map(|r| r.parse().expect("a count"));
    let chosen: Vec<&Variant> = match std::env::var("HL_HARD_VARIANTS") {
        Ok(list) => {
            list.split(',').map(|i| &VARIANTS[i.trim().parse::<usize>().expect("a variant number") - 1]).collect()
        }
        Err(_) => VARIANTS.iter().collect(),
    };
    if std::env::var("HL_HARD_STAGES").is_ok() {
        for (first, last) in chains {
            println!("chain N = {first}..{last} (first N cold), solve + exact + face stages, old and new:");
            stage_chain(first, last);
        }
        return;
    }
    for (first, last) in chains {
        println!("chain N = {first}..{last} (first N cold):");
        let mut old_seconds = None;
        for variant in &chosen {
            // Three runs for a median, one for chains over a minute (or HL_HARD_RUNS).
            let mut results = vec![chain(first, last, variant)];
            let wanted = runs.unwrap_or(if results[0].0 > 60.0 { 1 } else { 3 });
            results.extend((1..wanted).map(|_| chain(first, last, variant)));
            results.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (seconds, rounds, pivots) = results[results.len() / 2];
            let base = *old_seconds.get_or_insert(seconds);
            println!(
                "  {:<36} {:>10}  x{:<5.2} rounds {rounds:>6}  pivots {pivots:>9}  (median of {})",
                variant.name,
                human(seconds),
                base / seconds,
                results.len()
            );
        }
    }
}
