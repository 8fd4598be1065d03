//! Adversarial inputs for uriscan: generates them on the fly and measures
//! the library's streaming scanner on each (time, throughput, peak RSS), or
//! writes one to stdout to pipe into the binary. `benches/hostile.sh` runs
//! every case both ways under `/usr/bin/time -v` and prints a table.
//!
//! ```text
//! cargo run --release --example hostile -- list
//! cargo run --release --example hostile -- scan nul [--scale 0.1]
//! cargo run --release --example hostile -- emit lt | uriscan -a -c
//! ```

mod gen;

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use uriscan::Scanner;

const USAGE: &str = "usage: hostile list | scan CASE [--scale F] | emit CASE [--scale F]";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hostile: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> io::Result<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scale = match args.iter().position(|a| a == "--scale") {
        Some(i) => match args.get(i + 1).and_then(|s| s.parse::<f64>().ok()) {
            Some(s) if s > 0.0 => s,
            _ => return usage(),
        },
        None => 1.0,
    };
    let cases = gen::cases(scale);
    let find = |name: Option<&String>| {
        cases
            .iter()
            .find(|c| Some(c.name) == name.map(String::as_str))
    };
    match args.first().map(String::as_str) {
        Some("list") => {
            let mut out = io::stdout().lock();
            for c in &cases {
                writeln!(out, "{}\t{}\t{}", c.name, c.size(), c.what)?;
            }
        }
        Some("emit") => {
            let Some(case) = find(args.get(1)) else {
                return usage();
            };
            let mut out = io::stdout().lock();
            io::copy(&mut case.reader(), &mut out)?;
            out.flush()?;
        }
        Some("scan") => {
            let Some(case) = find(args.get(1)) else {
                return usage();
            };
            let scanner = Scanner::new();
            let mut finds = 0u64;
            let t = Instant::now();
            scanner.scan_reader(case.reader(), |_: &uriscan::Found<'_>| {
                finds += 1;
                Ok(true)
            })?;
            let secs = t.elapsed().as_secs_f64();
            let expected = case.expected().map_or("-".to_owned(), |n| n.to_string());
            println!(
                "{}\tbytes={}\tfinds={finds}\texpected={expected}\tsecs={secs:.3}\tMB/s={:.0}\tpeak_rss_kb={}",
                case.name,
                case.size(),
                case.size() as f64 / 1e6 / secs,
                peak_rss_kb().map_or("?".to_owned(), |k| k.to_string()),
            );
            if case.expected().is_some_and(|n| n != finds) {
                eprintln!("hostile: {}: found {finds}, expected {expected}", case.name);
                return Ok(ExitCode::FAILURE);
            }
        }
        _ => return usage(),
    }
    Ok(ExitCode::SUCCESS)
}

fn usage() -> io::Result<ExitCode> {
    eprintln!("{USAGE}");
    Ok(ExitCode::from(2))
}

/// This process's peak resident set (`VmHWM`), in KiB; Linux only.
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
