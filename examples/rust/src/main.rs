//! The Rust example: prints the block layout of each .dbdf file given on the command line — the object header,
//! frame columns, and one line per block (position, shape, block type, stored value type, sizes), read through
//! the header walk only (payloads are not decoded), then checks the file strictly. Exits with 1 if a file cannot
//! be read or breaks a rule of the format.
//!
//!     dbdf_example_rust [--dialect spec|daphne] FILE...
//!
//! Files written by DAPHNE's own runtime follow the daphne dialect, which is never guessed: `--dialect daphne`
//! reads the files after it that way (a file that fails in the spec dialect says so when it looks like one).

use std::process::ExitCode;

use dbdf::{DataType, Dialect, Reader};

/// Prints the layout of `path` read in `dialect`; returns whether it is valid.
fn print_layout(path: &str, dialect: Dialect) -> dbdf::Result<bool> {
    let mut reader = Reader::open_with(path, dialect)?;
    let info = reader.info()?;
    let dialect_note = match dialect {
        Dialect::Daphne if !reader.labels_recoverable()? => " (daphne dialect, labels not recoverable)",
        Dialect::Daphne => " (daphne dialect)",
        _ => "",
    };
    print!("{path}: {} {} x {}", info.data_type, info.rows, info.cols);
    match info.value_type {
        Some(value_type) if info.data_type != DataType::Frame => println!(" of {value_type}{dialect_note}"),
        _ => {
            println!("{dialect_note}");
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

const USAGE: &str = "usage: dbdf_example_rust [--dialect spec|daphne] FILE...   (prints the block layout of each \
                     .dbdf file; --dialect applies to the files after it)";

/// Whether `path`, which failed in the spec dialect, reads in the daphne dialect: worth a hint, never a guess.
fn reads_as_daphne(path: &str) -> bool {
    Reader::open_with(path, Dialect::Daphne).and_then(|mut reader| reader.validate()).is_ok()
}

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    if arguments.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    println!("dbdf {} (Rust)", dbdf::version_string());
    let mut status = ExitCode::SUCCESS;
    let mut dialect = Dialect::Spec;
    let mut arguments = arguments.iter();
    while let Some(argument) = arguments.next() {
        if argument == "--dialect" {
            match arguments.next().map(|name| Dialect::from_name(name)) {
                Some(Ok(chosen)) => dialect = chosen,
                _ => {
                    eprintln!("--dialect needs spec or daphne\n{USAGE}");
                    return ExitCode::from(2);
                }
            }
            continue;
        }
        match print_layout(argument, dialect) {
            Ok(true) => {}
            Ok(false) => status = ExitCode::FAILURE,
            Err(error) => {
                eprintln!("{argument}: {error}");
                if dialect == Dialect::Spec && reads_as_daphne(argument) {
                    eprintln!("{argument}: this looks like the daphne dialect; try --dialect daphne");
                }
                status = ExitCode::FAILURE;
            }
        }
    }
    status
}
