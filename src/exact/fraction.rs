//! Exact values as the reduced `"p/q"` strings stored next to an f64 column.

use malachite::Rational;
use malachite::base::num::conversion::traits::RoundingFrom;
use malachite::base::rounding_modes::RoundingMode;
use std::str::FromStr;

/// Formats `r` as `"p/q"`: reduced, q > 0, and always with a denominator
/// (integers as `"n/1"`) so that every cell parses the same way.
pub fn format_pq(r: &Rational) -> String {
    let (num, den) = r.to_numerator_and_denominator();
    let sign = if *r < 0u32 { "-" } else { "" };
    format!("{sign}{num}/{den}")
}

/// Parses a `"p/q"` (or plain integer) cell back into an exact rational.
pub fn parse_pq(text: &str) -> Result<Rational, String> {
    let (num, den) = text.split_once('/').unwrap_or((text, "1"));
    let num = malachite::Integer::from_str(num.trim()).map_err(|_| format!("bad numerator in {text:?}"))?;
    let den = malachite::Integer::from_str(den.trim()).map_err(|_| format!("bad denominator in {text:?}"))?;
    if den <= 0u32 {
        return Err(format!("denominator must be positive in {text:?}"));
    }
    Ok(Rational::from_integers(num, den))
}

/// Parses a cell that must be exactly as [`format_pq`] writes it: `"p/q"`
/// with q > 0, no leading zeros or plus sign, and p/q reduced. Cheaper than
/// formatting the parsed value again (the check is one gcd).
pub fn parse_canonical_pq(text: &str) -> Result<Rational, String> {
    let bad = |why: &str| format!("{text:?} is not a reduced fraction p/q ({why})");
    let (num, den) = text.split_once('/').ok_or_else(|| bad("no denominator"))?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    if !digits(num.strip_prefix('-').unwrap_or(num)) || num == "-0" || !digits(den) || den == "0" {
        return Err(bad("malformed"));
    }
    let num = malachite::Integer::from_str(num).map_err(|_| bad("malformed numerator"))?;
    let den = malachite::Natural::from_str(den).map_err(|_| bad("malformed denominator"))?;
    let value = Rational::from_integers(num, malachite::Integer::from(den.clone()));
    if *value.denominator_ref() != den {
        return Err(bad("not reduced"));
    }
    Ok(value)
}

/// The f64 nearest to `r` (ties to even): the f64 columns are exactly the
/// correctly rounded exact values whenever an exact value exists.
pub fn to_f64(r: &Rational) -> f64 {
    f64::rounding_from(r, RoundingMode::Nearest).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_cells_are_exactly_what_format_writes() {
        for text in ["3/2", "-2/1", "0/1", "1/6"] {
            assert_eq!(format_pq(&parse_canonical_pq(text).unwrap()), text);
        }
        for text in ["6/4", "3", "03/2", "3/02", "+3/2", "-0/1", "3/0", "3/-2", "a/2", "3/2 ", "/2", "1/"] {
            assert!(parse_canonical_pq(text).is_err(), "{text}");
        }
    }

    #[test]
    fn formats_reduced_with_denominator() {
        assert_eq!(format_pq(&Rational::from_signeds(6, 4)), "3/2");
        assert_eq!(format_pq(&Rational::from_signeds(-6, 3)), "-2/1");
        assert_eq!(format_pq(&Rational::from(0u32)), "0/1");
    }

    #[test]
    fn parses_what_it_formats() {
        for (p, q) in [(187i64, 62i64), (-5, 9), (0, 1), (12, 1)] {
            let r = Rational::from_signeds(p, q);
            assert_eq!(parse_pq(&format_pq(&r)).unwrap(), r);
        }
        assert_eq!(parse_pq("7").unwrap(), Rational::from(7u32));
        assert!(parse_pq("1/0").is_err());
        assert!(parse_pq("x/2").is_err());
    }

    #[test]
    fn rounds_to_nearest() {
        assert_eq!(to_f64(&Rational::from_signeds(1, 3)), 1.0 / 3.0);
        assert_eq!(to_f64(&Rational::from_signeds(-2, 7)), -2.0 / 7.0);
    }
}
