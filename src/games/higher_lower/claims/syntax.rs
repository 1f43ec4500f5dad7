//! The claim language's syntax: text to a checked tree, or one error at a
//! column. The grammar (in EBNF), its operators' precedence, the two kinds
//! of expression and the limits are in docs/claims.md#the-language, not
//! here; tests/claims_grammar.rs parses that page's examples with this
//! parser and checks that its grammar's terminals are `TERMINALS`.
//!
//! The parser is recursive descent, one method per rule of that grammar
//! (`statement`, `part`, `domain`, `expr`, `term`, `unary`, `atom`; the
//! free function `condition`). `check` then enforces what the grammar
//! cannot say (the kinds of expression, linearity, the names), so that a
//! statement that parses is wrong at some N only through its values (an
//! index outside 1..N, an empty range, a division by zero), which is then
//! "does not apply" there.

use crate::exact::Rational;
use std::fmt;

/// What went wrong, and where: a byte offset into the text.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub at: usize,
    pub message: String,
}

impl SyntaxError {
    fn new(at: usize, message: impl Into<String>) -> Self {
        SyntaxError { at, message: message.into() }
    }

    /// 1-based column (in characters) of the error in `text`.
    pub fn column(&self, text: &str) -> usize {
        text.get(..self.at.min(text.len())).map_or(self.at, |before| before.chars().count()) + 1
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// An expression with the byte span of its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub expr: Expr,
    pub span: (usize, usize),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// An integer or exact decimal literal; `integer` says which.
    Number {
        value: Rational,
        integer: bool,
    },
    N,
    Var(String),
    /// `a[index]`.
    Key(Box<Node>),
    Neg(Box<Node>),
    Binary(Op, Box<Node>, Box<Node>),
    /// `sum(body for var in domain)`, or `mean(...)`.
    Aggregate {
        mean: bool,
        body: Box<Node>,
        var: String,
        domain: Domain,
    },
}

/// The values a bound variable takes: an inclusive range or a list.
#[derive(Debug, Clone, PartialEq)]
pub enum Domain {
    Range(Box<Node>, Box<Node>),
    List(Vec<Node>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    Equal,
    AtMost,
    Below,
    AtLeast,
    Above,
}

/// A statement is the conjunction of its parts.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// `terms[0] rels[0] terms[1] rels[1] ...`; `number` counts the
    /// relations of the statement in reading order (from 1).
    Chain { terms: Vec<Node>, rels: Vec<Relation>, number: usize },
    /// `for var in domain: body`.
    Family { var: String, domain: Domain, body: Vec<Part> },
}

/// A condition on N: a disjunction of conjunctions of integer comparisons.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    pub any_of: Vec<Vec<(Node, Compare, Node)>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Compare {
    pub fn holds(self, x: i64, y: i64) -> bool {
        match self {
            Compare::Eq => x == y,
            Compare::Ne => x != y,
            Compare::Lt => x < y,
            Compare::Le => x <= y,
            Compare::Gt => x > y,
            Compare::Ge => x >= y,
        }
    }
}

/// Parses and checks a statement.
pub fn statement(text: &str) -> Result<Vec<Part>, SyntaxError> {
    let mut parser = Parser::new(text)?;
    let parts = parser.statement()?;
    parser.end("`and`, a relation or the end")?;
    let mut scope = Vec::new();
    check_parts(&parts, &mut scope)?;
    if !parts.iter().any(mentions_a) {
        return Err(SyntaxError::new(0, "the statement never mentions a[...], Alice's probabilities"));
    }
    Ok(parts)
}

/// Parses and checks a condition on N.
pub fn condition(text: &str) -> Result<Condition, SyntaxError> {
    let mut parser = Parser::new(text)?;
    let mut any_of = vec![Vec::new()];
    loop {
        let left = parser.expr()?;
        let at = parser.at();
        let compare = match parser.next_symbol() {
            Some("==") => Compare::Eq,
            Some("!=") => Compare::Ne,
            Some("<") => Compare::Lt,
            Some("<=") => Compare::Le,
            Some(">") => Compare::Gt,
            Some(">=") => Compare::Ge,
            Some("=") => return Err(SyntaxError::new(at, "a condition compares with `==`, not `=`")),
            _ => return Err(SyntaxError::new(at, "expected a comparison (==, !=, <, <=, >, >=)")),
        };
        let right = parser.expr()?;
        for side in [&left, &right] {
            integer(side, &[])?;
        }
        any_of.last_mut().expect("one conjunction").push((left, compare, right));
        match parser.peek_word() {
            Some("and") => parser.pos += 1,
            Some("or") => {
                parser.pos += 1;
                any_of.push(Vec::new());
            }
            _ => break,
        }
    }
    parser.end("`and`, `or` or the end")?;
    Ok(Condition { any_of })
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number { value: Rational, integer: bool },
    Word(String),
    Symbol(&'static str),
}

/// The language's terminals, as the lexer reads them: its symbols and its
/// reserved words. The grammar in docs/claims.md uses exactly these
/// (tests/claims_grammar.rs compares them).
pub struct Terminals {
    /// Longest first, so that `<=` is not read as `<`.
    pub symbols: [&'static str; 19],
    /// Words with a meaning of their own; every other word is a variable's name.
    pub words: [&'static str; 8],
}

/// The terminals the lexer and parser use (`SYMBOLS`, `RESERVED`).
pub const TERMINALS: Terminals = Terminals {
    symbols: ["..", "==", "!=", "<=", ">=", "<", ">", "=", "+", "-", "*", "/", "%", "(", ")", "[", "]", ",", ":"],
    words: ["a", "N", "sum", "mean", "for", "in", "and", "or"],
};

/// Symbols, longest first so that `<=` is not read as `<`.
const SYMBOLS: [&str; 19] = TERMINALS.symbols;

/// Words with a meaning of their own; everything else is a bound variable.
const RESERVED: [&str; 8] = TERMINALS.words;

fn tokens(text: &str) -> Result<Vec<(Token, usize, usize)>, SyntaxError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let mut integer = true;
            // A decimal point, unless it starts `..`.
            if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
                integer = false;
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let literal = &text[start..i];
            let value =
                decimal(literal).ok_or_else(|| SyntaxError::new(start, format!("number {literal} too long")))?;
            out.push((Token::Number { value, integer }, start, i));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((Token::Word(text[start..i].to_string()), start, i));
        } else if let Some(symbol) = SYMBOLS.iter().find(|s| text[i..].starts_with(**s)) {
            out.push((Token::Symbol(symbol), i, i + symbol.len()));
            i += symbol.len();
        } else {
            let shown = text[i..].chars().next().map_or(String::new(), |c| c.escape_debug().to_string());
            let hint = match shown.as_str() {
                "α" => " (Alice's probabilities are a[i])",
                "≤" | "≥" => " (write <= or >=)",
                "&" => " (write `and`)",
                _ => "",
            };
            return Err(SyntaxError::new(i, format!("unexpected character '{shown}'{hint}")));
        }
    }
    Ok(out)
}

/// An exact decimal literal ("12", "0.125").
fn decimal(literal: &str) -> Option<Rational> {
    if literal.len() > 30 {
        return None;
    }
    let (whole, fraction) = literal.split_once('.').unwrap_or((literal, ""));
    let digits: u128 = format!("{whole}{fraction}").parse().ok()?;
    Some(Rational::from(digits) / Rational::from(10u128.pow(fraction.len() as u32)))
}

/// The longest statement or condition read, in characters, and the deepest
/// nesting of brackets and signs: every later stage walks the tree
/// recursively, so its depth is bounded here (100,000 parentheses
/// overflowed the stack).
const MAX_CHARS: usize = 2000;
const MAX_DEPTH: usize = 32;

struct Parser<'t> {
    text: &'t str,
    tokens: Vec<(Token, usize, usize)>,
    pos: usize,
    /// Relations read so far.
    relations: usize,
    /// Brackets and signs open at this point.
    depth: usize,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Result<Self, SyntaxError> {
        if let Some((at, _)) = text.char_indices().nth(MAX_CHARS) {
            return Err(SyntaxError::new(at, format!("longer than {MAX_CHARS} characters")));
        }
        let tokens = tokens(text)?;
        if tokens.is_empty() {
            return Err(SyntaxError::new(0, "empty"));
        }
        Ok(Parser { text, tokens, pos: 0, relations: 0, depth: 0 })
    }

    /// `inside` one level deeper, refused beyond `MAX_DEPTH`.
    fn nested<T>(&mut self, inside: impl FnOnce(&mut Self) -> Result<T, SyntaxError>) -> Result<T, SyntaxError> {
        if self.depth == MAX_DEPTH {
            return Err(SyntaxError::new(self.at(), format!("nested deeper than {MAX_DEPTH} brackets or signs")));
        }
        self.depth += 1;
        let result = inside(self);
        self.depth -= 1;
        result
    }

    /// Byte offset of the next token (the end of the text after the last).
    fn at(&self) -> usize {
        self.tokens.get(self.pos).map_or(self.text.len(), |t| t.1)
    }

    /// End of the previous token.
    fn end_of_previous(&self) -> usize {
        self.pos.checked_sub(1).map_or(0, |p| self.tokens[p].2)
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos).map(|t| &t.0)
    }

    fn peek_word(&self) -> Option<&str> {
        match self.peek() {
            Some(Token::Word(w)) => Some(w),
            _ => None,
        }
    }

    fn peek_symbol(&self) -> Option<&'static str> {
        match self.peek() {
            Some(Token::Symbol(s)) => Some(s),
            _ => None,
        }
    }

    fn next_symbol(&mut self) -> Option<&'static str> {
        let symbol = self.peek_symbol();
        if symbol.is_some() {
            self.pos += 1;
        }
        symbol
    }

    /// What the next token is, for messages.
    fn shown(&self) -> String {
        match self.tokens.get(self.pos) {
            None => "the end".to_string(),
            Some((_, start, end)) => format!("`{}`", &self.text[*start..*end]),
        }
    }

    fn expect_symbol(&mut self, symbol: &str, what: &str) -> Result<(), SyntaxError> {
        if self.peek_symbol() == Some(symbol) {
            self.pos += 1;
            Ok(())
        } else {
            Err(SyntaxError::new(self.at(), format!("expected {what}, found {}", self.shown())))
        }
    }

    fn expect_word(&mut self, word: &str) -> Result<(), SyntaxError> {
        if self.peek_word() == Some(word) {
            self.pos += 1;
            Ok(())
        } else {
            Err(SyntaxError::new(self.at(), format!("expected `{word}`, found {}", self.shown())))
        }
    }

    fn end(&self, expected: &str) -> Result<(), SyntaxError> {
        match self.tokens.get(self.pos) {
            None => Ok(()),
            Some((Token::Word(w), start, _)) if w == "or" => Err(SyntaxError::new(
                *start,
                "`or` is not allowed in a claim (it is not linear): state two claims, or use a condition on N",
            )),
            Some((Token::Symbol("!="), start, _)) => {
                Err(SyntaxError::new(*start, "`!=` is not allowed in a claim (it is not linear): use < or >"))
            }
            Some(_) => Err(SyntaxError::new(self.at(), format!("expected {expected}, found {}", self.shown()))),
        }
    }

    /// A new bound variable's name.
    fn variable(&mut self) -> Result<String, SyntaxError> {
        let at = self.at();
        match self.peek_word() {
            Some(w) if RESERVED.contains(&w) => Err(SyntaxError::new(at, format!("`{w}` cannot name a variable"))),
            Some(w) => {
                let w = w.to_string();
                self.pos += 1;
                Ok(w)
            }
            None => Err(SyntaxError::new(at, format!("expected a variable name, found {}", self.shown()))),
        }
    }

    fn statement(&mut self) -> Result<Vec<Part>, SyntaxError> {
        let mut parts = vec![self.part()?];
        while self.peek_word() == Some("and") {
            self.pos += 1;
            parts.push(self.part()?);
        }
        Ok(parts)
    }

    fn part(&mut self) -> Result<Part, SyntaxError> {
        if self.peek_word() == Some("for") {
            self.pos += 1;
            let var = self.variable()?;
            self.expect_word("in")?;
            let domain = self.domain()?;
            self.expect_symbol(":", "`:` after the family's domain")?;
            let body = self.statement()?;
            return Ok(Part::Family { var, domain, body });
        }
        let mut terms = vec![self.expr()?];
        let mut rels = Vec::new();
        loop {
            let rel = match self.peek_symbol() {
                Some("=" | "==") => Relation::Equal,
                Some("<=") => Relation::AtMost,
                Some("<") => Relation::Below,
                Some(">=") => Relation::AtLeast,
                Some(">") => Relation::Above,
                _ => break,
            };
            self.pos += 1;
            rels.push(rel);
            terms.push(self.expr()?);
        }
        if rels.is_empty() {
            let message = match self.peek_symbol() {
                Some("!=") => "`!=` is not allowed in a claim (it is not linear): use < or >".to_string(),
                _ => format!("expected a relation (=, <=, <, >=, >), found {}", self.shown()),
            };
            return Err(SyntaxError::new(self.at(), message));
        }
        self.relations += 1;
        Ok(Part::Chain { terms, rels, number: self.relations })
    }

    fn domain(&mut self) -> Result<Domain, SyntaxError> {
        if self.peek_symbol() == Some("[") {
            self.pos += 1;
            let mut members = vec![self.expr()?];
            while self.peek_symbol() == Some(",") {
                self.pos += 1;
                members.push(self.expr()?);
            }
            self.expect_symbol("]", "`,` or `]` in the list")?;
            return Ok(Domain::List(members));
        }
        let low = self.expr()?;
        self.expect_symbol("..", "`..` in a range L..R (or a list [x, y, ...])")?;
        let high = self.expr()?;
        Ok(Domain::Range(Box::new(low), Box::new(high)))
    }

    fn node(&self, expr: Expr, start: usize) -> Node {
        Node { expr, span: (start, self.end_of_previous()) }
    }

    fn expr(&mut self) -> Result<Node, SyntaxError> {
        let start = self.at();
        let mut left = self.term()?;
        while let Some(op @ ("+" | "-")) = self.peek_symbol() {
            self.pos += 1;
            let right = self.term()?;
            let op = if op == "+" { Op::Add } else { Op::Sub };
            left = self.node(Expr::Binary(op, Box::new(left), Box::new(right)), start);
        }
        Ok(left)
    }

    fn term(&mut self) -> Result<Node, SyntaxError> {
        let start = self.at();
        let mut left = self.unary()?;
        while let Some(op @ ("*" | "/" | "%")) = self.peek_symbol() {
            self.pos += 1;
            let right = self.unary()?;
            let op = match op {
                "*" => Op::Mul,
                "/" => Op::Div,
                _ => Op::Rem,
            };
            left = self.node(Expr::Binary(op, Box::new(left), Box::new(right)), start);
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Node, SyntaxError> {
        let start = self.at();
        match self.peek_symbol() {
            Some("-") => {
                self.pos += 1;
                let inner = self.nested(Self::unary)?;
                Ok(self.node(Expr::Neg(Box::new(inner)), start))
            }
            Some("+") => {
                self.pos += 1;
                self.nested(Self::unary)
            }
            _ => self.nested(Self::atom),
        }
    }

    fn atom(&mut self) -> Result<Node, SyntaxError> {
        let start = self.at();
        let Some((token, _, _)) = self.tokens.get(self.pos).cloned() else {
            return Err(SyntaxError::new(
                start,
                "expected a number, N, a[...], sum(...), mean(...) or `(`; found the end",
            ));
        };
        self.pos += 1;
        let expr = match token {
            Token::Number { value, integer } => Expr::Number { value, integer },
            Token::Symbol("(") => {
                let inner = self.expr()?;
                self.expect_symbol(")", "`)`")?;
                return Ok(Node { span: (start, self.end_of_previous()), ..inner });
            }
            Token::Word(w) if w == "N" => Expr::N,
            Token::Word(w) if w == "a" => {
                self.expect_symbol("[", "`[` after a: keys are a[i]")?;
                let index = self.expr()?;
                self.expect_symbol("]", "`]`")?;
                Expr::Key(Box::new(index))
            }
            Token::Word(w) if w == "sum" || w == "mean" => {
                self.expect_symbol("(", &format!("`(` after {w}"))?;
                let body = self.expr()?;
                self.expect_word("for")?;
                let var = self.variable()?;
                self.expect_word("in")?;
                let domain = self.domain()?;
                self.expect_symbol(")", &format!("`)` closing {w}(...)"))?;
                Expr::Aggregate { mean: w == "mean", body: Box::new(body), var, domain }
            }
            Token::Word(w) if RESERVED.contains(&w.as_str()) => {
                return Err(SyntaxError::new(start, format!("expected a value, found `{w}`")));
            }
            // A name followed by `[` or `(` is no bound variable (those are integers).
            Token::Word(w) if matches!(self.peek_symbol(), Some("[" | "(")) => {
                return Err(SyntaxError::new(start, unknown_name(&w, &[])));
            }
            Token::Word(w) => Expr::Var(w),
            Token::Symbol(s) => {
                return Err(SyntaxError::new(
                    start,
                    format!("expected a number, N, a[...], sum(...), mean(...) or `(`; found `{s}`"),
                ));
            }
        };
        Ok(self.node(expr, start))
    }
}

/// Whether any relation of the parts mentions a[...].
fn mentions_a(part: &Part) -> bool {
    match part {
        Part::Chain { terms, .. } => terms.iter().any(|t| degree_of(t) > 0),
        Part::Family { body, .. } => body.iter().any(mentions_a),
    }
}

/// 1 if the (checked) expression involves a[...], else 0.
fn degree_of(node: &Node) -> u8 {
    match &node.expr {
        Expr::Key(_) => 1,
        Expr::Number { .. } | Expr::N | Expr::Var(_) => 0,
        Expr::Neg(inner) => degree_of(inner),
        Expr::Binary(_, l, r) => degree_of(l).max(degree_of(r)),
        Expr::Aggregate { body, .. } => degree_of(body),
    }
}

fn check_parts(parts: &[Part], scope: &mut Vec<String>) -> Result<(), SyntaxError> {
    for part in parts {
        match part {
            Part::Chain { terms, .. } => {
                for term in terms {
                    linear(term, scope)?;
                }
                if terms.iter().all(|t| degree_of(t) == 0) {
                    return Err(SyntaxError::new(
                        terms[0].span.0,
                        "this relation compares numbers only; a claim is about a[...]",
                    ));
                }
            }
            Part::Family { var, domain, body } => {
                check_domain(domain, scope)?;
                bind(var, scope, domain_start(domain))?;
                let checked = check_parts(body, scope);
                scope.pop();
                checked?;
            }
        }
    }
    Ok(())
}

fn domain_start(domain: &Domain) -> usize {
    match domain {
        Domain::Range(low, _) => low.span.0,
        Domain::List(members) => members[0].span.0,
    }
}

fn bind(var: &str, scope: &mut Vec<String>, at: usize) -> Result<(), SyntaxError> {
    if scope.iter().any(|v| v == var) {
        return Err(SyntaxError::new(at, format!("`{var}` is bound already; use another name")));
    }
    scope.push(var.to_string());
    Ok(())
}

/// A domain's bounds or members are integers; a range whose bounds are
/// plain numbers must not be empty (one that moves with N may be, at some N).
fn check_domain(domain: &Domain, scope: &[String]) -> Result<(), SyntaxError> {
    match domain {
        Domain::Range(low, high) => {
            integer(low, scope)?;
            integer(high, scope)?;
            if let (Some(l), Some(h)) = (constant(low), constant(high))
                && h < l
            {
                return Err(SyntaxError::new(low.span.0, format!("the range {l}..{h} is empty")));
            }
        }
        Domain::List(members) => {
            for member in members {
                integer(member, scope)?;
            }
        }
    }
    Ok(())
}

/// The value of an integer expression made of numbers only.
fn constant(node: &Node) -> Option<i64> {
    let value = match &node.expr {
        Expr::Number { value, integer: true } => i64::try_from(value).ok()?,
        Expr::Neg(inner) => constant(inner)?.checked_neg()?,
        Expr::Binary(op, l, r) => {
            let (l, r) = (constant(l)?, constant(r)?);
            match op {
                Op::Add => l.checked_add(r)?,
                Op::Sub => l.checked_sub(r)?,
                Op::Mul => l.checked_mul(r)?,
                Op::Div => floor_div(l, r)?,
                Op::Rem => floor_rem(l, r)?,
            }
        }
        _ => return None,
    };
    Some(value)
}

/// x / y rounded down (Python's `//`); `None` on division by zero or overflow.
pub fn floor_div(x: i64, y: i64) -> Option<i64> {
    let q = x.checked_div(y)?;
    Some(if x % y != 0 && ((x < 0) != (y < 0)) { q - 1 } else { q })
}

/// x - y * floor_div(x, y): the remainder with the sign of y (Python's `%`).
pub fn floor_rem(x: i64, y: i64) -> Option<i64> {
    x.checked_sub(y.checked_mul(floor_div(x, y)?)?)
}

/// An integer expression: numbers, N, bound variables and + - * / %.
fn integer(node: &Node, scope: &[String]) -> Result<(), SyntaxError> {
    match &node.expr {
        Expr::Number { integer: true, .. } | Expr::N => Ok(()),
        Expr::Number { integer: false, .. } => Err(SyntaxError::new(
            node.span.0,
            "a decimal number where an integer belongs (an index, a range or a condition)",
        )),
        Expr::Var(v) => known(v, scope, node.span.0),
        Expr::Neg(inner) => integer(inner, scope),
        Expr::Binary(_, l, r) => {
            integer(l, scope)?;
            integer(r, scope)
        }
        Expr::Key(_) => Err(SyntaxError::new(
            node.span.0,
            "a[...] where an integer belongs (an index, a range or a condition); indices are integer expressions in N",
        )),
        Expr::Aggregate { .. } => Err(SyntaxError::new(node.span.0, "sum(...) or mean(...) where an integer belongs")),
    }
}

fn known(var: &str, scope: &[String], at: usize) -> Result<(), SyntaxError> {
    if scope.iter().any(|v| v == var) {
        return Ok(());
    }
    Err(SyntaxError::new(at, unknown_name(var, scope)))
}

/// The message for a name that is neither a[...], N, sum, mean nor bound here.
fn unknown_name(var: &str, scope: &[String]) -> String {
    let hint = match var {
        "alpha" | "p" | "x" => ": Alice's probabilities are a[i]",
        "n" => ": the number of keys is N (capital)",
        "max" | "min" | "abs" => ": only sum(...) and mean(...) (max, min and abs are not linear)",
        _ => "",
    };
    let bound = if scope.is_empty() { String::new() } else { format!(", bound here: {}", scope.join(", ")) };
    format!("unknown name `{var}` (known: a[i], N, sum, mean{bound}){hint}")
}

/// A value expression, linear in a: at most one factor of a product and no
/// divisor involves a[...]; indices and domains are integers.
fn linear(node: &Node, scope: &mut Vec<String>) -> Result<(), SyntaxError> {
    match &node.expr {
        Expr::Number { .. } | Expr::N => Ok(()),
        Expr::Var(v) => known(v, scope, node.span.0),
        Expr::Key(index) => integer(index, scope),
        Expr::Neg(inner) => linear(inner, scope),
        Expr::Binary(op, l, r) => {
            linear(l, scope)?;
            linear(r, scope)?;
            match op {
                Op::Mul if degree_of(l) + degree_of(r) > 1 => Err(SyntaxError::new(
                    r.span.0,
                    "a product of two terms in a[...] is not linear (a claim is linear in a)",
                )),
                Op::Div if degree_of(r) > 0 => {
                    Err(SyntaxError::new(r.span.0, "dividing by a term in a[...] is not linear"))
                }
                Op::Rem => {
                    Err(SyntaxError::new(r.span.0, "`%` works on integers only (in an index, a range or a condition)"))
                }
                _ => Ok(()),
            }
        }
        Expr::Aggregate { body, var, domain, .. } => {
            check_domain(domain, scope)?;
            bind(var, scope, body.span.0)?;
            let checked = linear(body, scope);
            scope.pop();
            checked
        }
    }
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::Equal => "=",
            Relation::AtMost => "<=",
            Relation::Below => "<",
            Relation::AtLeast => ">=",
            Relation::Above => ">",
        })
    }
}
