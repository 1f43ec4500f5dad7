//! The reference: Nim solved by exhaustive, memoised game search over
//! positions (heaps sorted, so permutations share one entry).

use std::collections::HashMap;

/// Memoised win/loss of Nim positions for the player to move.
#[derive(Default)]
pub struct Search {
    memo: HashMap<Vec<u64>, bool>,
}

impl Search {
    /// Whether the player to move wins `heaps` (normal play).
    pub fn wins(&mut self, heaps: &[u64]) -> bool {
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if key.is_empty() {
            return false;
        }
        if let Some(&w) = self.memo.get(&key) {
            return w;
        }
        let mut win = false;
        'search: for i in 0..key.len() {
            if i > 0 && key[i] == key[i - 1] {
                continue;
            }
            for leave in 0..key[i] {
                let mut next = key.clone();
                next[i] = leave;
                if !self.wins(&next) {
                    win = true;
                    break 'search;
                }
            }
        }
        self.memo.insert(key, win);
        win
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_positions() {
        let mut s = Search::default();
        assert!(!s.wins(&[]));
        assert!(s.wins(&[3]));
        assert!(!s.wins(&[2, 2]));
        assert!(!s.wins(&[1, 2, 3]));
        assert!(s.wins(&[3, 4, 5]));
        assert!(!s.wins(&[6, 5, 3]));
    }
}
