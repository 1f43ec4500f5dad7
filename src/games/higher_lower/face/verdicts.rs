//! Each claim decided over all of Alice's optimal strategies, with its
//! proof. At one N a claim is a set of inequalities g_i . alpha >= 0 (or
//! > 0; `claims::meaning`), and over the optimal face (`polytope`) it
//!
//! - holds for every optimal alpha when each g_i's minimum over the face is
//!   >= 0 (> 0): one proven lower bound per inequality (or the face's box);
//! - fails for every optimal alpha when some convex combination of the g_i
//!   is proven < 0 everywhere (<= 0, with weight on a strict inequality):
//!   the bound on the largest smallest slack, max over the face of
//!   min_i g_i . alpha;
//! - depends on the optimal alpha otherwise: two exact optimal alphas as
//!   witnesses, one on which it holds and one on which it fails.
//!
//! The computed alpha* decides which side needs the work: if it satisfies
//! the claim, only "holds for every" can be proven (else a minimising point
//! is the failing witness); if not, only "fails for every".

use super::polytope::{AliceFace, LowerBound, MaxProof};
use crate::exact::Rational;
use crate::games::higher_lower::claims::meaning::Inequality;
use crate::games::higher_lower::claims::{AtN, Claim};
use std::collections::BTreeMap;

/// A claim's verdict at one N (the `verdict` column of `conjectures`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ClaimVerdict {
    HoldsForEvery,
    FailsForEvery,
    Depends,
    /// The claim says nothing at this N (the row's detail says why).
    NotApplicable,
    /// A face LP failed (the reason is in the run's log); a failure of this
    /// analysis never fails the N's task.
    Undecided,
}

impl ClaimVerdict {
    pub const ALL: [ClaimVerdict; 5] = [
        ClaimVerdict::HoldsForEvery,
        ClaimVerdict::FailsForEvery,
        ClaimVerdict::Depends,
        ClaimVerdict::NotApplicable,
        ClaimVerdict::Undecided,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ClaimVerdict::HoldsForEvery => "holds for every optimal alpha",
            ClaimVerdict::FailsForEvery => "fails for every optimal alpha",
            ClaimVerdict::Depends => "depends on the optimal alpha",
            ClaimVerdict::NotApplicable => "not applicable",
            ClaimVerdict::Undecided => "undecided",
        }
    }

    pub fn parse(text: &str) -> Option<ClaimVerdict> {
        ClaimVerdict::ALL.into_iter().find(|v| v.as_str() == text)
    }
}

/// Above this many inequalities, each is bounded from the face's box (2d
/// LPs) before an LP of its own: one LP per inequality costs far more where a
/// family has many (the alpha1_largest family has N - 2), and the box settles
/// almost all (docs/history.md#43e1a9e-conjectures-over-every-optimal-alpha-the-face-stage).
const BOX_FROM: usize = 2;

/// Why a verdict holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Proof {
    /// sign * (sum_i w_i g_i) . alpha >= lower.bound for every optimal alpha
    /// (sign +1 with one weight 1: a lower bound on one inequality; sign -1:
    /// the bound that makes the claim fail everywhere).
    Bound { sign: i8, weights: Vec<(usize, Rational)>, lower: LowerBound },
    /// An optimal alpha on which the claim holds (or fails); `None`: the computed alpha*.
    Witness { holds: bool, alpha: Option<Vec<Rational>> },
    /// sign * alpha_key >= lower.bound for every optimal alpha: one side of
    /// the face's box (`AliceFace::box_bounds`), from which an inequality
    /// without a bound of its own is bounded (`AliceFace::box_bound`).
    Box { key: usize, sign: i8, lower: LowerBound },
}

/// Weights w_i on a claim's inequalities (by index).
type Weights = Vec<(usize, Rational)>;

/// One claim at one N, decided over every optimal alpha.
#[derive(Debug, Clone)]
pub struct Decided {
    pub name: String,
    pub verdict: ClaimVerdict,
    pub proofs: Vec<Proof>,
    /// Why it is undecided.
    pub why: Option<String>,
}

/// Every claim at the face's N, in order.
pub fn decide_all(face: &AliceFace, claims: &[Claim]) -> Vec<Decided> {
    claims.iter().map(|claim| decide_claim(face, claim)).collect()
}

/// One claim at the face's N.
pub fn decide_claim(face: &AliceFace, claim: &Claim) -> Decided {
    let name = claim.name.as_str().to_string();
    match claim.at(face.alpha().len()) {
        AtN::NotApplicable(_) => Decided { name, verdict: ClaimVerdict::NotApplicable, proofs: Vec::new(), why: None },
        AtN::Applies(inequalities) => match decide(face, &inequalities) {
            Ok((verdict, proofs)) => Decided { name, verdict, proofs, why: None },
            Err(why) => Decided { name, verdict: ClaimVerdict::Undecided, proofs: Vec::new(), why: Some(why) },
        },
    }
}

/// One claim at an N where alpha* is Alice's only optimal strategy (face
/// dimension 0): decided on alpha* alone, without proofs, as `decide_claim`
/// decides it there (`check_proofs` finds the dimension again).
pub fn decide_on_the_only_alpha(alpha: &[Rational], claim: &Claim) -> Decided {
    let name = claim.name.as_str().to_string();
    let verdict = match claim.at(alpha.len()) {
        AtN::NotApplicable(_) => ClaimVerdict::NotApplicable,
        AtN::Applies(inequalities) if inequalities.iter().all(|i| i.holds(alpha)) => ClaimVerdict::HoldsForEvery,
        AtN::Applies(_) => ClaimVerdict::FailsForEvery,
    };
    Decided { name, verdict, proofs: Vec::new(), why: None }
}

fn satisfied(value: &Rational, strict: bool) -> bool {
    if strict { *value > 0u32 } else { *value >= 0u32 }
}

fn decide(face: &AliceFace, inequalities: &[Inequality]) -> Result<(ClaimVerdict, Vec<Proof>), String> {
    let computed_holds = inequalities.iter().all(|i| i.holds(face.alpha()));
    if face.dimension() == 0 {
        let verdict = if computed_holds { ClaimVerdict::HoldsForEvery } else { ClaimVerdict::FailsForEvery };
        return Ok((verdict, Vec::new()));
    }
    let n = face.alpha().len();
    let g: Vec<Vec<Rational>> = inequalities.iter().map(|i| i.dense(n)).collect();
    if computed_holds { holds_side(face, inequalities, &g) } else { fails_side(face, inequalities, &g) }
}

/// alpha* satisfies the claim: each inequality's minimum over the face
/// proves it everywhere, or a minimising point is an optimal alpha that
/// breaks it.
fn holds_side(
    face: &AliceFace,
    inequalities: &[Inequality],
    g: &[Vec<Rational>],
) -> Result<(ClaimVerdict, Vec<Proof>), String> {
    let mut proofs = Vec::with_capacity(inequalities.len());
    // Many inequalities (Johnson's (3) has N - 2): bound each from the face's box first.
    let bounds = if inequalities.len() > BOX_FROM { Some(face.box_bounds()?) } else { None };
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
        let mut lower = face.bound_below(gi)?;
        if !satisfied(&lower.bound, inequality.strict) {
            let minimum = face.minimize(gi)?;
            if !satisfied(&minimum.lower.bound, inequality.strict) {
                let witnesses = vec![
                    Proof::Witness { holds: true, alpha: None },
                    Proof::Witness { holds: false, alpha: Some(minimum.point) },
                ];
                return Ok((ClaimVerdict::Depends, witnesses));
            }
            lower = minimum.lower;
        }
        proofs.push(Proof::Bound { sign: 1, weights: vec![(i, Rational::from(1))], lower });
    }
    Ok((ClaimVerdict::HoldsForEvery, proofs))
}

/// alpha* breaks the claim: a proof that some combination of the
/// inequalities fails on every optimal alpha, or an optimal alpha that
/// satisfies them all. First every inequality carries the smallest slack s;
/// where that leaves s = 0 with no weight on a strict inequality (a mix of
/// strict and non-strict ones), the non-strict ones become constraints and
/// only the strict ones carry s.
fn fails_side(
    face: &AliceFace,
    inequalities: &[Inequality],
    g: &[Vec<Rational>],
) -> Result<(ClaimVerdict, Vec<Proof>), String> {
    let strict: Vec<bool> = inequalities.iter().map(|i| i.strict).collect();
    let every = vec![true; g.len()];
    let mut phases = vec![every];
    if strict.iter().any(|s| *s) && strict.iter().any(|s| !*s) {
        phases.push(strict.clone());
    }
    let fails = |proof: MaxProof| {
        proves_failure(&proof.weights, &proof.lower.bound, &strict).then(|| {
            (ClaimVerdict::FailsForEvery, vec![Proof::Bound { sign: -1, weights: proof.weights, lower: proof.lower }])
        })
    };
    for soft in &phases {
        let (_, proof) = face.bound_largest_smallest(g, soft)?;
        if let Some(failed) = fails(proof) {
            return Ok(failed);
        }
        let (_, point, proof) = face.maximize_smallest(g, soft)?;
        if inequalities.iter().all(|i| i.holds(&point)) {
            let witnesses =
                vec![Proof::Witness { holds: true, alpha: Some(point) }, Proof::Witness { holds: false, alpha: None }];
            return Ok((ClaimVerdict::Depends, witnesses));
        }
        if let Some(failed) = fails(proof) {
            return Ok(failed);
        }
    }
    Err("neither a failure proof nor an optimal alpha that satisfies the claim".into())
}

/// Whether -(sum w_i g_i) . alpha >= b on every optimal alpha makes some
/// inequality fail on each: b > 0 (the combination is negative), or b >= 0
/// with positive weight on a strict inequality (if all held, the
/// combination would be positive).
fn proves_failure(weights: &Weights, bound: &Rational, strict: &[bool]) -> bool {
    *bound > 0u32 || (*bound >= 0u32 && weights.iter().any(|(i, w)| *w > 0u32 && strict.get(*i) == Some(&true)))
}

/// The functional sign * sum_i w_i g_i over the keys.
fn combined(n: usize, inequalities: &[Inequality], sign: i8, weights: &[(usize, Rational)]) -> Option<Vec<Rational>> {
    let mut h = vec![Rational::from(0); n];
    for (i, w) in weights {
        let inequality = inequalities.get(*i)?;
        let scaled = w * Rational::from(sign);
        for (k, c) in &inequality.terms {
            h[*k] += &scaled * c;
        }
    }
    Some(h)
}

/// Checks that `proofs` prove `verdict` for a claim at the face's N (`at`,
/// the claim there), exactly and from nothing else (the stored proofs,
/// re-checked by `verify`).
pub fn check_proofs(face: &AliceFace, at: &AtN, verdict: ClaimVerdict, proofs: &[Proof]) -> Result<(), String> {
    let inequalities = match (at, verdict) {
        (AtN::NotApplicable(_), ClaimVerdict::NotApplicable) if proofs.is_empty() => return Ok(()),
        (AtN::NotApplicable(why), _) => {
            return Err(format!("it does not apply ({why}), yet its verdict is {verdict:?}"));
        }
        (AtN::Applies(_), ClaimVerdict::NotApplicable) => {
            return Err("it applies, yet its verdict is not applicable".into());
        }
        (AtN::Applies(_), ClaimVerdict::Undecided) if proofs.is_empty() => return Ok(()), // claims nothing
        (AtN::Applies(inequalities), _) => inequalities,
    };
    let holds = |alpha: &[Rational]| inequalities.iter().all(|i| i.holds(alpha));
    if face.dimension() == 0 {
        let expected = if holds(face.alpha()) { ClaimVerdict::HoldsForEvery } else { ClaimVerdict::FailsForEvery };
        return if verdict == expected && proofs.is_empty() {
            Ok(())
        } else {
            Err(format!("alpha is unique and decides {expected:?}, not {verdict:?}"))
        };
    }
    let n = face.alpha().len();
    let whole_box = checked_box(face, proofs)?;
    check_bounds(face, inequalities, proofs)?;
    let bounds: Vec<(i8, &Weights, &Rational)> = proofs
        .iter()
        .filter_map(|p| match p {
            Proof::Bound { sign, weights, lower } => Some((*sign, weights, &lower.bound)),
            _ => None,
        })
        .collect();
    let witnesses = proofs.iter().filter(|p| matches!(p, Proof::Witness { .. })).count();
    match verdict {
        ClaimVerdict::HoldsForEvery => {
            // Inequality i bounded below by a value that satisfies it, for every i: by a
            // bound of its own or from the box.
            let proven = |i: usize| {
                let strict = inequalities[i].strict;
                let own = bounds.iter().any(|(sign, w, bound)| {
                    *sign == 1 && w.len() == 1 && w[0].0 == i && w[0].1 == 1u32 && satisfied(bound, strict)
                });
                own || whole_box
                    .as_ref()
                    .is_some_and(|b| satisfied(&face.box_bound(&inequalities[i].dense(n), b), strict))
            };
            match (0..inequalities.len()).find(|&i| !proven(i)) {
                Some(i) => Err(format!("no proof that inequality {i} holds on every optimal alpha")),
                None if witnesses == 0 => Ok(()),
                None => Err("witnesses beside a verdict for every alpha".into()),
            }
        }
        ClaimVerdict::FailsForEvery => {
            let strict: Vec<bool> = inequalities.iter().map(|i| i.strict).collect();
            let proven = proofs.len() == 1
                && proofs.iter().any(|p| {
                    matches!(p, Proof::Bound { sign: -1, weights, lower } if proves_failure(weights, &lower.bound, &strict))
                });
            if proven { Ok(()) } else { Err("no proof that it fails on every optimal alpha".into()) }
        }
        ClaimVerdict::Depends => check_witnesses(face, &holds, proofs),
        ClaimVerdict::NotApplicable | ClaimVerdict::Undecided => Err(format!("the verdict {verdict:?} with proofs")),
    }
}

/// Each box proof: the bound its multipliers prove for +-alpha_key, as
/// claimed. The box counts only when both sides of every direction's own key
/// are there: then it is returned, one [lower, upper side] per free key.
fn checked_box(face: &AliceFace, proofs: &[Proof]) -> Result<Option<Vec<[LowerBound; 2]>>, String> {
    let n = face.alpha().len();
    let mut sides: BTreeMap<(usize, i8), &LowerBound> = BTreeMap::new();
    for proof in proofs {
        if let Proof::Box { key, sign, lower } = proof {
            let mut h = vec![Rational::from(0); n];
            *h.get_mut(*key).ok_or(format!("a box on key {key} of {n}"))? = Rational::from(*sign);
            let proven = face.check_bound(&h, &lower.multipliers)?;
            if proven != lower.bound || sides.insert((*key, *sign), lower).is_some() {
                return Err(format!("a box side claimed {}, its multipliers prove {proven}", lower.bound));
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
fn check_bounds(face: &AliceFace, inequalities: &[Inequality], proofs: &[Proof]) -> Result<(), String> {
    let n = face.alpha().len();
    for proof in proofs {
        if let Proof::Bound { sign, weights, lower } = proof {
            if weights.is_empty() || weights.iter().any(|(_, w)| *w < 0u32) || ![1, -1].contains(sign) {
                return Err(format!("a bound with weights {weights:?} and sign {sign}"));
            }
            let h = combined(n, inequalities, *sign, weights).ok_or("a weight on no inequality")?;
            let proven = face.check_bound(&h, &lower.multipliers)?;
            if proven != lower.bound {
                return Err(format!("a bound claimed {}, its multipliers prove {proven}", lower.bound));
            }
        }
    }
    Ok(())
}

/// Witnesses only, each an optimal alpha on which the claim does what its
/// label says, one labelled holds and one labelled fails.
fn check_witnesses(face: &AliceFace, holds: &dyn Fn(&[Rational]) -> bool, proofs: &[Proof]) -> Result<(), String> {
    let mut labels = Vec::new();
    for proof in proofs {
        let Proof::Witness { holds: label, alpha } = proof else {
            return Err("a bound or box beside witnesses".into());
        };
        let alpha = alpha.as_deref().unwrap_or(face.alpha());
        if !face.is_optimal(alpha) {
            return Err("a witness is not an optimal strategy of Alice's".into());
        }
        if holds(alpha) != *label {
            return Err(format!("a witness labelled holds = {label} does the opposite"));
        }
        labels.push(*label);
    }
    labels.sort_unstable();
    if labels == [false, true] { Ok(()) } else { Err(format!("witnesses {labels:?}")) }
}
