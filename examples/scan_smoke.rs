use std::io::Write;
fn main() {
    let s = uriscan::Scanner::new();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for p in std::env::args().skip(1) {
        let f = std::fs::File::open(&p).unwrap();
        s.scan_reader(f, |m: &uriscan::Found<'_>| {
            writeln!(
                out,
                "{}\t{}:{}\t{}{}",
                m.as_str(),
                m.line(),
                m.column(),
                if m.is_wrapped() { "W" } else { "" },
                if m.has_hyphen_break() { "H" } else { "" }
            )?;
            Ok(true)
        })
        .unwrap();
    }
}
