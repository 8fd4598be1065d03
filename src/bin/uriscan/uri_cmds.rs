//! The subcommands beside scanning: `parse`, `resolve`, `normalize`,
//! `generate`.

use std::io::{self, BufRead, Write};

use anyhow::{Context, Result};
use clap::CommandFactory;
use serde_json::json;
use uriscan::UriRef;

use crate::args::{Args, Generate};
use crate::messages;

/// The references given, or else one per line of stdin (CR of CRLF removed).
fn references(given: Vec<String>) -> Result<Vec<String>> {
    if !given.is_empty() {
        return Ok(given);
    }
    let mut lines = Vec::new();
    for line in io::stdin().lock().split(b'\n') {
        let mut line = line.context("reading standard input")?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        lines.push(String::from_utf8_lossy(&line).into_owned());
    }
    Ok(lines)
}

/// `uriscan parse`: one JSON object per reference. Exit 0 when all are
/// valid, 1 otherwise.
pub fn parse(uris: Vec<String>, out: &mut impl Write) -> Result<i32> {
    let mut all_valid = true;
    for input in references(uris)? {
        let obj = match UriRef::parse(&input) {
            Ok(u) => json!({
                "input": input,
                "valid": true,
                "scheme": u.scheme(),
                "authority": u.authority(),
                "userinfo": u.userinfo(),
                "host": u.host(),
                "host_kind": u.host_kind().map(|k| k.as_str()),
                "port": u.port(),
                "path": u.path(),
                "query": u.query(),
                "fragment": u.fragment(),
            }),
            Err(e) => {
                all_valid = false;
                json!({
                    "input": input,
                    "valid": false,
                    "error": e.to_string(),
                    "index": e.index(),
                })
            }
        };
        serde_json::to_writer(&mut *out, &obj)?;
        out.write_all(b"\n")?;
    }
    Ok(if all_valid { 0 } else { 1 })
}

/// `uriscan resolve`: one target URI per reference. An invalid base or
/// reference is reported on stderr and makes the exit code 1.
pub fn resolve(base: String, refs: Vec<String>, out: &mut impl Write) -> Result<i32> {
    let base_ref = match UriRef::parse(&base) {
        Ok(b) if b.is_absolute() => b,
        Ok(_) => {
            messages::error(&format!("base {base:?}: base URI has no scheme"));
            return Ok(1);
        }
        Err(e) => {
            messages::error(&format!("base {base:?}: {e}"));
            return Ok(1);
        }
    };
    let mut code = 0;
    for r in references(refs)? {
        match UriRef::parse(&r) {
            Ok(reference) => {
                let target = base_ref.resolve(&reference)?;
                writeln!(out, "{target}")?;
            }
            Err(e) => {
                out.flush()?;
                messages::error(&format!("reference {r:?}: {e}"));
                code = 1;
            }
        }
    }
    Ok(code)
}

/// `uriscan normalize`: the normalized form of each URI.
pub fn normalize(uris: Vec<String>, out: &mut impl Write) -> Result<i32> {
    let mut code = 0;
    for input in references(uris)? {
        match UriRef::parse(&input) {
            Ok(u) => writeln!(out, "{}", u.normalize())?,
            Err(e) => {
                out.flush()?;
                messages::error(&format!("{input:?}: {e}"));
                code = 1;
            }
        }
    }
    Ok(code)
}

/// `uriscan generate`: a completion script or the man page, from clap's
/// definition of the command line.
pub fn generate(what: Generate, out: &mut impl Write) -> Result<i32> {
    let mut cmd = Args::command();
    let shell = match what {
        Generate::Man => {
            clap_mangen::Man::new(cmd).render(out)?;
            return Ok(0);
        }
        Generate::Bash => clap_complete::Shell::Bash,
        Generate::Zsh => clap_complete::Shell::Zsh,
        Generate::Fish => clap_complete::Shell::Fish,
        Generate::Elvish => clap_complete::Shell::Elvish,
        Generate::Powershell => clap_complete::Shell::PowerShell,
    };
    clap_complete::generate(shell, &mut cmd, "uriscan", out);
    Ok(0)
}
