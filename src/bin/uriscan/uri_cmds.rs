//! The subcommands beside scanning: `parse`, `resolve`, `normalize`,
//! `generate`.

use std::io::{self, BufRead, Write};

use anyhow::{Context, Result};
use clap::CommandFactory;
use roff::{bold, italic, roman, Roff};
use serde_json::json;
use uriscan::UriRef;

use crate::args::{Args, Generate, AFTER_HELP};
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
            man(cmd, out)?;
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

/// The man page, one page for everything: clap_mangen's title, name,
/// synopsis (every form of the command line), description and options,
/// then the subcommands, examples, notes and exit status written here.
/// clap_mangen's own SUBCOMMANDS section would point to a page per
/// subcommand (`uriscan-parse(1)`), which nothing makes, and its EXTRA
/// section would run the examples together.
fn man(mut cmd: clap::Command, out: &mut impl Write) -> Result<()> {
    cmd.build();
    let mut forms = vec!["uriscan [OPTIONS] [PATH]...".to_string()];
    forms.extend(cmd.get_subcommands_mut().map(usage));
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone().override_usage(forms.join("\n"))).render(&mut page)?;
    let page = String::from_utf8(page).context("clap_mangen's page is not UTF-8")?;
    let section = |name: &str| {
        page.find(&format!("\n.SH {name}\n"))
            .map(|at| at + 1)
            .with_context(|| format!("clap_mangen's page has no {name} section"))
    };
    let (ours, version) = (section("SUBCOMMANDS")?, section("VERSION")?);
    let mut roff = Roff::new();
    subcommands(&mut roff, &cmd);
    after_help(&mut roff);
    // Both renderings start with the same preamble (`.ds Aq`): once is enough.
    let preamble = &page[..page.find(".TH ").unwrap_or(0)];
    let rendered = roff.render();
    out.write_all(&page.as_bytes()[..ours])?;
    out.write_all(
        rendered
            .strip_prefix(preamble)
            .unwrap_or(&rendered)
            .as_bytes(),
    )?;
    out.write_all(&page.as_bytes()[version..])?;
    Ok(())
}

/// A built subcommand's usage line, `uriscan parse [URI]...`.
fn usage(sub: &mut clap::Command) -> String {
    let usage = sub.render_usage().to_string();
    usage.strip_prefix("Usage: ").unwrap_or(&usage).to_string()
}

/// The SUBCOMMANDS section: each subcommand's usage, what it does, and its
/// arguments.
fn subcommands(roff: &mut Roff, cmd: &clap::Command) {
    roff.control("SH", ["SUBCOMMANDS"]);
    for sub in cmd.get_subcommands() {
        let usage = usage(&mut sub.clone());
        let name = format!("uriscan {}", sub.get_name());
        roff.control("TP", []);
        roff.text([
            bold(name.as_str()),
            roman(usage.strip_prefix(&name).unwrap_or("")),
        ]);
        if let Some(about) = sub.get_long_about().or_else(|| sub.get_about()) {
            roff.text([roman(format!("{about}."))]);
        }
        let args: Vec<_> = sub
            .get_arguments()
            .filter(|a| a.is_positional() && !a.is_hide_set())
            .collect();
        if args.is_empty() {
            continue;
        }
        roff.control("RS", []);
        for arg in args {
            let names = arg.get_value_names().map(|n| n.join(" "));
            let name = names.unwrap_or_else(|| arg.get_id().to_string().to_uppercase());
            let mut help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            let values: Vec<_> = arg
                .get_possible_values()
                .iter()
                .map(|v| v.get_name().to_string())
                .collect();
            if !values.is_empty() {
                help = format!("{help}: {}", values.join(", "));
            }
            roff.control("TP", []);
            roff.text([italic(name)]);
            roff.text([roman(format!("{help}."))]);
        }
        roff.control("RE", []);
    }
}

/// The EXAMPLES, NOTES and EXIT STATUS sections, from the text `--help`
/// ends with: the examples as written (no filling), the rest as paragraphs.
fn after_help(roff: &mut Roff) {
    for block in AFTER_HELP.split("\n\n") {
        if let Some(examples) = block.strip_prefix("Examples:\n") {
            roff.control("SH", ["EXAMPLES"]);
            roff.control("nf", []);
            for line in examples.lines() {
                roff.text([roman(line)]);
            }
            roff.control("fi", []);
        } else if let Some(status) = block.strip_prefix("Exit status: ") {
            roff.control("SH", ["EXIT STATUS"]);
            roff.text([roman(status.replace('\n', " "))]);
        } else {
            roff.control("SH", ["NOTES"]);
            roff.text([roman(block.replace('\n', " "))]);
        }
    }
}
