//! The command line: clap's definition, turned into a validated [`Config`].

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::{Parser, Subcommand, ValueEnum};
use uriscan::{HyphenMode, Scanner};

const EXAMPLES: &str = "\
Examples:
  uriscan notes.txt                       URIs in a file, one per line
  uriscan -u ~/Mail/                      each distinct URI in a mail tree once
  uriscan -u --scheme http,https docs/ > links.txt
                                          links for a link checker in CI
  zcat access.log.gz | uriscan --json | jq -r .uri
                                          JSON Lines from a log on stdin
  uriscan -z -n archive/                  read .gz/.bz2/.xz/.zst files too
  uriscan parse 'http://[::1]:8080/a?b#c' one JSON object per reference
  uriscan resolve http://a/b/c/d ../g     RFC 3986 reference resolution
  uriscan normalize HTTP://Example.COM:80 RFC 3986 normalization

A path that is also a subcommand's name is scanned as ./parse.
Exit status: 0 if a URI was found (or every reference was valid), 1 if
none was, 2 on an error (an unreadable file, a bad flag, a write error).";

/// Find URIs in text the way RFC 3986 Appendix C says: in <...>, "..." or
/// bounded by whitespace, rejoined when wrapped over lines, validated by a
/// strict RFC 3986 parser.
#[derive(Parser, Debug)]
#[command(name = "uriscan", version, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Files or directories to scan (directories recursively); `-` or
    /// nothing reads standard input.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Print each distinct URI once, in order of first appearance.
    #[arg(short = 'u', long)]
    pub unique: bool,

    /// Print a count of URIs per file (and a total for several inputs).
    #[arg(short = 'c', long)]
    pub count: bool,

    /// Only URIs with these schemes (comma-separated, any case).
    #[arg(long, value_delimiter = ',', value_name = "SCHEMES")]
    pub scheme: Vec<String>,

    /// Print the file name before each URI (default with several inputs).
    #[arg(short = 'H', long, overrides_with = "no_filename")]
    pub with_filename: bool,

    /// Never print file names.
    #[arg(long)]
    pub no_filename: bool,

    /// Print the line number of each URI.
    #[arg(short = 'n', long)]
    pub line_number: bool,

    /// Print the byte column of each URI (1-based).
    #[arg(long)]
    pub column: bool,

    /// One JSON object per URI (JSON Lines).
    #[arg(long)]
    pub json: bool,

    /// Also print candidates that fail RFC 3986 validation, with the reason.
    #[arg(long)]
    pub invalid: bool,

    /// How to read a line break right after `-` inside <...>.
    #[arg(long, value_enum, default_value_t = Hyphen::Keep)]
    pub hyphen: Hyphen,

    /// Accept any scheme before `:`, not only known ones (`key:value` too).
    #[arg(long)]
    pub any_scheme: bool,

    /// End each output record with NUL instead of a newline.
    #[arg(short = '0', long)]
    pub null: bool,

    /// Print files, bytes, URIs, time and throughput on stderr at the end.
    #[arg(long)]
    pub stats: bool,

    /// When to color file names and line numbers.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Scan files that look binary (a NUL byte in the first block) too.
    #[arg(short = 'a', long)]
    pub text: bool,

    /// Read every input as mail (mbox or RFC 5322 message): decode each
    /// part before scanning. By default, inputs that look like mail are.
    #[arg(long, conflicts_with = "no_mail")]
    pub mail: bool,

    /// Never read inputs as mail: scan their raw text.
    #[arg(long)]
    pub no_mail: bool,

    /// Decompress .gz, .bz2, .xz and .zst files before scanning.
    #[arg(short = 'z', long)]
    pub search_zip: bool,

    /// Include hidden files and directories.
    #[arg(long)]
    pub hidden: bool,

    /// Do not respect .gitignore, .ignore and similar files.
    #[arg(long)]
    pub no_ignore: bool,

    /// Only files (or, with `!`, all but files) matching this glob.
    #[arg(short = 'g', long, value_name = "GLOB")]
    pub glob: Vec<String>,

    /// Follow symbolic links.
    #[arg(short = 'L', long)]
    pub follow: bool,

    /// How many files to scan at once (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
}

/// The subcommands beside scanning.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse URI references; print one JSON object each (stdin: one per line).
    Parse {
        /// The references (none: read them from stdin, one per line).
        #[arg(value_name = "URI")]
        uris: Vec<String>,
    },
    /// Resolve references against a base URI (RFC 3986 section 5.2).
    Resolve {
        /// The base URI (it must have a scheme).
        base: String,
        /// The references (none: read them from stdin, one per line).
        #[arg(value_name = "REF")]
        refs: Vec<String>,
    },
    /// Print the normalized form of each URI (RFC 3986 section 6.2).
    Normalize {
        /// The URIs (none: read them from stdin, one per line).
        #[arg(value_name = "URI")]
        uris: Vec<String>,
    },
    /// Print a shell completion script or the man page.
    Generate {
        /// What to generate.
        #[arg(value_enum)]
        what: Generate,
    },
}

/// What `uriscan generate` prints.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Generate {
    Man,
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}

/// `--hyphen`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Hyphen {
    /// Keep the hyphen and join the lines.
    Keep,
    /// Drop the hyphen and join the lines.
    Drop,
    /// Report both readings.
    Both,
}

/// `--color`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// How each URI is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `[path:][line:][column:]uri`.
    Plain,
    /// JSON Lines.
    Json,
    /// `path:count` per input.
    Count,
}

/// A validated scanning job.
#[derive(Debug)]
pub struct Config {
    pub scanner: Scanner,
    pub paths: Vec<PathBuf>,
    pub format: Format,
    pub with_filename: bool,
    pub line_number: bool,
    pub column: bool,
    pub unique: bool,
    /// Lower-case schemes to keep; empty keeps all.
    pub schemes: Vec<String>,
    pub terminator: u8,
    pub color: bool,
    pub stats: bool,
    pub binary: bool,
    pub search_zip: bool,
    pub mail: MailMode,
    pub walk: Walk,
    pub threads: usize,
    pub invalid: bool,
}

/// When inputs are read as mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailMode {
    /// When the input looks like mail (`From ` first line, or a header block).
    Auto,
    /// Always (`--mail`).
    Always,
    /// Never (`--no-mail`).
    Never,
}

/// How directories are walked.
#[derive(Debug, Clone)]
pub struct Walk {
    pub hidden: bool,
    pub no_ignore: bool,
    pub globs: Vec<String>,
    pub follow: bool,
}

impl Args {
    /// Checks the flags and derives the scanning job.
    pub fn into_config(self) -> Result<Config> {
        if self.json && self.count {
            bail!("--json and --count cannot be used together");
        }
        if self.threads == Some(0) {
            bail!("--threads must be at least 1");
        }
        for s in &self.scheme {
            if !uriscan::is_scheme(s.as_bytes()) {
                bail!("--scheme: {s:?} is not a valid scheme name");
            }
        }
        let paths = if self.paths.is_empty() {
            vec![PathBuf::from("-")]
        } else {
            self.paths
        };
        let several = paths.len() > 1 || paths.iter().any(|p| p.is_dir());
        let with_filename = (self.with_filename || several) && !self.no_filename;
        let format = match (self.json, self.count) {
            (true, _) => Format::Json,
            (_, true) => Format::Count,
            _ => Format::Plain,
        };
        let color = match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                use std::io::IsTerminal;
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var("TERM").map_or(true, |t| t != "dumb")
                    && std::io::stdout().is_terminal()
            }
        } && format != Format::Json;
        let scanner = Scanner::builder()
            .any_scheme(self.any_scheme)
            .report_invalid(self.invalid)
            .hyphen(match self.hyphen {
                Hyphen::Keep => HyphenMode::Keep,
                Hyphen::Drop => HyphenMode::Drop,
                Hyphen::Both => HyphenMode::Both,
            })
            .build();
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(Config {
            scanner,
            paths,
            format,
            with_filename,
            line_number: self.line_number,
            column: self.column,
            unique: self.unique,
            schemes: self.scheme.iter().map(|s| s.to_ascii_lowercase()).collect(),
            terminator: if self.null { b'\0' } else { b'\n' },
            color,
            stats: self.stats,
            binary: self.text,
            search_zip: self.search_zip,
            mail: match (self.mail, self.no_mail) {
                (true, _) => MailMode::Always,
                (_, true) => MailMode::Never,
                _ => MailMode::Auto,
            },
            walk: Walk {
                hidden: self.hidden,
                no_ignore: self.no_ignore,
                globs: self.glob,
                follow: self.follow,
            },
            threads,
            invalid: self.invalid,
        })
    }
}
