//! Parameter grids for configs: bounded integers, and lists or ranges of them.
//!
//! Bounds are checked while deserializing, so an out-of-range value is
//! reported with its file position and key path like any other config error.

use crate::exact::Rational;
use malachite::base::num::arithmetic::traits::Pow;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::str::FromStr;

/// An integer in `MIN..=MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bounded<const MIN: u32, const MAX: u32>(u32);

impl<const MIN: u32, const MAX: u32> Bounded<MIN, MAX> {
    /// A value known in the code (a config default); out of range is a bug, so
    /// it panics (at compile time in a `const` block).
    pub const fn new(value: u32) -> Self {
        assert!(MIN <= value && value <= MAX, "Bounded::new: value out of range");
        Bounded(value)
    }

    pub fn get(self) -> u32 {
        self.0
    }

    fn check<E: de::Error>(value: i64) -> Result<Self, E> {
        if (i64::from(MIN)..=i64::from(MAX)).contains(&value) {
            Ok(Bounded(value as u32))
        } else {
            Err(E::invalid_value(de::Unexpected::Signed(value), &Self::expected().as_str()))
        }
    }

    fn expected() -> String {
        format!("an integer from {MIN} to {MAX}")
    }
}

impl<'de, const MIN: u32, const MAX: u32> Deserialize<'de> for Bounded<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IntegerVisitor::<MIN, MAX>)
    }
}

/// One integer in `MIN..=MAX`; any other type is refused with the range
/// ("invalid type: floating point `2.5`, expected an integer from 1 to 4096").
struct IntegerVisitor<const MIN: u32, const MAX: u32>;

impl<'de, const MIN: u32, const MAX: u32> Visitor<'de> for IntegerVisitor<MIN, MAX> {
    type Value = Bounded<MIN, MAX>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an integer from {MIN} to {MAX}")
    }
    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Self::Value, E> {
        Bounded::check(value)
    }
    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Self::Value, E> {
        Bounded::check(i64::try_from(value).unwrap_or(i64::MAX))
    }
}

/// Any integer (a range's ends and step, checked against the grid's range after).
struct Int(i64);

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IntVisitor;
        impl Visitor<'_> for IntVisitor {
            type Value = Int;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: de::Error>(self, value: i64) -> Result<Int, E> {
                Ok(Int(value))
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> Result<Int, E> {
                Ok(Int(i64::try_from(value).unwrap_or(i64::MAX)))
            }
        }
        deserializer.deserialize_any(IntVisitor)
    }
}

/// A list of distinct integers in `MIN..=MAX`, written in a config as one
/// integer (`5`), a list (`[1, 2, 8]`) or a range (`{ from = 1, to = 300, step = 1 }`,
/// `step` optional).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntGrid<const MIN: u32, const MAX: u32>(Vec<u32>);

impl<const MIN: u32, const MAX: u32> IntGrid<MIN, MAX> {
    pub fn values(&self) -> &[u32] {
        &self.0
    }

    fn from_values<E: de::Error>(values: Vec<i64>) -> Result<Self, E> {
        if values.is_empty() {
            return Err(E::invalid_length(0, &"at least one value"));
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::with_capacity(values.len());
        for value in values {
            let value = Bounded::<MIN, MAX>::check::<E>(value)?.get();
            if !seen.insert(value) {
                return Err(E::custom(format!("duplicate value {value}")));
            }
            out.push(value);
        }
        Ok(IntGrid(out))
    }
}

impl<'de, const MIN: u32, const MAX: u32> Deserialize<'de> for IntGrid<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(GridVisitor::<MIN, MAX>)
    }
}

struct GridVisitor<const MIN: u32, const MAX: u32>;

impl<'de, const MIN: u32, const MAX: u32> Visitor<'de> for GridVisitor<MIN, MAX> {
    type Value = IntGrid<MIN, MAX>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an integer from {MIN} to {MAX}, a list of them, or a range {{ from, to, step }}")
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Self::Value, E> {
        IntGrid::from_values(vec![value])
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Self::Value, E> {
        IntGrid::from_values(vec![i64::try_from(value).unwrap_or(i64::MAX)])
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut values = Vec::new();
        while let Some(value) = seq.next_element::<Bounded<MIN, MAX>>()? {
            values.push(i64::from(value.get()));
        }
        IntGrid::from_values(values)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut from, mut to, mut step) = (None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            let slot = match key.as_str() {
                "from" => &mut from,
                "to" => &mut to,
                "step" => &mut step,
                other => return Err(de::Error::unknown_field(other, &["from", "to", "step"])),
            };
            *slot = Some(map.next_value::<Int>()?.0);
        }
        let from = from.ok_or_else(|| de::Error::missing_field("from"))?;
        let to = to.ok_or_else(|| de::Error::missing_field("to"))?;
        let step = step.unwrap_or(1);
        if step < 1 {
            return Err(de::Error::custom(format!("step must be at least 1, got {step}")));
        }
        if from > to {
            return Err(de::Error::custom(format!("empty range: from {from} is above to {to}")));
        }
        // Check the ends before expanding so that a huge range fails fast.
        Bounded::<MIN, MAX>::check::<A::Error>(from)?;
        Bounded::<MIN, MAX>::check::<A::Error>(to)?;
        IntGrid::from_values((from..=to).step_by(step as usize).collect())
    }
}

/// Parses an exact number written as a decimal ("1.25", "1e2", "2.5E-3") or
/// a fraction ("5/4"): exactly the number written, never a rounded double.
pub fn parse_exact(text: &str) -> Result<Rational, String> {
    let text = text.trim();
    let bad = || format!("{text:?} is not a number (write a decimal like 1.5 or 1e2, or a fraction like 3/2)");
    if text.contains('/') {
        return crate::exact::parse_pq(text).map_err(|_| bad());
    }
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().map_err(|_| bad())?),
        None => (text, 0),
    };
    // Exponents beyond this are no number a config means (and 10^huge would not fit in memory).
    if exponent.unsigned_abs() > 400 {
        return Err(format!("{text:?} is out of range (exponent {exponent})"));
    }
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let unsigned = digits.strip_prefix(['-', '+']).unwrap_or(&digits);
    if unsigned.is_empty() || !unsigned.chars().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let numerator = crate::exact::Integer::from_str(digits.trim_start_matches('+')).map_err(|_| bad())?;
    let shift = i64::from(exponent) - fraction.len() as i64;
    let power = Rational::from(crate::exact::Integer::from(10u32).pow(shift.unsigned_abs()));
    let numerator = Rational::from(numerator);
    Ok(if shift >= 0 { numerator * power } else { numerator / power })
}

/// The smallest non-zero number an exact setting may take. The solvers work in
/// doubles and the exact check certifies their choices: below this a weight
/// rounds to zero or to a subnormal, the double solve then answers another game
/// (1e-400 ran and failed verification), so it is refused when planned.
const SMALLEST_NONZERO_EXPONENT: u64 = 300;

/// Checks that an exact setting is 0 or in [1e-300, max]; the error names the
/// value and the allowed range.
pub fn check_exact_range(value: &Rational, max: u32) -> Result<(), String> {
    if *value < 0u32 || *value > max {
        return Err(format!("{} is out of range, expected a number from 0 to {max}", format_decimal(value)));
    }
    let smallest =
        Rational::from_naturals(1u32.into(), crate::exact::Natural::from(10u32).pow(SMALLEST_NONZERO_EXPONENT));
    if *value != 0u32 && *value < smallest {
        return Err(format!(
            "{} is too small, expected 0 or a number from 1e-{SMALLEST_NONZERO_EXPONENT} to {max} (the solvers work in doubles)",
            format_decimal(value)
        ));
    }
    Ok(())
}

/// A list of exact numbers in [0, MAX], written in a config as one number, a
/// list, or a range `{ from, to, step }`. Numbers may be TOML numbers (read as
/// the decimal they are written as: 0.1 is exactly 1/10) or strings holding a
/// decimal or a fraction ("1/3").
#[derive(Debug, Clone, PartialEq)]
pub struct ExactGrid<const MAX: u32>(Vec<Rational>);

/// The most values one range may expand to.
const MAX_GRID_VALUES: usize = 100_000;

impl<const MAX: u32> ExactGrid<MAX> {
    /// The grid of one integer known in the code (a config default); panics
    /// when it is above MAX.
    pub fn integer(value: u32) -> Self {
        assert!(value <= MAX, "ExactGrid::integer: value out of range");
        ExactGrid(vec![Rational::from(value)])
    }

    pub fn values(&self) -> &[Rational] {
        &self.0
    }

    fn check<E: de::Error>(value: Rational) -> Result<Rational, E> {
        check_exact_range(&value, MAX).map_err(E::custom)?;
        Ok(value)
    }

    fn from_values<E: de::Error>(values: Vec<Rational>) -> Result<Self, E> {
        if values.is_empty() {
            return Err(E::invalid_length(0, &"at least one value"));
        }
        let values = values.into_iter().map(Self::check).collect::<Result<Vec<_>, E>>()?;
        if let Some((_, repeat)) = first_repeat(&values) {
            return Err(E::custom(format!("duplicate value {}", format_decimal(&values[repeat]))));
        }
        Ok(ExactGrid(values))
    }
}

/// A short text form of an exact number: the decimal when it terminates
/// within a few digits (in scientific notation when large or tiny: 1e300),
/// else "p/q".
pub fn format_decimal(value: &Rational) -> String {
    let f = crate::exact::to_f64(value);
    if f.abs() < 1e-300 && *value != 0u32 {
        return format_tiny(value);
    }
    let text = if f != 0.0 && !(1e-6..1e15).contains(&f.abs()) { format!("{f:e}") } else { f.to_string() };
    match parse_exact(&text) {
        Ok(back) if back == *value => text,
        _ if f.abs() >= 1e15 => format!("about {f:e}"),
        _ => crate::exact::format_pq(value),
    }
}

/// A non-zero number below the doubles' normal range (1e-400): its mantissa
/// and decimal exponent are computed apart, so it prints as written.
fn format_tiny(value: &Rational) -> String {
    let digits = |n: &crate::exact::Natural| n.to_string().len() as u64;
    let shift = digits(value.denominator_ref()).saturating_sub(digits(value.numerator_ref()));
    let scaled = value * Rational::from(crate::exact::Natural::from(10u32).pow(shift));
    let mantissa = format_decimal(&scaled);
    let text = format!("{}e-{shift}", mantissa.trim_end_matches("e0"));
    match parse_exact(&text) {
        Ok(back) if back == *value => text,
        _ => format!("about {:e}e-{shift}", crate::exact::to_f64(&scaled)),
    }
}

/// One exact number from a TOML value: a number, or a string with a decimal or fraction.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactNumber(pub Rational);

impl<'de> Deserialize<'de> for ExactNumber {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NumberVisitor).map(ExactNumber)
    }
}

struct NumberVisitor;

impl<'de> Visitor<'de> for NumberVisitor {
    type Value = Rational;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a number, or a string with a decimal or a fraction like \"3/2\"")
    }
    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Rational, E> {
        Ok(Rational::from(value))
    }
    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Rational, E> {
        Ok(Rational::from(value))
    }
    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Rational, E> {
        // Rust prints the shortest decimal that reads back as the same f64:
        // the number as the user wrote it (0.1 -> "0.1" -> 1/10; 1e300 -> "1e300").
        if !value.is_finite() {
            return Err(E::custom(format!("{value} is not a finite number")));
        }
        parse_exact(&format!("{value:e}")).map_err(E::custom)
    }
    fn visit_str<E: de::Error>(self, value: &str) -> Result<Rational, E> {
        parse_exact(value).map_err(E::custom)
    }
}

impl<'de, const MAX: u32> Deserialize<'de> for ExactGrid<MAX> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ExactGridVisitor::<MAX>)
    }
}

struct ExactGridVisitor<const MAX: u32>;

impl<'de, const MAX: u32> Visitor<'de> for ExactGridVisitor<MAX> {
    type Value = ExactGrid<MAX>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a number from 0 to {MAX}, a list of them, or a range {{ from, to, step }}")
    }
    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Self::Value, E> {
        ExactGrid::from_values(vec![NumberVisitor.visit_i64(value)?])
    }
    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Self::Value, E> {
        ExactGrid::from_values(vec![NumberVisitor.visit_u64(value)?])
    }
    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Self::Value, E> {
        ExactGrid::from_values(vec![NumberVisitor.visit_f64(value)?])
    }
    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        ExactGrid::from_values(vec![NumberVisitor.visit_str(value)?])
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut values = Vec::new();
        while let Some(ExactNumber(value)) = seq.next_element()? {
            values.push(value);
        }
        ExactGrid::from_values(values)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut from, mut to, mut step) = (None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            let slot = match key.as_str() {
                "from" => &mut from,
                "to" => &mut to,
                "step" => &mut step,
                other => return Err(de::Error::unknown_field(other, &["from", "to", "step"])),
            };
            *slot = Some(map.next_value::<ExactNumber>()?.0);
        }
        let from = ExactGrid::<MAX>::check(from.ok_or_else(|| de::Error::missing_field("from"))?)?;
        let to = ExactGrid::<MAX>::check(to.ok_or_else(|| de::Error::missing_field("to"))?)?;
        let step = step.unwrap_or_else(|| Rational::from(1u32));
        if step <= 0u32 {
            return Err(de::Error::custom(format!("step must be positive, got {}", format_decimal(&step))));
        }
        if from > to {
            return Err(de::Error::custom(format!(
                "empty range: from {} is above to {}",
                format_decimal(&from),
                format_decimal(&to)
            )));
        }
        let count = crate::exact::to_f64(&((&to - &from) / &step)).floor() as usize + 1;
        if count > MAX_GRID_VALUES {
            return Err(de::Error::custom(format!("the range has {count} values, at most {MAX_GRID_VALUES} allowed")));
        }
        let values = (0..count).map(|k| &from + &step * Rational::from(k)).filter(|v| *v <= to).collect();
        ExactGrid::from_values(values)
    }
}

/// How a config value is shown in messages (as the user would write it).
pub trait Described {
    fn described(&self) -> String;
}

impl Described for Vec<u64> {
    fn described(&self) -> String {
        format!("[{}]", self.iter().map(u64::to_string).collect::<Vec<_>>().join(", "))
    }
}

impl Described for String {
    fn described(&self) -> String {
        format!("{self:?}")
    }
}

impl<T: Described> Described for Vec<T> {
    fn described(&self) -> String {
        format!("[{}]", self.iter().map(Described::described).collect::<Vec<_>>().join(", "))
    }
}

/// A list whose values are all different: a repeated value is refused (one
/// rule for every list of a config, as for the integer and number grids).
#[derive(Debug, Clone, PartialEq)]
pub struct Distinct<T>(Vec<T>);

impl<T> Distinct<T> {
    pub fn values(&self) -> &[T] {
        &self.0
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<T> From<Vec<T>> for Distinct<T> {
    /// For defaults written in code (which the code keeps distinct).
    fn from(values: Vec<T>) -> Self {
        Distinct(values)
    }
}

impl<T> Default for Distinct<T> {
    fn default() -> Self {
        Distinct(Vec::new())
    }
}

impl<'de, T: Deserialize<'de> + Ord + Described> Deserialize<'de> for Distinct<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let values = Vec::<T>::deserialize(deserializer)?;
        if let Some((first, k)) = first_repeat(&values) {
            return Err(de::Error::custom(format!(
                "duplicate value {} (entries {} and {}); give each value once",
                values[k].described(),
                first + 1,
                k + 1
            )));
        }
        Ok(Distinct(values))
    }
}

/// The first value that repeats an earlier one, as (index of the earlier,
/// index of the repeat), in O(n log n): a million values take a moment.
fn first_repeat<T: Ord>(values: &[T]) -> Option<(usize, usize)> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[i].cmp(&values[j]).then(i.cmp(&j)));
    order.windows(2).filter(|w| values[w[0]] == values[w[1]]).map(|w| (w[0], w[1])).min_by_key(|&(_, repeat)| repeat)
}

/// Exactly two numbers, `[a, b]` (a goal [lambda, mu]): a third is refused.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pair(pub Rational, pub Rational);

impl Described for Pair {
    fn described(&self) -> String {
        format!("[{}, {}]", format_decimal(&self.0), format_decimal(&self.1))
    }
}

impl<'de> Deserialize<'de> for Pair {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(PairVisitor)
    }
}

struct PairVisitor;

impl<'de> Visitor<'de> for PairVisitor {
    type Value = Pair;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a pair of numbers [lambda, mu]")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Pair, A::Error> {
        let mut numbers = Vec::new();
        while let Some(ExactNumber(value)) = seq.next_element()? {
            numbers.push(value);
        }
        match <[Rational; 2]>::try_from(numbers) {
            Ok([a, b]) => Ok(Pair(a, b)),
            Err(numbers) => {
                Err(de::Error::custom(format!("a pair is exactly two numbers [lambda, mu], got {}", numbers.len())))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Holder {
        n: IntGrid<1, 1000>,
    }

    fn grid(text: &str) -> Result<Vec<u32>, String> {
        toml::from_str::<Holder>(&format!("n = {text}"))
            .map(|h| h.n.values().to_vec())
            .map_err(|e| e.message().to_string())
    }

    #[test]
    fn accepts_value_list_and_range() {
        assert_eq!(grid("7").unwrap(), vec![7]);
        assert_eq!(grid("[3, 1, 2]").unwrap(), vec![3, 1, 2]);
        assert_eq!(grid("{ from = 1, to = 7, step = 3 }").unwrap(), vec![1, 4, 7]);
        assert_eq!(grid("{ from = 998, to = 1000 }").unwrap(), vec![998, 999, 1000]);
    }

    #[derive(serde::Deserialize)]
    struct Exact {
        x: ExactGrid<100>,
    }

    fn exact(text: &str) -> Result<Vec<String>, String> {
        toml::from_str::<Exact>(&format!("x = {text}"))
            .map(|h| h.x.values().iter().map(crate::exact::format_pq).collect())
            .map_err(|e| e.message().to_string())
    }

    #[test]
    fn exact_grids_read_decimals_and_fractions_exactly() {
        assert_eq!(exact("0.1").unwrap(), vec!["1/10"]);
        assert_eq!(exact("[1, 1.5, \"1/3\", \"0.25\"]").unwrap(), vec!["1/1", "3/2", "1/3", "1/4"]);
        assert_eq!(exact("{ from = 0, to = 1, step = 0.25 }").unwrap().len(), 5);
        assert_eq!(exact("{ from = 0, to = 1, step = \"1/3\" }").unwrap(), vec!["0/1", "1/3", "2/3", "1/1"]);
        assert!(exact("101").unwrap_err().contains("from 0 to 100"));
        assert!(exact("-0.5").unwrap_err().contains("from 0 to 100"));
        assert!(exact("\"abc\"").unwrap_err().contains("not a number"));
        assert!(exact("[1, 1.0]").unwrap_err().contains("duplicate value 1"));
        assert!(exact("{ from = 0, to = 1, step = 0 }").unwrap_err().contains("step must be positive"));
        assert!(exact("{ from = 0, to = 100, step = 0.0001 }").unwrap_err().contains("at most"));
        assert_eq!(format_decimal(&parse_exact("1.5").unwrap()), "1.5");
        assert_eq!(format_decimal(&parse_exact("1/3").unwrap()), "1/3");
    }

    #[derive(serde::Deserialize, Debug)]
    struct Pairs {
        p: Distinct<Pair>,
    }

    #[test]
    fn pairs_are_two_numbers_and_lists_are_distinct() {
        let pairs = |text: &str| toml::from_str::<Pairs>(&format!("p = {text}")).map_err(|e| e.message().to_string());
        assert_eq!(
            pairs("[[1, 1.5], [2, 0]]").unwrap().p.values()[0],
            Pair(Rational::from(1), Rational::from_signeds(3, 2))
        );
        assert!(pairs("[[1, 1, 1]]").unwrap_err().contains("exactly two numbers [lambda, mu], got 3"));
        assert!(pairs("[[1]]").unwrap_err().contains("got 1"));
        assert!(pairs("[[1, 2], [3, 4], [1, 2.0]]").unwrap_err().contains("duplicate value [1, 2] (entries 1 and 3)"));
        assert!(grid("2.5").unwrap_err().contains("expected an integer from 1 to 1000"));
        assert!(grid("[1, 2.5]").unwrap_err().contains("expected an integer from 1 to 1000"));
    }

    #[test]
    fn exact_numbers_take_exponents_and_print_short() {
        assert_eq!(parse_exact("1e2").unwrap(), Rational::from(100));
        assert_eq!(parse_exact("2.5E-3").unwrap(), Rational::from_signeds(1, 400));
        assert_eq!(parse_exact("-1.5").unwrap(), Rational::from_signeds(-3, 2));
        assert!(parse_exact("1e").is_err() && parse_exact("e5").is_err() && parse_exact("1e9999").is_err());
        assert_eq!(format_decimal(&parse_exact("1e300").unwrap()), "1e300");
        assert_eq!(format_decimal(&parse_exact("0.1").unwrap()), "0.1");
        assert_eq!(exact("1e300").unwrap_err(), "1e300 is out of range, expected a number from 0 to 100");
    }

    #[test]
    fn rejects_out_of_range_duplicates_and_bad_ranges() {
        assert!(grid("0").unwrap_err().contains("from 1 to 1000"));
        assert!(grid("-3").unwrap_err().contains("from 1 to 1000"));
        assert!(grid("[1, 2, 1]").unwrap_err().contains("duplicate value 1"));
        assert!(grid("[]").is_err());
        assert!(grid("{ from = 5, to = 1 }").unwrap_err().contains("empty range"));
        assert!(grid("{ from = 1, to = 5000 }").unwrap_err().contains("from 1 to 1000"));
        assert!(grid("{ from = 1, to = 5, stp = 1 }").unwrap_err().contains("unknown field"));
        assert!(grid("\"x\"").is_err());
    }

    #[test]
    fn settings_below_the_doubles_range_are_refused_and_printed_as_written() {
        let exact = |text: &str| parse_exact(text).unwrap();
        assert!(check_exact_range(&exact("0"), 10).is_ok());
        assert!(check_exact_range(&exact("1e-300"), 10).is_ok());
        assert!(check_exact_range(&exact("10"), 10).is_ok());
        let tiny = check_exact_range(&exact("1e-400"), 10).unwrap_err();
        assert_eq!(tiny, "1e-400 is too small, expected 0 or a number from 1e-300 to 10 (the solvers work in doubles)");
        assert!(check_exact_range(&exact("9.99e-301"), 10).unwrap_err().starts_with("9.99e-301 is too small"));
        assert!(check_exact_range(&exact("-1e-400"), 10).unwrap_err().contains("out of range"));
        assert_eq!(format_decimal(&exact("3.5e-350")), "3.5e-350");
        assert!(format_decimal(&(exact("1e-350") / Rational::from(3))).starts_with("about 3.33"));
    }
}
