//! Binding overhead, Rust: decodes the only block of FILE (float64, dense) into a preallocated Vec REPEATS times
//! and prints one JSON line with the median and minimum seconds (see ../block_read.c).

use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(repeats)) = (
        args.get(1),
        args.get(2).and_then(|r| r.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: block_read FILE REPEATS");
        return ExitCode::from(2);
    };
    match run(path, repeats.max(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("block_read: {path}: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(path: &str, repeats: usize) -> Result<(), Box<dyn std::error::Error>> {
    let mut reader = dbdf::Reader::open(path)?;
    let Some(mut block) = reader.next_block()? else {
        return Err("the file has no block".into());
    };
    let cells = usize::try_from(block.info().cells()).expect("the block fits in memory");
    let mut values = vec![0.0f64; cells];
    let mut seconds = Vec::with_capacity(repeats);
    for run in 0..=repeats {
        // The first run warms up.
        let start = Instant::now();
        block.decode_dense_into(&mut values, 0)?;
        if run > 0 {
            seconds.push(start.elapsed().as_secs_f64());
        }
    }
    seconds.sort_by(f64::total_cmp);
    println!(
        "{{\"language\": \"rust\", \"median_seconds\": {:.9}, \"min_seconds\": {:.9}, \"bytes\": {}, \"check\": {:?}}}",
        seconds[repeats / 2],
        seconds[0],
        cells * std::mem::size_of::<f64>(),
        values[cells - 1]
    );
    Ok(())
}
