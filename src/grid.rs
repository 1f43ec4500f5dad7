//! Parameter grids for configs: bounded integers, and lists or ranges of them.
//!
//! Bounds are checked while deserializing, so an out-of-range value is
//! reported with its file position and key path like any other config error.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// An integer in `MIN..=MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bounded<const MIN: u32, const MAX: u32>(u32);

impl<const MIN: u32, const MAX: u32> Bounded<MIN, MAX> {
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
        let value = i64::deserialize(deserializer)?;
        Self::check(value)
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
        while let Some(value) = seq.next_element::<i64>()? {
            values.push(value);
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
            *slot = Some(map.next_value::<i64>()?);
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
}
