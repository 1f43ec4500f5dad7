//! Claims: linear statements about Alice's optimal strategy at each N,
//! written in a small language (`syntax`, docs/claims.md), expanded at each N
//! into inequalities (`meaning`) that the face stage decides over every
//! optimal alpha. The conjectures every sweep decides (Johnson's and
//! Gilbert's) are claims too, listed in `data/conjectures.toml`; a config
//! adds its own under `[[higher_lower.conjectures]]`, and `gamesweep
//! conjecture` asks one of a finished sweep.

pub mod meaning;
pub mod syntax;

use crate::exact::{Rational, to_f64};
use meaning::Inequality;
use serde::Deserialize;
use std::sync::OnceLock;
use syntax::{Condition, Part};

/// A claim: a named statement, where it applies (N >= `from`, and the
/// condition `when` if there is one).
#[derive(Debug, Clone)]
pub struct Claim {
    pub name: ClaimName,
    pub statement: Statement,
    pub from: u32,
    pub when: Option<NCondition>,
}

/// A claim's name: letters, digits and `_`, at most 48 (it is part of task ids and file names).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "String")]
pub struct ClaimName(String);

impl ClaimName {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for ClaimName {
    type Error = String;
    fn try_from(name: String) -> Result<Self, String> {
        let fine = !name.is_empty()
            && name.len() <= MAX_NAME
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !name.starts_with(|c: char| c.is_ascii_digit());
        if fine {
            Ok(ClaimName(name))
        } else {
            Err(format!(
                "invalid claim name {:?}: use 1 to {MAX_NAME} letters, digits and _, starting with a letter \
                 (e.g. alpha2_eq_alpha3_plus_alpha4)",
                shorten(&name)
            ))
        }
    }
}

const MAX_NAME: usize = 48;

/// A statement's text and its checked syntax.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "String")]
pub struct Statement {
    text: String,
    parts: Vec<Part>,
    relations: usize,
}

impl Statement {
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl TryFrom<String> for Statement {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        match syntax::statement(&text) {
            Ok(parts) => {
                let relations = count_relations(&parts);
                Ok(Statement { text, parts, relations })
            }
            Err(e) => Err(format!("statement {:?}, column {}: {}", shorten(&text), e.column(&text), e.message)),
        }
    }
}

fn count_relations(parts: &[Part]) -> usize {
    parts
        .iter()
        .map(|p| match p {
            Part::Chain { number, .. } => *number,
            Part::Family { body, .. } => count_relations(body),
        })
        .max()
        .unwrap_or(0)
}

/// A condition on N (`when`), its text and its checked syntax.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "String")]
pub struct NCondition {
    text: String,
    condition: Condition,
}

impl NCondition {
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl TryFrom<String> for NCondition {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        match syntax::condition(&text) {
            Ok(condition) => Ok(NCondition { text, condition }),
            Err(e) => Err(format!("condition {:?}, column {}: {}", shorten(&text), e.column(&text), e.message)),
        }
    }
}

/// Text cut to 120 characters for messages (which quote it with `{:?}`, escaping control characters).
pub fn shorten(text: &str) -> String {
    let mut shown: String = text.chars().take(120).collect();
    if shown.len() < text.len() {
        shown.push_str("...");
    }
    shown
}

/// A claim at one N.
#[derive(Debug, Clone, PartialEq)]
pub enum AtN {
    /// It claims every inequality.
    Applies(Vec<Inequality>),
    /// It claims nothing here, and why.
    NotApplicable(String),
}

/// A claim on one alpha (the computed one), for the `conjectures` table.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    pub applies: bool,
    /// Every inequality holds (false where it does not apply).
    pub holds: bool,
    /// Why it does not apply, or its tightest member on alpha.
    pub detail: String,
}

impl Claim {
    /// The claim at N: its inequalities, or why it does not apply.
    pub fn at(&self, n: usize) -> AtN {
        if (n as u64) < u64::from(self.from) {
            return AtN::NotApplicable(format!("N < {} (from)", self.from));
        }
        if let Some(when) = &self.when {
            match meaning::condition_holds(&when.condition, &when.text, n) {
                Ok(true) => {}
                Ok(false) => return AtN::NotApplicable(format!("{} is false (when)", when.text)),
                Err(why) => return AtN::NotApplicable(format!("when: {why}")),
            }
        }
        let statement = &self.statement;
        match meaning::inequalities(&statement.parts, &statement.text, n, statement.relations) {
            Ok(inequalities) => AtN::Applies(inequalities),
            Err(why) => AtN::NotApplicable(why),
        }
    }

    /// The claim on Alice's strategy `alpha` (keys 1..=N): whether it
    /// applies, holds, and its tightest member's margin (g . alpha, which
    /// must be >= 0, or > 0 for < and >).
    pub fn evaluate(&self, alpha: &[Rational]) -> Evaluation {
        match self.at(alpha.len()) {
            AtN::NotApplicable(why) => Evaluation { applies: false, holds: false, detail: why },
            AtN::Applies(inequalities) => {
                let holds = inequalities.iter().all(|i| i.holds(alpha));
                let tightest = inequalities
                    .iter()
                    .map(|i| (i.value(alpha), i))
                    .min_by(|(x, _), (y, _)| x.cmp(y))
                    .expect("a statement has a relation");
                let (margin, member) = tightest;
                let at = if member.member.is_empty() { String::new() } else { format!(" at {}", member.member) };
                let detail = format!(
                    "{} members; smallest margin on the computed alpha {}{at}",
                    inequalities.len(),
                    margin_text(&margin)
                );
                Evaluation { applies: true, holds, detail }
            }
        }
    }
}

/// "0" exactly, else the margin to four significant digits.
fn margin_text(margin: &Rational) -> String {
    if *margin == 0u32 { "0".to_string() } else { format!("{:.4e}", to_f64(margin)) }
}

/// A claim as the configs and `data/conjectures.toml` write it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimEntry {
    pub name: ClaimName,
    pub statement: Statement,
    /// The smallest N at which it claims anything.
    #[serde(default = "first_n")]
    pub from: u32,
    /// A condition on N besides `from` (e.g. "N % 2 == 1").
    pub when: Option<NCondition>,
}

fn first_n() -> u32 {
    1
}

impl From<ClaimEntry> for Claim {
    fn from(e: ClaimEntry) -> Self {
        Claim { name: e.name, statement: e.statement, from: e.from, when: e.when }
    }
}

impl Claim {
    /// The claim from its parts as text (the command line's form).
    pub fn parse(name: &str, statement: &str, from: u32, when: Option<&str>) -> Result<Claim, String> {
        Ok(Claim {
            name: ClaimName::try_from(name.to_string())?,
            statement: Statement::try_from(statement.to_string())?,
            from,
            when: when.map(|w| NCondition::try_from(w.to_string())).transpose()?,
        })
    }

    /// Whether two claims say the same (name, statement, where).
    pub fn same_as(&self, other: &Claim) -> bool {
        self.name == other.name
            && self.statement.text == other.statement.text
            && self.from == other.from
            && self.when.as_ref().map(NCondition::text) == other.when.as_ref().map(NCondition::text)
    }
}

/// The built-in conjectures, in table order: `data/conjectures.toml`.
pub fn builtin() -> &'static [Claim] {
    static BUILTIN: OnceLock<Vec<Claim>> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            conjectures: Vec<ClaimEntry>,
        }
        let file: File = toml::from_str(include_str!("../../../../data/conjectures.toml"))
            .unwrap_or_else(|e| panic!("data/conjectures.toml: {e}"));
        file.conjectures.into_iter().map(Claim::from).collect()
    })
}

/// The built-in conjecture named `name`.
pub fn builtin_named(name: &str) -> Option<&'static Claim> {
    builtin().iter().find(|c| c.name.as_str() == name)
}

#[cfg(test)]
mod tests;
