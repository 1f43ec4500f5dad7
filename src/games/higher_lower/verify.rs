//! Re-certifies stored higher-lower results from the Parquet rows alone:
//! Alice's alpha, Bob's trees and weights, and the value, checked by the
//! exact certificate (exact best response to alpha; exact worst key against
//! Bob's mixture), and the conjecture checks recomputed from alpha. No solver
//! state is reused.

use super::certificate::certify;
use super::conjectures;
use super::tree::Tree;
use crate::artifacts::columns::Columns;
use crate::exact::{Rational, parse_pq};
use crate::game::{StoredTask, Verdict};
use anyhow::anyhow;
use arrow::array::{Array, ListArray, UInt8Array};
use std::collections::BTreeMap;

pub fn verify(task: &StoredTask) -> anyhow::Result<Verdict> {
    let values = task.table("values")?;
    let (n_col, value_col, pivots_col) = (values.u32s("n")?, values.strs("value")?, values.u32s("exact_pivots")?);
    let (support_col, guesses_col) = (values.u32s("bob_support")?, values.u8s("bob_max_guesses")?);
    let (reason_col, status_col) = (values.strs("repair_reason")?, values.strs("exact_status")?);

    let alice = task.table("alice")?;
    let mut alphas: BTreeMap<u32, Vec<(u32, Rational)>> = BTreeMap::new();
    let (an, ai, ap) = (alice.u32s("n")?, alice.u32s("i")?, alice.strs("prob")?);
    for r in 0..alice.num_rows() {
        alphas.entry(an.value(r)).or_default().push((ai.value(r), parse(ap.value(r))?));
    }
    let bob = task.table("bob")?;
    let (bn, bw) = (bob.u32s("n")?, bob.strs("weight")?);
    let depths = bob.column_as::<ListArray>("depths")?;
    let mut mixtures: BTreeMap<u32, Vec<(Tree, Rational)>> = BTreeMap::new();
    for r in 0..bob.num_rows() {
        let list = depths.value(r);
        let d = list.as_any().downcast_ref::<UInt8Array>().ok_or_else(|| anyhow!("depths are not u8 lists"))?;
        let tree =
            Tree::from_depths(d.values().to_vec()).map_err(|e| anyhow!("stored tree of N = {}: {e}", bn.value(r)))?;
        mixtures.entry(bn.value(r)).or_default().push((tree, parse(bw.value(r))?));
    }

    let conjectures = task.table("conjectures")?;
    let (cn, cname, cholds) = (conjectures.u32s("n")?, conjectures.strs("name")?, conjectures.bools("holds")?);
    let mut stored_checks: BTreeMap<u32, Vec<(String, bool)>> = BTreeMap::new();
    for r in 0..conjectures.num_rows() {
        stored_checks.entry(cn.value(r)).or_default().push((cname.value(r).to_string(), cholds.value(r)));
    }

    let (mut certified, mut repaired, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    for row in 0..values.num_rows() {
        let n = n_col.value(row);
        let value = parse(value_col.value(row))?;
        let mut alpha = alphas.remove(&n).unwrap_or_default();
        alpha.sort_by_key(|(i, _)| *i);
        if alpha.len() != n as usize || alpha.iter().enumerate().any(|(k, (i, _))| *i as usize != k + 1) {
            failed.push(format!("N = {n}: Alice's strategy has {} of {n} keys", alpha.len()));
            continue;
        }
        let alpha: Vec<Rational> = alpha.into_iter().map(|(_, p)| p).collect();
        let recomputed: Vec<(String, bool)> =
            conjectures::check(&alpha).into_iter().map(|c| (c.name.to_string(), c.holds)).collect();
        let checks_agree = stored_checks.remove(&n).unwrap_or_default() == recomputed;
        let mixture = mixtures.remove(&n).unwrap_or_default();
        match certify(&value, &alpha, &mixture) {
            Err(why) => failed.push(format!("N = {n}: {why}")),
            Ok(cert)
                if cert.bob_support as u32 != support_col.value(row)
                    || cert.bob_max_guesses != guesses_col.value(row) =>
            {
                failed.push(format!("N = {n}: stored support or max guesses disagree with the strategies"))
            }
            Ok(_) if !checks_agree => {
                failed.push(format!("N = {n}: stored conjecture checks disagree with Alice's stored strategy"))
            }
            Ok(_) if status_col.value(row) == "repaired" => {
                repaired.push(format!("N = {n} ({} exact pivots: {})", pivots_col.value(row), reason_col.value(row)))
            }
            Ok(_) => certified.push(n),
        }
    }
    let summary = format!(
        "{} values certified exactly (alpha's best response and Bob's worst key both equal V){}",
        certified.len() + repaired.len(),
        ranges(&certified)
    );
    Ok(if !failed.is_empty() {
        Verdict::failed(format!("{} failed: {}", failed.len(), failed.join("; ")))
    } else if !repaired.is_empty() {
        Verdict::repaired(
            format!("{summary}; float basis not optimal, repaired by exact pivots: {}", repaired.join("; ")),
            Vec::new(),
        )
    } else {
        Verdict::certified(summary)
    })
}

fn parse(text: &str) -> anyhow::Result<Rational> {
    parse_pq(text).map_err(|e| anyhow!(e))
}

/// " (N = 1..20, 25)" style summary of certified N.
pub(super) fn ranges(ns: &[u32]) -> String {
    if ns.is_empty() {
        return String::new();
    }
    let mut parts: Vec<String> = Vec::new();
    let mut start = ns[0];
    for w in 0..ns.len() {
        let end_of_run = w + 1 == ns.len() || ns[w + 1] != ns[w] + 1;
        if end_of_run {
            parts.push(if start == ns[w] { start.to_string() } else { format!("{start}..{}", ns[w]) });
            if w + 1 < ns.len() {
                start = ns[w + 1];
            }
        }
    }
    format!(" (N = {})", parts.join(", "))
}
