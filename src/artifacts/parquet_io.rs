//! Parquet encoding of record batches (arrow-rs), one batch per file.

use anyhow::Context;
use arrow::record_batch::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::path::Path;

pub fn write_batch(file: &mut std::fs::File, batch: &RecordBatch) -> anyhow::Result<()> {
    let props = WriterProperties::builder().set_compression(Compression::SNAPPY).build();
    let mut writer = ArrowWriter::try_new(file, batch.schema(), Some(props))?;
    writer.write(batch)?;
    writer.close()?;
    Ok(())
}

pub fn read_batch(path: &Path) -> anyhow::Result<RecordBatch> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .with_context(|| format!("reading {}", path.display()))?
        .build()?;
    let schema = arrow::record_batch::RecordBatchReader::schema(&reader);
    let batches = reader.collect::<Result<Vec<_>, _>>().with_context(|| format!("decoding {}", path.display()))?;
    Ok(arrow::compute::concat_batches(&schema, &batches)?)
}
