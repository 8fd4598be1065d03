//! The Rust side of `benches/python.py`: the library's throughput on the
//! bytes the Python package is timed on, compiled with this crate's
//! release profile (the extension's own).
//!
//! ```text
//! cargo run --release --example baseline -- plain|mail RUNS FILE...
//! ```
//!
//! `plain` concatenates the files and counts what `Scanner::find_iter`
//! finds; `mail` runs `mail::scan_mail` on each file (as `cargo bench
//! --bench mail` does). Prints the best time of RUNS, in seconds, the
//! bytes and the URIs, as one JSON object.

use std::time::Instant;
use std::{env, fs, io, process};

use uriscan::{mail, Found, Scanner};

fn main() -> io::Result<()> {
    let args: Vec<String> = env::args().skip(1).collect();
    let (Some(mode), Some(Ok(runs))) = (args.first(), args.get(1).map(|r| r.parse::<u32>())) else {
        eprintln!("usage: baseline plain|mail RUNS FILE...");
        process::exit(2);
    };
    let files = args[2..]
        .iter()
        .map(fs::read)
        .collect::<io::Result<Vec<_>>>()?;
    let scanner = Scanner::new();
    let scan: Box<dyn Fn() -> io::Result<usize>> = match mode.as_str() {
        "plain" => {
            let all = files.concat();
            Box::new(move || Ok(scanner.find_iter(&all).count()))
        }
        "mail" => Box::new(move || {
            let mut n = 0;
            for file in &files {
                mail::scan_mail(&scanner, &file[..], &mut |_: &Found<'_>| {
                    n += 1;
                    Ok(true)
                })?;
            }
            Ok(n)
        }),
        other => {
            eprintln!("unknown mode {other:?}");
            process::exit(2);
        }
    };
    let bytes: usize = args[2..]
        .iter()
        .map(|p| fs::metadata(p).map_or(0, |m| m.len() as usize))
        .sum();
    let (mut best, mut uris) = (f64::INFINITY, 0);
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        uris = scan()?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!("{{\"seconds\": {best}, \"bytes\": {bytes}, \"uris\": {uris}}}");
    Ok(())
}
