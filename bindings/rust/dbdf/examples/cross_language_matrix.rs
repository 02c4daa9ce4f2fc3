//! The Rust side of the cross-language checks, over the matrix every language shares (examples/c/main.c):
//! a 6 x 5 DenseMatrix of f64, value(i, j) = 0 if (i + j) % 3 == 0 else (i * 5 + j) * 0.5, written with 4 x 3
//! tiles and automatic encoding.
//!
//!     cross_language_matrix write FILE    write the matrix
//!     cross_language_matrix check FILE    exit 0 iff FILE holds exactly the matrix

use std::process::ExitCode;

use dbdf::{DataType, Reader, ValueType, WriteOptions, Writer};

const ROWS: u64 = 6;
const COLS: u64 = 5;

fn cross_value(row: u64, col: u64) -> f64 {
    if (row + col).is_multiple_of(3) {
        0.0
    } else {
        (row * 5 + col) as f64 * 0.5
    }
}

fn cross_values() -> Vec<f64> {
    (0..ROWS).flat_map(|row| (0..COLS).map(move |col| cross_value(row, col))).collect()
}

fn write(path: &str) -> Result<(), String> {
    let mut writer = Writer::create(path).map_err(|error| error.to_string())?;
    writer.begin_matrix(DataType::Dense, ValueType::F64, ROWS, COLS).map_err(|error| error.to_string())?;
    writer
        .write_dense(&cross_values(), 0, &WriteOptions::new().block_shape(4, 3))
        .map_err(|error| error.to_string())?;
    writer.finish().map_err(|error| error.to_string())
}

fn check(path: &str) -> Result<(), String> {
    let mut reader = Reader::open(path).map_err(|error| error.to_string())?;
    let info = reader.info().map_err(|error| error.to_string())?;
    if info.data_type != DataType::Dense || info.rows != ROWS || info.cols != COLS {
        return Err(format!(
            "expected a {ROWS} x {COLS} dense matrix, found a {} x {} {}",
            info.rows, info.cols, info.data_type
        ));
    }
    reader.validate().map_err(|error| error.to_string())?;
    let values = reader.read_dense::<f64>().map_err(|error| error.to_string())?;
    let mismatches: Vec<String> = values
        .iter()
        .zip(cross_values())
        .enumerate()
        .filter(|(_, (found, expected))| found.to_bits() != expected.to_bits())
        .map(|(cell, (found, expected))| {
            format!("cell ({}, {}) is {found}, expected {expected}", cell as u64 / COLS, cell as u64 % COLS)
        })
        .collect();
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(mismatches.join("\n"))
    }
}

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let result = match arguments.as_slice() {
        [command, path] if command == "write" => write(path),
        [command, path] if command == "check" => {
            check(path).map(|()| println!("{path} holds the cross-language matrix"))
        }
        _ => {
            eprintln!("usage: cross_language_matrix write FILE | check FILE");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{}: {message}", arguments[1]);
            ExitCode::FAILURE
        }
    }
}
