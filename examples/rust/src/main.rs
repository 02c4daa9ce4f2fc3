//! The Rust example: prints the block layout of each .dbdf file given on the command line — the object header,
//! frame columns, and one line per block (position, shape, block type, stored value type, sizes), read through
//! the header walk only (payloads are not decoded), then checks the file strictly. Exits with 1 if a file cannot
//! be read or breaks a rule of the format.
//!
//!     dbdf_example_rust FILE...

use std::process::ExitCode;

use dbdf::{DataType, Reader};

/// Prints the layout of `path`; returns whether it is valid.
fn print_layout(path: &str) -> dbdf::Result<bool> {
    let mut reader = Reader::open(path)?;
    let info = reader.info()?;
    print!("{path}: {} {} x {}", info.data_type, info.rows, info.cols);
    match info.value_type {
        Some(value_type) if info.data_type != DataType::Frame => println!(" of {value_type}"),
        _ => {
            println!();
            for column in 0..info.cols {
                let label = String::from_utf8_lossy(reader.column_label_bytes(column)?).into_owned();
                println!("  column {column}: {label} ({})", reader.column_type(column)?);
            }
        }
    }

    let (mut blocks, mut stored_values) = (0u64, 0u64);
    for block in reader.blocks() {
        let block = block?;
        let value_type = block.value_type.map_or("-", |value_type| value_type.name());
        println!(
            "  block {} at ({}, {}): {} x {} {:<5} {:<4} {} stored values, {} bytes",
            block.index,
            block.row,
            block.col,
            block.rows,
            block.cols,
            block.block_type.name(),
            value_type,
            block.stored_values,
            block.encoded_bytes
        );
        blocks += 1;
        stored_values += block.stored_values;
    }
    println!("  {blocks} blocks, {stored_values} stored values, {} bytes in all", info.total_bytes);

    let violations = reader.violations()?;
    if violations.is_empty() {
        println!("  valid: every rule of the format holds");
    }
    for violation in &violations {
        println!("  violation of rule {} at byte {}: {}", violation.rule, violation.offset, violation.message);
    }
    Ok(violations.is_empty())
}

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: dbdf_example_rust FILE...   (prints the block layout of each .dbdf file)");
        return ExitCode::from(2);
    }
    println!("dbdf {} (Rust)", dbdf::version_string());
    let mut status = ExitCode::SUCCESS;
    for path in &paths {
        match print_layout(path) {
            Ok(true) => {}
            Ok(false) => status = ExitCode::FAILURE,
            Err(error) => {
                eprintln!("{path}: {error}");
                status = ExitCode::FAILURE;
            }
        }
    }
    status
}
