//! A program using the dbdf crate with its `bundled` feature: writes a matrix, reads it back, and tells a missing
//! file apart from other failures.

use dbdf::{DataType, Reader, ValueType, WriteOptions, Writer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let values: Vec<f64> = (0..12).map(f64::from).collect();
    let mut writer = Writer::create("matrix.dbdf")?;
    writer.begin_matrix(DataType::Dense, ValueType::F64, 3, 4)?;
    writer.write_dense(&values, 0, &WriteOptions::new())?;
    writer.finish()?;

    let mut reader = Reader::open("matrix.dbdf")?;
    let info = reader.info()?;
    let loaded: Vec<f64> = reader.read_dense()?;
    assert_eq!(loaded, values);
    let value_type = info.value_type.map_or("none", |value_type| value_type.name()); // None: a frame
    println!("read back {} x {} matrix of {}", info.rows, info.cols, value_type);

    match Reader::open("no-such-file.dbdf") {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => println!("missing file: {error}"),
        Err(error) => return Err(error.into()),
        Ok(_) => panic!("no-such-file.dbdf was opened"),
    }
    Ok(())
}
