//! What one Nim task computes: its parameters.

#[derive(Debug, Clone, PartialEq)]
pub enum NimTask {
    Exhaustive { heaps: usize, max_heap: u64 },
    Random { heaps: usize, bits: u32, seed: u64, first: u64, last: u64 },
    Halving { positions: Vec<Vec<u64>> },
}
