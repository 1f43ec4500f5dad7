//! Each conjecture decided over all of Alice's optimal strategies, with its
//! proof: a conjecture is a set of inequalities g_i . alpha >= 0 (or > 0),
//! and over the optimal face (`face`) it
//!
//! - holds for every optimal alpha when each g_i's minimum over the face is
//!   >= 0 (> 0): one proven lower bound per inequality;
//! - fails for every optimal alpha when the largest smallest slack, max over
//!   the face of min_i g_i . alpha, is < 0 (<= 0): one proven bound on a
//!   convex combination of the g_i;
//! - depends on the optimal alpha otherwise: two exact optimal alphas as
//!   witnesses, one on which it holds and one on which it fails.
//!
//! The computed alpha* decides which side needs the work: if it satisfies
//! the conjecture, only "holds for every" can be proven (else a minimising
//! point is the failing witness); if not, only "fails for every".

use super::polytope::{AliceFace, LowerBound};
use crate::exact::Rational;
use crate::games::higher_lower::conjectures::{self, Inequality, NAMES};
use std::collections::BTreeMap;

/// `verdict` of a conjecture row where it applies.
pub const HOLDS_FOR_EVERY: &str = "holds for every optimal alpha";
pub const FAILS_FOR_EVERY: &str = "fails for every optimal alpha";
pub const DEPENDS: &str = "depends on the optimal alpha";
/// `verdict` where the conjecture claims nothing at this N.
pub const NOT_APPLICABLE: &str = "not applicable";
/// `verdict` where a face LP failed (the reason is in the conjecture row's
/// detail); a failure of this analysis never fails the N's task.
pub const UNDECIDED: &str = "undecided";

/// Above this many inequalities, each is bounded from the face's box (2d
/// LPs) before an LP of its own: at N = 105..120, 0.38 s of face LPs with
/// one LP per inequality (the alpha1_largest family costs N - 2).
const BOX_FROM: usize = 2;

/// Why a verdict holds.
#[derive(Debug, Clone)]
pub enum Proof {
    /// sign * (sum_i w_i g_i) . alpha >= lower.bound for every optimal alpha
    /// (sign +1 with one weight 1: a lower bound on one inequality; sign -1:
    /// the bound that makes the conjecture fail everywhere).
    Bound { sign: i8, weights: Vec<(usize, Rational)>, lower: LowerBound },
    /// An optimal alpha on which the conjecture holds (or fails); `None`: the computed alpha*.
    Witness { holds: bool, alpha: Option<Vec<Rational>> },
    /// sign * alpha_key >= lower.bound for every optimal alpha: one side of
    /// the face's box (`AliceFace::box_bounds`), from which an inequality
    /// without a bound of its own is bounded (`AliceFace::box_bound`).
    Box { key: usize, sign: i8, lower: LowerBound },
}

/// Weights w_i on a conjecture's inequalities (by index).
type Weights = Vec<(usize, Rational)>;

/// One conjecture at one N, decided over every optimal alpha.
#[derive(Debug, Clone)]
pub struct Decided {
    pub name: &'static str,
    pub verdict: &'static str,
    pub proofs: Vec<Proof>,
    /// Why it is `UNDECIDED`.
    pub why: Option<String>,
}

/// Every conjecture of `NAMES` at the face's N.
pub fn decide_all(face: &AliceFace) -> Result<Vec<Decided>, String> {
    let n = face.alpha().len();
    NAMES
        .iter()
        .map(|&name| match conjectures::inequalities(name, n) {
            Some(inequalities) if conjectures::applies(name, n) => decide(face, name, &inequalities)
                .or_else(|why| Ok(Decided { name, verdict: UNDECIDED, proofs: Vec::new(), why: Some(why) })),
            _ => Ok(Decided { name, verdict: NOT_APPLICABLE, proofs: Vec::new(), why: None }),
        })
        .collect()
}

fn decide(face: &AliceFace, name: &'static str, inequalities: &[conjectures::Inequality]) -> Result<Decided, String> {
    let computed_holds = inequalities.iter().all(|i| i.holds(face.alpha()));
    let decided = |verdict, proofs| Ok(Decided { name, verdict, proofs, why: None });
    if face.dimension() == 0 {
        return decided(if computed_holds { HOLDS_FOR_EVERY } else { FAILS_FOR_EVERY }, Vec::new());
    }
    let g: Vec<Vec<Rational>> = inequalities.iter().map(|i| i.g.iter().map(|&c| Rational::from(c)).collect()).collect();
    let satisfied = |value: &Rational, strict: bool| if strict { *value > 0u32 } else { *value >= 0u32 };
    let why = |e: String| format!("{name}: {e}");
    if computed_holds {
        let mut proofs = Vec::with_capacity(inequalities.len());
        // Many inequalities (Johnson's (3) has N - 2): bound each from the face's box first.
        let bounds = if inequalities.len() > BOX_FROM { Some(face.box_bounds().map_err(why)?) } else { None };
        if let Some(bounds) = &bounds {
            for (&key, [lower, upper]) in face.free_keys().iter().zip(bounds) {
                proofs.push(Proof::Box { key, sign: 1, lower: lower.clone() });
                proofs.push(Proof::Box { key, sign: -1, lower: upper.clone() });
            }
        }
        for (i, (gi, inequality)) in g.iter().zip(inequalities).enumerate() {
            if bounds.as_ref().is_some_and(|b| satisfied(&face.box_bound(gi, b), inequality.strict)) {
                continue;
            }
            // The bound alone first; its exact point only when the bound does not settle it.
            let mut minimum = face.minimize(gi, false).map_err(why)?;
            if !satisfied(&minimum.lower.bound, inequality.strict) {
                minimum = face.minimize(gi, true).map_err(why)?;
            }
            match minimum.point {
                Some(point) if !satisfied(&minimum.lower.bound, inequality.strict) => {
                    let witnesses = vec![
                        Proof::Witness { holds: true, alpha: None },
                        Proof::Witness { holds: false, alpha: Some(point) },
                    ];
                    return decided(DEPENDS, witnesses);
                }
                _ => proofs.push(Proof::Bound { sign: 1, weights: vec![(i, Rational::from(1))], lower: minimum.lower }),
            }
        }
        decided(HOLDS_FOR_EVERY, proofs)
    } else {
        let strict = inequalities.iter().any(|i| i.strict);
        let mut solved = face.maximize_smallest(&g, false).map_err(why)?;
        if satisfied(&solved.0, strict) {
            solved = face.maximize_smallest(&g, true).map_err(why)?;
        }
        match solved {
            (smallest, Some(point), _) if satisfied(&smallest, strict) => {
                let witnesses = vec![
                    Proof::Witness { holds: true, alpha: Some(point) },
                    Proof::Witness { holds: false, alpha: None },
                ];
                decided(DEPENDS, witnesses)
            }
            (_, _, proof) => {
                decided(FAILS_FOR_EVERY, vec![Proof::Bound { sign: -1, weights: proof.weights, lower: proof.lower }])
            }
        }
    }
}

/// The functional sign * sum_i w_i g_i over the keys.
pub fn combined(inequalities: &[Inequality], sign: i8, weights: &[(usize, Rational)]) -> Option<Vec<Rational>> {
    let n = inequalities.first()?.g.len();
    let mut h = vec![Rational::from(0); n];
    for (i, w) in weights {
        let inequality = inequalities.get(*i)?;
        for (hk, &gk) in h.iter_mut().zip(&inequality.g) {
            if gk != 0 {
                *hk += w * Rational::from(gk * i64::from(sign));
            }
        }
    }
    Some(h)
}

/// Checks that `proofs` prove `verdict` for conjecture `name` on the face,
/// exactly and from nothing else (the stored proofs, re-checked by `verify`).
pub fn check(face: &AliceFace, name: &str, verdict: &str, proofs: &[Proof]) -> Result<(), String> {
    let n = face.alpha().len();
    let inequalities = match conjectures::inequalities(name, n) {
        Some(inequalities) if conjectures::applies(name, n) => inequalities,
        _ if verdict == NOT_APPLICABLE && proofs.is_empty() => return Ok(()),
        _ => return Err(format!("{name} does not apply at N = {n}, yet its verdict is {verdict:?}")),
    };
    let holds = |alpha: &[Rational]| inequalities.iter().all(|i| i.holds(alpha));
    let strict = inequalities.iter().any(|i| i.strict);
    if verdict == UNDECIDED && proofs.is_empty() {
        return Ok(()); // claims nothing
    }
    if face.dimension() == 0 {
        let expected = if holds(face.alpha()) { HOLDS_FOR_EVERY } else { FAILS_FOR_EVERY };
        return if verdict == expected && proofs.is_empty() {
            Ok(())
        } else {
            Err(format!("{name}: alpha is unique and decides {expected:?}, not {verdict:?}"))
        };
    }
    let whole_box = checked_box(face, name, proofs)?;
    check_bounds(face, name, &inequalities, proofs)?;
    let bounds: Vec<(i8, &Weights, &Rational)> = proofs
        .iter()
        .filter_map(|p| match p {
            Proof::Bound { sign, weights, lower } => Some((*sign, weights, &lower.bound)),
            _ => None,
        })
        .collect();
    let witnesses = proofs.iter().filter(|p| matches!(p, Proof::Witness { .. })).count();
    let satisfied = |value: &Rational| if strict { *value > 0u32 } else { *value >= 0u32 };
    match verdict {
        HOLDS_FOR_EVERY => {
            // Inequality i bounded below by a value that satisfies it, for every i: by a
            // bound of its own or from the box.
            let proven = |i: usize| {
                let own = bounds.iter().any(|(sign, w, bound)| {
                    *sign == 1 && w.len() == 1 && w[0].0 == i && w[0].1 == 1u32 && satisfied(bound)
                });
                let g: Vec<Rational> = inequalities[i].g.iter().map(|&c| Rational::from(c)).collect();
                own || whole_box.as_ref().is_some_and(|b| satisfied(&face.box_bound(&g, b)))
            };
            match (0..inequalities.len()).find(|&i| !proven(i)) {
                Some(i) => Err(format!("{name}: no proof that inequality {i} holds on every optimal alpha")),
                None if witnesses == 0 => Ok(()),
                None => Err(format!("{name}: witnesses beside a verdict for every alpha")),
            }
        }
        FAILS_FOR_EVERY => {
            // -(sum w_i g_i) >= bound with bound > 0 (>= 0 when strict): some g_i fails everywhere.
            let fails = |bound: &Rational| if strict { *bound >= 0u32 } else { *bound > 0u32 };
            if proofs.len() == 1 && bounds.iter().any(|(sign, _, bound)| *sign == -1 && fails(bound)) {
                Ok(())
            } else {
                Err(format!("{name}: no proof that it fails on every optimal alpha"))
            }
        }
        DEPENDS => check_witnesses(face, name, &holds, proofs),
        other => Err(format!("{name}: unknown verdict {other:?}")),
    }
}

/// Each box proof: the bound its multipliers prove for +-alpha_key, as
/// claimed. The box counts only when both sides of every direction's own key
/// are there: then it is returned, one [lower, upper side] per free key.
fn checked_box(face: &AliceFace, name: &str, proofs: &[Proof]) -> Result<Option<Vec<[LowerBound; 2]>>, String> {
    let n = face.alpha().len();
    let mut sides: BTreeMap<(usize, i8), &LowerBound> = BTreeMap::new();
    for proof in proofs {
        if let Proof::Box { key, sign, lower } = proof {
            let mut h = vec![Rational::from(0); n];
            *h.get_mut(*key).ok_or(format!("{name}: a box on key {key} of {n}"))? = Rational::from(*sign);
            let proven = face.check_bound(&h, &lower.multipliers).map_err(|e| format!("{name}: {e}"))?;
            if proven != lower.bound || sides.insert((*key, *sign), lower).is_some() {
                return Err(format!("{name}: a box side claimed {}, its multipliers prove {proven}", lower.bound));
            }
        }
    }
    Ok(face
        .free_keys()
        .iter()
        .map(|&k| Some([(*sides.get(&(k, 1))?).clone(), (*sides.get(&(k, -1))?).clone()]))
        .collect())
}

/// Each bound proof: the bound its multipliers prove for its functional, as claimed.
fn check_bounds(face: &AliceFace, name: &str, inequalities: &[Inequality], proofs: &[Proof]) -> Result<(), String> {
    for proof in proofs {
        if let Proof::Bound { sign, weights, lower } = proof {
            if weights.is_empty() || weights.iter().any(|(_, w)| *w < 0u32) || ![1, -1].contains(sign) {
                return Err(format!("{name}: a bound with weights {weights:?} and sign {sign}"));
            }
            let h = combined(inequalities, *sign, weights).ok_or(format!("{name}: a weight on no inequality"))?;
            let proven = face.check_bound(&h, &lower.multipliers).map_err(|e| format!("{name}: {e}"))?;
            if proven != lower.bound {
                return Err(format!("{name}: a bound claimed {}, its multipliers prove {proven}", lower.bound));
            }
        }
    }
    Ok(())
}

/// Witnesses only, each an optimal alpha on which the conjecture does what
/// its label says, one labelled holds and one labelled fails.
fn check_witnesses(
    face: &AliceFace,
    name: &str,
    holds: &dyn Fn(&[Rational]) -> bool,
    proofs: &[Proof],
) -> Result<(), String> {
    let mut labels = Vec::new();
    for proof in proofs {
        let Proof::Witness { holds: label, alpha } = proof else {
            return Err(format!("{name}: a bound or box beside witnesses"));
        };
        let alpha = alpha.as_deref().unwrap_or(face.alpha());
        if !face.is_optimal(alpha) {
            return Err(format!("{name}: a witness is not an optimal strategy of Alice's"));
        }
        if holds(alpha) != *label {
            return Err(format!("{name}: a witness labelled holds = {label} does the opposite"));
        }
        labels.push(*label);
    }
    labels.sort_unstable();
    if labels == [false, true] { Ok(()) } else { Err(format!("{name}: witnesses {labels:?}")) }
}
