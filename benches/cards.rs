//! Cards benchmarks: the optimal play against greedy (moves in O(N) memory)
//! at N = 10^4 and 10^5 with its peak heap use, against the one-pass score
//! and the minimax DP; and the report's content-based cache on a row of
//! repeats against a random row. Run: `cargo bench --bench cards`.

mod common;
use common::{compare, median_seconds};
use gamesweep::games::cards::card_rows::Distribution;
use gamesweep::games::cards::optimal::{best_against_greedy, best_score_backward, best_score_cached, minimax};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts live heap bytes and their peak.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak heap bytes above the current level while `f` runs.
fn peak_bytes<T>(f: impl FnOnce() -> T) -> usize {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    std::hint::black_box(f());
    PEAK.load(Ordering::Relaxed) - base
}

fn main() {
    let uniform: Distribution = "uniform-1-1000".parse().expect("a distribution");
    for n in [10_000usize, 100_000] {
        let row = uniform.row(1, n, 0);
        let runs = if n > 20_000 { 3 } else { 7 };
        let mut rows = vec![
            ("optimal with moves (Hirschberg levels)", median_seconds(runs, || best_against_greedy(&row, 0, n))),
            ("optimal score only (one backward pass)", median_seconds(runs, || best_score_backward(&row, 0, n))),
        ];
        if n <= 20_000 {
            rows.push(("minimax value (optimal opponent)", median_seconds(runs, || minimax(&row))));
        }
        compare(&format!("N = {n}, values uniform 1..1000"), &rows);
        let peak = peak_bytes(|| best_against_greedy(&row, 0, n));
        println!(
            "  peak heap of the optimal play with moves: {} bytes ({:.1} bytes per card)\n",
            peak,
            peak as f64 / n as f64
        );
    }
    let periodic: Vec<u32> = (0..2000).map(|i| 2 + i % 2).collect();
    let random = uniform.row(2, 2000, 0);
    for (name, row) in [("2 3 2 3 ... (N = 2000)", &periodic), ("random 1..1000 (N = 2000)", &random)] {
        compare(
            &format!("content-based cache, {name}"),
            &[
                ("levels (one backward pass)", median_seconds(5, || best_score_backward(row, 0, row.len()))),
                ("content cache (rolling hashes)", median_seconds(5, || best_score_cached(row, 0, row.len()))),
            ],
        );
    }
}
