//! The master's columns with their trees, one tree per distinct symmetric
//! column: distinct trees can share a column (a tree and its mirror always
//! do), and twin columns let the master swap them for ever on reduced costs
//! of rounding noise.

use super::restricted_master::RestrictedMaster;
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;
use std::collections::HashSet;

#[derive(Default)]
pub struct DistinctColumns {
    /// The tree of master column c.
    pub trees: Vec<Tree>,
    seen: HashSet<Vec<u16>>,
}

impl DistinctColumns {
    /// Adds the tree's column to the master unless an equal column is there;
    /// whether it was added.
    pub fn add(&mut self, game: &SymmetricGame, master: &mut RestrictedMaster, tree: Tree) -> bool {
        let column = game.column(&tree);
        if self.seen.contains(&column) {
            return false;
        }
        master.add_column(&game.float_column(&tree));
        self.seen.insert(column);
        self.trees.push(tree.canonical());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_master_gets_one_column_per_distinct_symmetric_column() {
        let n = 7;
        let game = SymmetricGame::new(n);
        let trees = crate::games::higher_lower::tree::all_trees(n);
        let mut master = RestrictedMaster::new(game.rows(), &[]);
        let mut columns = DistinctColumns::default();
        for tree in &trees {
            columns.add(&game, &mut master, tree.clone());
        }
        let distinct: HashSet<Vec<u16>> = trees.iter().map(|t| game.column(t)).collect();
        // Twins that are not mirror images exist at N = 7, so this is more than mirror pairs.
        assert!(distinct.len() < trees.iter().filter(|t| **t <= t.mirror()).count());
        assert_eq!(columns.trees.len(), distinct.len());
        // With every column in, the master solves the whole game: V(7) = 23/9.
        assert!((1.0 / (2.0 * master.solve().objective) - 23.0 / 9.0).abs() < 1e-12);
    }
}
