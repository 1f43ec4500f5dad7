//! Building and reading Arrow record batches by column name, so games write
//! tables as a list of named columns and read them back without downcast noise.

use crate::game::Table;
use anyhow::{Context, anyhow};
use arrow::array::{
    Array, ArrayRef, BooleanArray, Float64Array, Int64Array, ListArray, StringArray, UInt8Array, UInt32Array,
    UInt64Array,
};
use arrow::datatypes::{DataType, Field, Schema, UInt8Type, UInt32Type};
use arrow::record_batch::RecordBatch;
use std::sync::Arc;

/// Accumulates named, non-null columns and builds a [`Table`].
#[derive(Default)]
pub struct TableBuilder {
    fields: Vec<Field>,
    arrays: Vec<ArrayRef>,
}

impl TableBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    fn push(mut self, name: &str, array: ArrayRef) -> Self {
        self.fields.push(Field::new(name, array.data_type().clone(), false));
        self.arrays.push(array);
        self
    }

    pub fn u8(self, name: &str, values: impl IntoIterator<Item = u8>) -> Self {
        self.push(name, Arc::new(UInt8Array::from_iter_values(values)))
    }
    pub fn u32(self, name: &str, values: impl IntoIterator<Item = u32>) -> Self {
        self.push(name, Arc::new(UInt32Array::from_iter_values(values)))
    }
    pub fn u64(self, name: &str, values: impl IntoIterator<Item = u64>) -> Self {
        self.push(name, Arc::new(UInt64Array::from_iter_values(values)))
    }
    pub fn i64(self, name: &str, values: impl IntoIterator<Item = i64>) -> Self {
        self.push(name, Arc::new(Int64Array::from_iter_values(values)))
    }
    pub fn f64(self, name: &str, values: impl IntoIterator<Item = f64>) -> Self {
        self.push(name, Arc::new(Float64Array::from_iter_values(values)))
    }
    pub fn bool(self, name: &str, values: impl IntoIterator<Item = bool>) -> Self {
        self.push(name, Arc::new(BooleanArray::from_iter(values.into_iter().map(Some))))
    }
    pub fn str<S: AsRef<str>>(self, name: &str, values: impl IntoIterator<Item = S>) -> Self {
        self.push(name, Arc::new(StringArray::from_iter_values(values)))
    }
    /// A column of small-integer lists (for example a tree's depth vector).
    pub fn u8_lists(self, name: &str, values: impl IntoIterator<Item = Vec<u8>>) -> Self {
        let lists = values.into_iter().map(|v| Some(v.into_iter().map(Some).collect::<Vec<_>>()));
        let array = ListArray::from_iter_primitive::<UInt8Type, _, _>(lists);
        // Lists of non-null items: declare the item field non-nullable.
        let item = Arc::new(Field::new("item", DataType::UInt8, false));
        let array = ListArray::new(item, array.offsets().clone(), array.values().clone(), None);
        self.push(name, Arc::new(array))
    }

    /// A column of integer lists (for example a row of card values).
    pub fn u32_lists(self, name: &str, values: impl IntoIterator<Item = Vec<u32>>) -> Self {
        let lists = values.into_iter().map(|v| Some(v.into_iter().map(Some).collect::<Vec<_>>()));
        let array = ListArray::from_iter_primitive::<UInt32Type, _, _>(lists);
        let item = Arc::new(Field::new("item", DataType::UInt32, false));
        let array = ListArray::new(item, array.offsets().clone(), array.values().clone(), None);
        self.push(name, Arc::new(array))
    }

    pub fn build(self, table: &'static str) -> anyhow::Result<Table> {
        let schema = Arc::new(Schema::new(self.fields));
        let batch = RecordBatch::try_new(schema, self.arrays).with_context(|| format!("building table {table}"))?;
        Ok(Table { name: table, batch })
    }
}

/// Typed column access by name.
pub trait Columns {
    fn column_as<T: Array + 'static>(&self, name: &str) -> anyhow::Result<&T>;

    fn u8s(&self, name: &str) -> anyhow::Result<&UInt8Array> {
        self.column_as(name)
    }
    fn u32s(&self, name: &str) -> anyhow::Result<&UInt32Array> {
        self.column_as(name)
    }
    fn u64s(&self, name: &str) -> anyhow::Result<&UInt64Array> {
        self.column_as(name)
    }
    fn i64s(&self, name: &str) -> anyhow::Result<&Int64Array> {
        self.column_as(name)
    }
    fn f64s(&self, name: &str) -> anyhow::Result<&Float64Array> {
        self.column_as(name)
    }
    fn bools(&self, name: &str) -> anyhow::Result<&BooleanArray> {
        self.column_as(name)
    }
    fn strs(&self, name: &str) -> anyhow::Result<&StringArray> {
        self.column_as(name)
    }
    /// Row `row` of a column of u32 lists.
    fn u32_list(&self, name: &str, row: usize) -> anyhow::Result<Vec<u32>> {
        let lists: &ListArray = self.column_as(name)?;
        let values = lists.value(row);
        let values = values.as_any().downcast_ref::<UInt32Array>().ok_or_else(|| anyhow!("{name}: not u32 lists"))?;
        Ok(values.values().to_vec())
    }
}

impl Columns for RecordBatch {
    fn column_as<T: Array + 'static>(&self, name: &str) -> anyhow::Result<&T> {
        let column = self.column_by_name(name).ok_or_else(|| anyhow!("missing column {name}"))?;
        column.as_any().downcast_ref::<T>().ok_or_else(|| anyhow!("column {name} has type {}", column.data_type()))
    }
}

/// The first difference between two tables, as "column c, row r: a vs b", or
/// `None` when they are equal (same columns, types and values).
pub fn first_difference(stored: &RecordBatch, expected: &RecordBatch) -> Option<String> {
    use arrow::util::display::array_value_to_string;
    if stored.schema() != expected.schema() {
        return Some(format!("schema differs: {:?} vs {:?}", stored.schema(), expected.schema()));
    }
    if stored.num_rows() != expected.num_rows() {
        return Some(format!("{} rows instead of {}", stored.num_rows(), expected.num_rows()));
    }
    for (field, (a, b)) in stored.schema().fields().iter().zip(stored.columns().iter().zip(expected.columns())) {
        if a != b {
            let row = (0..a.len()).find(|&i| a.slice(i, 1) != b.slice(i, 1)).unwrap_or(0);
            let show = |array: &ArrayRef| array_value_to_string(array, row).unwrap_or_else(|e| e.to_string());
            return Some(format!("column {}, row {row}: {} instead of {}", field.name(), show(a), show(b)));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_and_reads_back_by_name() {
        let table = TableBuilder::new()
            .u32("n", [1, 2])
            .f64("x", [0.5, 1.5])
            .str("p", ["1/2", "3/2"])
            .bool("ok", [true, false])
            .u8_lists("depths", [vec![1, 2], vec![2, 1, 2]])
            .u32_lists("values", [vec![7], vec![]])
            .build("demo")
            .unwrap();
        let batch = &table.batch;
        assert_eq!(batch.num_rows(), 2);
        assert_eq!(batch.u32s("n").unwrap().value(1), 2);
        assert_eq!(batch.strs("p").unwrap().value(0), "1/2");
        assert!(!batch.bools("ok").unwrap().value(1));
        assert!(batch.f64s("n").is_err());
        assert!(batch.u32s("missing").is_err());
        assert_eq!(batch.u32_list("values", 0).unwrap(), vec![7]);
        assert!(batch.u32_list("values", 1).unwrap().is_empty());
    }

    #[test]
    fn finds_the_first_difference() {
        let a = TableBuilder::new().u32("n", [1, 2, 3]).str("p", ["a", "b", "c"]).build("t").unwrap().batch;
        let b = TableBuilder::new().u32("n", [1, 2, 3]).str("p", ["a", "x", "c"]).build("t").unwrap().batch;
        assert_eq!(first_difference(&a, &a), None);
        assert_eq!(first_difference(&a, &b).unwrap(), "column p, row 1: b instead of x");
        let c = TableBuilder::new().u32("n", [1, 2]).str("p", ["a", "b"]).build("t").unwrap().batch;
        assert!(first_difference(&a, &c).unwrap().contains("rows"));
    }
}
