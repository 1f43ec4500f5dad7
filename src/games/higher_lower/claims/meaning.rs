//! A checked statement at one N: its relations expanded into linear
//! inequalities g . alpha >= 0 (or > 0) over the keys, or the reason it
//! does not apply there (an index outside 1..N, an empty range, a division
//! by zero, a family too large to expand).
//!
//! A constant c on either side becomes c * (alpha_1 + ... + alpha_N): Alice's
//! probabilities sum to 1, so the inequality means the same on every
//! strategy and stays homogeneous, as the face stage wants it.

use super::syntax::{Condition, Domain, Expr, Node, Op, Part, Relation, floor_div, floor_rem};
use crate::exact::Rational;
use std::collections::BTreeMap;

/// g . alpha >= 0, or > 0 when `strict`, with g sparse over 0-based keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Inequality {
    /// (key, coefficient), keys increasing, coefficients non-zero.
    pub terms: Vec<(usize, Rational)>,
    pub strict: bool,
    /// Which member of the statement this is, for a reader: the bound
    /// variables' values and, when there are several, the relation's number.
    pub member: String,
}

impl Inequality {
    /// g over all N keys.
    pub fn dense(&self, n: usize) -> Vec<Rational> {
        let mut g = vec![Rational::from(0); n];
        for (k, c) in &self.terms {
            g[*k] = c.clone();
        }
        g
    }

    /// g . alpha.
    pub fn value(&self, alpha: &[Rational]) -> Rational {
        self.terms.iter().map(|(k, c)| c * &alpha[*k]).sum()
    }

    pub fn holds(&self, alpha: &[Rational]) -> bool {
        let value = self.value(alpha);
        if self.strict { value > 0u32 } else { value >= 0u32 }
    }
}

/// Expanding a statement at one N touches at most this many keys, so that
/// a family of families cannot run for hours before the face stage starts.
const MAX_WORK: usize = 20_000_000;
/// A statement has at most this many members (inequalities) at one N.
const MAX_MEMBERS: usize = 1_000_000;

/// The statement's inequalities at N, or why it does not apply there.
pub fn inequalities(parts: &[Part], text: &str, n: usize, relations: usize) -> Result<Vec<Inequality>, String> {
    let mut at = At { text, n, env: Vec::new(), work: 0, relations };
    let mut out = Vec::new();
    at.parts(parts, &mut out)?;
    Ok(out)
}

/// Whether the condition holds at N (`Err`: it cannot be evaluated there).
pub fn condition_holds(condition: &Condition, text: &str, n: usize) -> Result<bool, String> {
    let at = At { text, n, env: Vec::new(), work: 0, relations: 0 };
    for all_of in &condition.any_of {
        let mut holds = true;
        for (left, compare, right) in all_of {
            holds &= compare.holds(at.integer(left)?, at.integer(right)?);
        }
        if holds {
            return Ok(true);
        }
    }
    Ok(false)
}

/// A linear expression: sum of coefficient * alpha_key, plus a constant.
#[derive(Debug, Clone, Default)]
struct Linear {
    keys: BTreeMap<usize, Rational>,
    constant: Rational,
}

impl Linear {
    fn constant(c: Rational) -> Self {
        Linear { keys: BTreeMap::new(), constant: c }
    }

    fn scaled(mut self, c: &Rational) -> Self {
        for v in self.keys.values_mut() {
            *v *= c;
        }
        self.constant *= c;
        self
    }

    fn plus(mut self, other: Linear, sign: i8) -> Self {
        let s = Rational::from(sign);
        for (k, v) in other.keys {
            *self.keys.entry(k).or_default() += &s * v;
        }
        self.constant += s * other.constant;
        self
    }

    fn as_constant(&self) -> Option<&Rational> {
        self.keys.values().all(|v| *v == 0u32).then_some(&self.constant)
    }
}

/// The evaluation context at one N: the values of the bound variables.
struct At<'t> {
    text: &'t str,
    n: usize,
    env: Vec<(String, i64)>,
    work: usize,
    relations: usize,
}

impl At<'_> {
    fn shown(&self, node: &Node) -> &str {
        self.text.get(node.span.0..node.span.1).unwrap_or("?")
    }

    /// " at j = 3, k = 5", or nothing outside families.
    fn bindings(&self) -> String {
        if self.env.is_empty() {
            return String::new();
        }
        let values: Vec<String> = self.env.iter().map(|(v, x)| format!("{v} = {x}")).collect();
        format!(" at {}", values.join(", "))
    }

    fn parts(&mut self, parts: &[Part], out: &mut Vec<Inequality>) -> Result<(), String> {
        for part in parts {
            match part {
                Part::Chain { terms, rels, number } => {
                    let values = terms.iter().map(|t| self.linear(t)).collect::<Result<Vec<_>, _>>()?;
                    let mut member: Vec<String> = self.env.iter().map(|(v, x)| format!("{v} = {x}")).collect();
                    if self.relations > 1 {
                        member.insert(0, format!("relation {number}"));
                    }
                    let member = member.join(", ");
                    if out.len() + 2 * rels.len() > MAX_MEMBERS {
                        return Err(format!("the statement has more than {MAX_MEMBERS} members at N = {}", self.n));
                    }
                    for (pair, rel) in values.windows(2).zip(rels) {
                        let (left, right) = (&pair[0], &pair[1]);
                        let mut push = |g: Linear, strict: bool| out.push(self.inequality(g, strict, &member));
                        let left_minus_right = || left.clone().plus(right.clone(), -1);
                        let right_minus_left = || right.clone().plus(left.clone(), -1);
                        match rel {
                            Relation::AtLeast => push(left_minus_right(), false),
                            Relation::Above => push(left_minus_right(), true),
                            Relation::AtMost => push(right_minus_left(), false),
                            Relation::Below => push(right_minus_left(), true),
                            Relation::Equal => {
                                push(left_minus_right(), false);
                                push(right_minus_left(), false);
                            }
                        }
                    }
                }
                Part::Family { var, domain, body } => {
                    for value in self.domain(domain)? {
                        self.env.push((var.clone(), value));
                        let expanded = self.parts(body, out);
                        self.env.pop();
                        expanded?;
                    }
                }
            }
        }
        Ok(())
    }

    /// g . alpha with the constant spread over the keys (sum alpha = 1).
    fn inequality(&self, g: Linear, strict: bool, member: &str) -> Inequality {
        let mut dense: BTreeMap<usize, Rational> = g.keys;
        if g.constant != 0u32 {
            for k in 0..self.n {
                *dense.entry(k).or_default() += &g.constant;
            }
        }
        let terms = dense.into_iter().filter(|(_, c)| *c != 0u32).collect();
        Inequality { terms, strict, member: member.to_string() }
    }

    fn domain(&self, domain: &Domain) -> Result<Vec<i64>, String> {
        match domain {
            Domain::List(members) => members.iter().map(|m| self.integer(m)).collect(),
            Domain::Range(low, high) => {
                let (l, h) = (self.integer(low)?, self.integer(high)?);
                if h < l {
                    return Err(format!(
                        "the range {}..{} is {l}..{h}, empty{}",
                        self.shown(low),
                        self.shown(high),
                        self.bindings()
                    ));
                }
                let size = h.abs_diff(l).saturating_add(1);
                if size > MAX_WORK as u64 {
                    return Err(format!("the range {l}..{h} has {size} members, too many to expand"));
                }
                Ok((l..=h).collect())
            }
        }
    }

    fn integer(&self, node: &Node) -> Result<i64, String> {
        let overflow = || format!("`{}` overflows{}", self.shown(node), self.bindings());
        Ok(match &node.expr {
            Expr::Number { value, .. } => i64::try_from(value).map_err(|_| overflow())?,
            Expr::N => self.n as i64,
            Expr::Var(v) => self.env.iter().rev().find(|(name, _)| name == v).map(|(_, x)| *x).expect("checked"),
            Expr::Neg(inner) => self.integer(inner)?.checked_neg().ok_or_else(overflow)?,
            Expr::Binary(op, l, r) => {
                let (x, y) = (self.integer(l)?, self.integer(r)?);
                if y == 0 && matches!(op, Op::Div | Op::Rem) {
                    return Err(format!("`{}` divides by zero{}", self.shown(node), self.bindings()));
                }
                match op {
                    Op::Add => x.checked_add(y),
                    Op::Sub => x.checked_sub(y),
                    Op::Mul => x.checked_mul(y),
                    Op::Div => floor_div(x, y),
                    Op::Rem => floor_rem(x, y),
                }
                .ok_or_else(overflow)?
            }
            Expr::Key(_) | Expr::Aggregate { .. } => unreachable!("`check` keeps a[...] and sums out of integers"),
        })
    }

    fn linear(&mut self, node: &Node) -> Result<Linear, String> {
        Ok(match &node.expr {
            Expr::Number { value, .. } => Linear::constant(value.clone()),
            Expr::N | Expr::Var(_) => Linear::constant(Rational::from(self.integer(node)?)),
            Expr::Key(index) => {
                let k = self.integer(index)?;
                if k < 1 || k > self.n as i64 {
                    return Err(format!(
                        "a[{}] is key {k}, outside 1..{}{}",
                        self.shown(index),
                        self.n,
                        self.bindings()
                    ));
                }
                self.work += 1;
                if self.work > MAX_WORK {
                    return Err(format!("the statement expands to more than {MAX_WORK} terms at N = {}", self.n));
                }
                let mut keys = BTreeMap::new();
                keys.insert(k as usize - 1, Rational::from(1));
                Linear { keys, constant: Rational::from(0) }
            }
            Expr::Neg(inner) => self.linear(inner)?.scaled(&Rational::from(-1)),
            Expr::Binary(op, l, r) => {
                let (x, y) = (self.linear(l)?, self.linear(r)?);
                match op {
                    Op::Add => x.plus(y, 1),
                    Op::Sub => x.plus(y, -1),
                    Op::Mul => match (x.as_constant(), y.as_constant()) {
                        (Some(c), _) => {
                            let c = c.clone();
                            y.scaled(&c)
                        }
                        (None, Some(c)) => {
                            let c = c.clone();
                            x.scaled(&c)
                        }
                        (None, None) => unreachable!("`check` refuses products of two terms in a"),
                    },
                    Op::Div => {
                        let divisor = y.as_constant().expect("`check` refuses divisors in a").clone();
                        if divisor == 0u32 {
                            return Err(format!("`{}` divides by zero{}", self.shown(node), self.bindings()));
                        }
                        x.scaled(&(Rational::from(1) / divisor))
                    }
                    Op::Rem => unreachable!("`check` keeps % to integers"),
                }
            }
            Expr::Aggregate { mean, body, var, domain } => {
                let values = self.domain(domain)?;
                let count = values.len();
                let mut total = Linear::default();
                for value in values {
                    self.env.push((var.clone(), value));
                    let term = self.linear(body);
                    self.env.pop();
                    total = total.plus(term?, 1);
                }
                if *mean { total.scaled(&Rational::from_unsigneds(1u64, count as u64)) } else { total }
            }
        })
    }
}
