//! The `uriscan` command (skeleton: the CLI issues fill this in).

fn main() {
    eprintln!("uriscan: not yet implemented");
    std::process::exit(2);
}
