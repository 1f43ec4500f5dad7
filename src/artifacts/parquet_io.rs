//! Parquet encoding of record batches (arrow-rs), one batch per file.

use anyhow::Context;
use arrow::array::ArrayRef;
use arrow::datatypes::{DataType, Field, Schema};
use arrow::record_batch::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::ChunkReader;
use std::path::Path;
use std::sync::Arc;

/// One batch as one Parquet file.
pub fn write_batch(writer: impl std::io::Write + Send, batch: &RecordBatch) -> anyhow::Result<()> {
    write_batches(writer, &[batch])
}

/// Batches of one schema, in order, as one Parquet file.
pub fn write_batches(writer: impl std::io::Write + Send, batches: &[&RecordBatch]) -> anyhow::Result<()> {
    encode(writer, batches.iter().copied(), zstd()?.build())
}

/// Zstandard at level 3: higher-lower's tree depth vectors (N bytes per tree)
/// shrink to about half of Snappy's size at a similar write speed.
fn zstd() -> anyhow::Result<parquet::file::properties::WriterPropertiesBuilder> {
    Ok(WriterProperties::builder().set_compression(Compression::ZSTD(ZstdLevel::try_new(3)?)))
}

/// Batches of one schema, in order, through one writer of `props`.
fn encode<'a>(
    writer: impl std::io::Write + Send,
    batches: impl IntoIterator<Item = &'a RecordBatch>,
    props: WriterProperties,
) -> anyhow::Result<()> {
    let mut batches = batches.into_iter().peekable();
    let schema = batches.peek().map(|batch| batch.schema()).context("no batches")?;
    let mut writer = ArrowWriter::try_new(writer, schema, Some(props))?;
    for batch in batches {
        writer.write(batch)?;
    }
    writer.close()?;
    Ok(())
}

/// Rows per row group of an export: a large table is encoded a row group at
/// a time, not held whole beside its encoding.
const EXPORT_ROW_GROUP: usize = 64 * 1024;

/// Batches of one schema in one file, as `write_batch` does, with key-value
/// metadata in the file's footer (an export's provenance).
pub fn write_batches_with_metadata(
    writer: impl std::io::Write + Send,
    batches: &[RecordBatch],
    metadata: Vec<(String, String)>,
) -> anyhow::Result<()> {
    let metadata = metadata.into_iter().map(|(key, value)| KeyValue::new(key, value)).collect();
    let props =
        zstd()?.set_max_row_group_row_count(Some(EXPORT_ROW_GROUP)).set_key_value_metadata(Some(metadata)).build();
    encode(writer, batches, props)
}

pub fn read_batch(path: &Path) -> anyhow::Result<RecordBatch> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    decode(file).with_context(|| format!("reading {}", path.display()))
}

/// The row count in a Parquet file's footer (without reading its data).
pub fn count_rows(path: &Path) -> anyhow::Result<u64> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).context("unreadable Parquet footer")?;
    Ok(builder.metadata().file_metadata().num_rows().max(0) as u64)
}

/// One Parquet file's rows, from any source (a file, or bytes in memory).
pub fn decode(source: impl ChunkReader + 'static) -> anyhow::Result<RecordBatch> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(source)?.build()?;
    let schema = arrow::record_batch::RecordBatchReader::schema(&reader);
    let batches = reader.collect::<Result<Vec<_>, _>>()?;
    canonical(arrow::compute::concat_batches(&schema, &batches)?)
}

/// Casts the string and list encodings other writers use (polars writes
/// `LargeUtf8` and `LargeList`) to the ones gamesweep writes, so a part
/// rewritten in a notebook still reads back.
fn canonical(batch: RecordBatch) -> anyhow::Result<RecordBatch> {
    let target = |t: &DataType| match t {
        DataType::LargeUtf8 | DataType::Utf8View => Some(DataType::Utf8),
        DataType::LargeList(item) | DataType::ListView(item) => Some(DataType::List(item.clone())),
        _ => None,
    };
    if batch.schema().fields().iter().all(|f| target(f.data_type()).is_none()) {
        return Ok(batch);
    }
    let mut fields = Vec::new();
    let mut columns: Vec<ArrayRef> = Vec::new();
    for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
        match target(field.data_type()) {
            Some(t) => {
                columns.push(arrow::compute::cast(column, &t)?);
                fields.push(Field::new(field.name(), t, field.is_nullable()));
            }
            None => {
                columns.push(column.clone());
                fields.push(field.as_ref().clone());
            }
        }
    }
    Ok(RecordBatch::try_new(Arc::new(Schema::new(fields)), columns)?)
}
