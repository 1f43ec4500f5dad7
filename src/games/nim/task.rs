//! What one Nim task computes: its parameters.

/// One Nim task; each variant is one independent computation.
#[derive(Debug, Clone, PartialEq)]
pub enum NimTask {
    /// Every position of up to `heaps` heaps of at most `max_heap` coins, against exhaustive search.
    Exhaustive { heaps: usize, max_heap: u64 },
    /// Seeded random positions `first..=last` with heaps below 2^bits: the three rules against XOR.
    Random { heaps: usize, bits: u32, seed: u64, first: u64, last: u64 },
    /// Phi's halving tables of the given positions, written in full.
    Halving { positions: Vec<Vec<u64>> },
}
