//! Messages on stderr, in one format: `uriscan: PATH: reason`.
//!
//! A leaf, as ripgrep's `core/messages.rs`: it prints what it is given and
//! imports nothing from the rest of the binary, so any module may use it.

use std::io;

/// A short lowercase reason for an I/O error, without Rust's "(os error N)".
pub fn io_reason(err: &io::Error) -> String {
    // `ignore` (through walkdir) wraps the OS error in its own, whose text
    // repeats the path: report the OS error underneath.
    let inner = err.get_ref().and_then(|e| e.source());
    if let Some(os) = inner.and_then(|e| e.downcast_ref::<io::Error>()) {
        return io_reason(os);
    }
    let text = err.to_string();
    let text = match text.find(" (os error") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => text,
    }
}

/// Prints `uriscan: MESSAGE` on stderr (ignoring a failure to do so).
pub fn error(message: &str) {
    use std::io::Write;
    let _ = writeln!(io::stderr().lock(), "uriscan: {message}");
}

/// Returns true if and only if `err` (anywhere in its chain) is a closed pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// A closed pipe (`uriscan big/ | head -1`) ends the program quietly with
/// status 0; any other write error (a full disk) is reported, status 2.
/// Scans still running have no one left to print for, so this exits at once.
pub fn exit_on_write_error(err: io::Error) -> ! {
    if err.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    error(&format!("write error: {}", io_reason(&err)));
    std::process::exit(2);
}
