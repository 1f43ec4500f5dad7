//! Multisets of dice: the order of dice never matters in Fritzen, so a set of
//! dice is its six face counts. A multiset of at most six dice has a code
//! sum_f count_f * 7^(f-1) < 7^6 that is additive (the code of A + C is
//! code(A) + code(C)), so successor states are found by one addition and a
//! table lookup.

use std::fmt;

/// Faces of a die.
pub const FACES: usize = 6;
/// Dice in a turn.
pub const DICE: usize = 6;
/// 7^6: codes are below this.
pub const CODES: usize = 117_649;

/// A multiset of at most six dice, as counts of the faces 1..=6.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Dice([u8; FACES]);

impl Dice {
    pub const EMPTY: Dice = Dice([0; FACES]);

    /// The multiset of the given faces (each 1..=6, at most six of them).
    pub fn from_faces(faces: &[u8]) -> Result<Dice, String> {
        if faces.len() > DICE {
            return Err(format!("{} dice given, at most {DICE} allowed", faces.len()));
        }
        let mut counts = [0u8; FACES];
        for &face in faces {
            if !(1..=6).contains(&face) {
                return Err(format!("a die shows {face}, allowed 1 to 6"));
            }
            counts[usize::from(face - 1)] += 1;
        }
        Ok(Dice(counts))
    }

    pub fn from_counts(counts: [u8; FACES]) -> Dice {
        debug_assert!(counts.iter().map(|&c| usize::from(c)).sum::<usize>() <= DICE);
        Dice(counts)
    }

    pub fn counts(&self) -> [u8; FACES] {
        self.0
    }

    /// How many dice show `face` (1..=6).
    pub fn count(&self, face: u8) -> u8 {
        self.0[usize::from(face - 1)]
    }

    /// Number of dice.
    pub fn len(&self) -> usize {
        self.0.iter().map(|&c| usize::from(c)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Total pips.
    pub fn pips(&self) -> u32 {
        self.0.iter().enumerate().map(|(f, &c)| (f as u32 + 1) * u32::from(c)).sum()
    }

    /// Whether no face occurs twice (the dice aside during a street).
    pub fn is_set(&self) -> bool {
        self.0.iter().all(|&c| c <= 1)
    }

    /// The faces in ascending order.
    pub fn faces(&self) -> Vec<u8> {
        (1..=FACES as u8).flat_map(|f| std::iter::repeat_n(f, usize::from(self.count(f)))).collect()
    }

    /// The additive code sum_f count_f * 7^(f-1).
    pub fn code(&self) -> usize {
        self.0.iter().rev().fold(0, |code, &c| code * 7 + usize::from(c))
    }

    /// The union of two multisets (at most six dice in all).
    pub fn plus(&self, other: &Dice) -> Dice {
        let mut counts = self.0;
        for (c, o) in counts.iter_mut().zip(other.0) {
            *c += o;
        }
        Dice::from_counts(counts)
    }

    /// Whether `self` is contained in `other`.
    pub fn is_within(&self, other: &Dice) -> bool {
        self.0.iter().zip(other.0).all(|(a, b)| *a <= b)
    }

    /// `self` minus a sub-multiset.
    pub fn minus(&self, part: &Dice) -> Dice {
        debug_assert!(part.is_within(self));
        let mut counts = self.0;
        for (c, p) in counts.iter_mut().zip(part.0) {
            *c -= p;
        }
        Dice(counts)
    }

    /// The non-empty sub-multisets (the ways to set dice aside from a throw).
    pub fn non_empty_parts(&self) -> Vec<Dice> {
        let mut parts = vec![Dice::EMPTY];
        for f in 0..FACES {
            let mut next = Vec::with_capacity(parts.len() * (usize::from(self.0[f]) + 1));
            for part in &parts {
                for k in 0..=self.0[f] {
                    let mut counts = part.0;
                    counts[f] = k;
                    next.push(Dice(counts));
                }
            }
            parts = next;
        }
        parts.retain(|p| !p.is_empty());
        parts
    }

    /// The faces shown by the throw that are not in `aside`, each once: what a
    /// street may still set aside.
    pub fn new_faces(&self, aside: &Dice) -> Dice {
        Dice(std::array::from_fn(|f| u8::from(self.0[f] > 0 && aside.0[f] == 0)))
    }

    /// The number of ordered outcomes of throwing `len()` dice that show this
    /// multiset: the multinomial coefficient len! / prod count_f!.
    pub fn outcomes(&self) -> u32 {
        let factorial = |k: usize| (1..=k as u32).product::<u32>();
        factorial(self.len()) / self.0.iter().map(|&c| factorial(usize::from(c))).product::<u32>()
    }

    /// Every multiset of exactly `k` dice, in ascending order of faces.
    pub fn all_of_size(k: usize) -> Vec<Dice> {
        let mut out = Vec::new();
        let mut counts = [0u8; FACES];
        fill(&mut counts, 0, k as u8, &mut out);
        out
    }
}

/// Distributes `left` dice over faces `face..` in every way.
fn fill(counts: &mut [u8; FACES], face: usize, left: u8, out: &mut Vec<Dice>) {
    if face == FACES - 1 {
        counts[face] = left;
        out.push(Dice(*counts));
        return;
    }
    for k in (0..=left).rev() {
        counts[face] = k;
        fill(counts, face + 1, left - k, out);
    }
    counts[face] = 0;
}

impl fmt::Debug for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Faces joined by commas, "-" for no dice.
impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return write!(f, "-");
        }
        let faces: Vec<String> = self.faces().iter().map(u8::to_string).collect();
        write!(f, "{}", faces.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_multisets() {
        // C(k + 5, 5) multisets of k dice; 462 first throws.
        let sizes: Vec<usize> = (0..=6).map(|k| Dice::all_of_size(k).len()).collect();
        assert_eq!(sizes, vec![1, 6, 21, 56, 126, 252, 462]);
        for k in 0..=6 {
            let total: u32 = Dice::all_of_size(k).iter().map(Dice::outcomes).sum();
            assert_eq!(total, 6u32.pow(k as u32), "the outcomes of {k} dice add up to 6^{k}");
        }
    }

    #[test]
    fn codes_are_additive_and_distinct() {
        let all: Vec<Dice> = (0..=6).flat_map(Dice::all_of_size).collect();
        let mut codes: Vec<usize> = all.iter().map(Dice::code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len());
        assert!(codes.iter().all(|&c| c < CODES));
        let a = Dice::from_faces(&[2, 4]).unwrap();
        let c = Dice::from_faces(&[4, 4, 6]).unwrap();
        assert_eq!(a.plus(&c).code(), a.code() + c.code());
        assert_eq!(a.plus(&c).minus(&c), a);
    }

    #[test]
    fn parts_of_a_throw() {
        let throw = Dice::from_faces(&[3, 4, 4]).unwrap();
        let parts = throw.non_empty_parts();
        assert_eq!(parts.len(), 2 * 3 - 1);
        assert!(parts.iter().all(|p| p.is_within(&throw) && !p.is_empty()));
        let aside = Dice::from_faces(&[2, 4]).unwrap();
        assert_eq!(throw.new_faces(&aside), Dice::from_faces(&[3]).unwrap());
        assert_eq!(Dice::from_faces(&[1, 2, 3, 4, 5, 6]).unwrap().non_empty_parts().len(), 63);
    }

    #[test]
    fn rejects_bad_dice() {
        assert!(Dice::from_faces(&[7]).unwrap_err().contains("allowed 1 to 6"));
        assert!(Dice::from_faces(&[0]).is_err());
        assert!(Dice::from_faces(&[1; 7]).unwrap_err().contains("at most 6"));
        assert_eq!(Dice::from_faces(&[5, 1, 3]).unwrap().to_string(), "1,3,5");
        assert_eq!(Dice::from_faces(&[6, 6, 6, 6, 6, 6]).unwrap().pips(), 36);
    }
}
