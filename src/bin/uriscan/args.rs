//! The command line: clap's definition, turned into a validated [`Config`].

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use clap::{Parser, Subcommand, ValueEnum};
use ignore::types::TypesBuilder;
use uriscan::doc::LinkFilter;
use uriscan::encoding::TextEncoding;
use uriscan::{HyphenMode, IriMode, Scanner};

/// After the options in `--help`, and the EXAMPLES, NOTES and EXIT STATUS
/// sections of the man page: paragraphs apart by a blank line, the first
/// the examples.
pub const AFTER_HELP: &str = "\
Examples:
  uriscan notes.txt                       URIs in a file, one per line
  uriscan -u ~/Mail/                      each distinct URI in a mail tree once
  uriscan -u --skip-code --base https://docs.example.org/ docs/
                                          links for a link checker in CI
  uriscan -t markdown --relative docs/    Markdown links, relative ones as written
  uriscan -z /usr/share/man/man1/         man pages, roff escapes read
  zcat access.log.gz | uriscan --json | jq -r .uri
                                          JSON Lines from a log on stdin
  uriscan -z -n archive/                  read .gz/.bz2/.xz/.zst files too
  uriscan -l docs/                        the files that hold a URI
  uriscan -q notes.txt && echo linked     the exit status only
  uriscan parse 'http://[::1]:8080/a?b#c' one JSON object per reference
  uriscan resolve http://a/b/c/d ../g     RFC 3986 reference resolution
  uriscan normalize HTTP://Example.COM:80 RFC 3986 normalization

A path that is also a subcommand's name is scanned as ./parse.

Exit status: 0 if a URI was found (or every reference was valid), 1 if
none was, 2 on an error (an unreadable file, a bad flag, a write error);
with -q, 0 if a URI was found, even after an error.";

/// The smallest `--max-candidate-len` (the scanner's own floor).
const MIN_CANDIDATE_LEN: usize = 256;

/// The most threads `-j` starts: far more than any machine's cores, and
/// well below what a process can start (about 16,000 on Linux's default
/// `vm.max_map_count`, past which a thread's setup aborts the program).
const MAX_THREADS: usize = 1024;

/// The size a large file is cut into segments at, for threads: large
/// enough that finding a segment's ends (a few small reads) costs nothing
/// next to scanning it, small enough that the last segments leave no
/// thread idle for long.
const DEFAULT_SEGMENT_SIZE: u64 = 2 << 20;

/// Find URIs in text the way RFC 3986 Appendix C says: in <...>, "..." or
/// bounded by whitespace, rejoined when wrapped over lines, validated by a
/// strict RFC 3986 parser.
#[derive(Parser, Debug)]
#[command(name = "uriscan", version, after_help = AFTER_HELP, args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Files or directories to scan; `-` is standard input.
    ///
    /// Directories are walked recursively (see --hidden, --no-ignore,
    /// --glob, --follow). With no PATH, standard input is read, unless it
    /// is a terminal: then the current directory is scanned.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Print each distinct URI once.
    ///
    /// Each URI is printed where it first appears, across all inputs: a URI
    /// in both the text and the HTML alternative of a message comes once.
    /// With --invalid, each distinct invalid candidate comes once too.
    #[arg(short = 'u', long)]
    pub unique: bool,

    /// Print the number of URIs in each input.
    ///
    /// One line per input, `PATH:N` (`N` alone for a single input), then
    /// `total:N` when there are several inputs. Cannot be used with --json.
    #[arg(short = 'c', long)]
    pub count: bool,

    /// Print the path of each input that has a URI, instead of its URIs.
    ///
    /// Each input holding at least one URI is named once, in input order
    /// (`<stdin>` for standard input), as grep's -l does, whether or not
    /// its URIs were found in other inputs too (-u does not apply). Cannot
    /// be used with --json, --count or --quiet.
    #[arg(short = 'l', long)]
    pub files_with_matches: bool,

    /// Print nothing: the exit status says whether a URI was found.
    ///
    /// The exit status is 0 if a URI was found, 1 if none was, 2 if none was
    /// and an error occurred: as with grep, a URI found wins over an
    /// error, and the run stops at the first URI found (in input order),
    /// unless --stats asks for the whole run. Errors and warnings are still
    /// reported on stderr. Cannot be used with --json, --count or
    /// --files-with-matches.
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Only URIs with these schemes (comma-separated).
    ///
    /// Schemes are compared without regard to case: `--scheme http,https`
    /// keeps `HTTP://a.example/` too.
    #[arg(long, value_delimiter = ',', value_name = "SCHEMES")]
    pub scheme: Vec<String>,

    /// Print the file name before each URI.
    ///
    /// Each record starts with `PATH:`. This is the default when there are
    /// several inputs or a directory; --no-filename turns it off.
    #[arg(short = 'H', long, overrides_with = "no_filename")]
    pub with_filename: bool,

    /// Print only the URIs: what uriscan always does.
    ///
    /// Accepted, and hidden, so that `grep -o` and `rg -o` habits work.
    #[arg(short = 'o', long, hide = true)]
    pub only_matching: bool,

    /// Never print file names.
    ///
    /// Not even with several inputs or a directory.
    #[arg(long)]
    pub no_filename: bool,

    /// Print the line number of each URI.
    ///
    /// The 1-based line where the URI starts, as `LINE:` after the file
    /// name. In mail mode too it is the line where the URI is written in
    /// the file (for base64, the line of its first byte); --json also
    /// gives the line where its message starts.
    #[arg(short = 'n', long)]
    pub line_number: bool,

    /// Print the byte column of each URI.
    ///
    /// The 1-based byte column where the URI starts on its line, as
    /// `COLUMN:` after the line number.
    #[arg(long)]
    pub column: bool,

    /// Print one JSON object per URI (JSON Lines).
    ///
    /// Each line is one object with the URI's path, line, column, byte
    /// offsets and how it was delimited (the README lists the fields).
    /// Cannot be used with --count.
    #[arg(long)]
    pub json: bool,

    /// Also print candidates that fail RFC 3986 validation.
    ///
    /// Each is followed by a tab and `(invalid: REASON)`; with --json, every
    /// object gets `valid`, and invalid ones `error`.
    #[arg(long)]
    pub invalid: bool,

    /// How to read a line break right after `-` in a URI.
    ///
    /// When a URI is wrapped right after a hyphen (in <...>, in "...", or
    /// bare when the next line reads as its rest), the hyphen may be the
    /// URI's own or added by the wrapping (RFC 3986 Appendix C). A join
    /// after a hyphen is flagged (`hyphen_break` in --json).
    #[arg(long, value_enum, default_value_t = Hyphen::Keep)]
    pub hyphen: Hyphen,

    /// What to make of a URI written with non-ASCII characters (an IRI).
    ///
    /// Such a URI (a German host name, a Japanese Wikipedia title) is read
    /// whole, up to a space or a mark of punctuation of any script (the
    /// ideographic full stop and comma, corner brackets, NBSP, curly
    /// quotes), never cut at its first non-ASCII character. `uri` prints
    /// the URI it maps to (RFC 3987: UTF-8
    /// percent-encoded, the host of http, https, ws, wss and ftp and the
    /// domain of mailto as IDNA A-labels), so every line printed is an RFC
    /// 3986 URI; --json then adds `iri`, the text as written (as it does,
    /// in every mode, for a URI whose fragment's `#` is read as `%23`).
    #[arg(long, value_enum, default_value_t = Iri::Uri, value_name = "MODE")]
    pub iri: Iri,

    /// Accept any scheme, not only registered ones.
    ///
    /// By default a scheme without `//` after its `:` counts only when it
    /// is registered (IANA) or described by uri(7); with this flag any
    /// valid scheme counts, so words like `key:value` are found too.
    #[arg(long)]
    pub any_scheme: bool,

    /// The candidate limit, in bytes (256 to 1 GiB): candidates are shorter.
    ///
    /// A candidate that reaches it (a run of URI characters this long, a
    /// `<` whose `>` is this far or further) is given up on, with a warning
    /// that says how many were; --stats counts them. It bounds the memory a scan of
    /// plain text needs: about this plus 66 KiB per thread.
    #[arg(long, value_name = "BYTES", default_value_t = uriscan::DEFAULT_MAX_CANDIDATE_LEN)]
    pub max_candidate_len: usize,

    /// End each output record with NUL instead of a newline.
    ///
    /// For `xargs -0` and other readers of NUL-separated records.
    #[arg(short = '0', long)]
    pub null: bool,

    /// Print statistics on stderr at the end.
    ///
    /// Files scanned, binary files skipped, errors, bytes, URIs, over-long
    /// candidates skipped, time and throughput.
    #[arg(long)]
    pub stats: bool,

    /// When to color file names and line numbers.
    ///
    /// `auto` colors when stdout is a terminal, NO_COLOR is unset or empty
    /// and TERM is not `dumb`. JSON is never colored.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Scan files that look binary too.
    ///
    /// A file looks binary when its first 8 KiB hold a NUL byte, unless it
    /// is read as mail (an attachment may hold one). Without
    /// this flag, such a file found in a directory is skipped (--stats
    /// counts them), and one named on the command line (or standard input)
    /// is scanned up to its first NUL byte, with a note on stderr.
    #[arg(short = 'a', long)]
    pub text: bool,

    /// Read every input as mail, decoding each part before scanning.
    ///
    /// An input read as mail (an mbox or an RFC 5322 message) is split into
    /// messages, and each part is decoded (quoted-printable, base64,
    /// charsets, HTML) before it is scanned. Without --mail or --no-mail, an
    /// input is read as mail when it looks like mail: its first line starts
    /// with `From `, or it starts with a header block.
    #[arg(long, conflicts_with = "no_mail")]
    pub mail: bool,

    /// Never read inputs as mail.
    ///
    /// Scan every input's raw text, even one that looks like mail.
    #[arg(long)]
    pub no_mail: bool,

    /// Scan JSON strings as written, escapes and all.
    ///
    /// By default, in a line of JSON (a log's `{"url":"https:\/\/..."}`, a
    /// member of pretty-printed JSON), the escapes of each string that ends
    /// on its line are read as what they stand for (`\/`, `\u0026`, `\"`),
    /// so that an escaped URI is found whole; offsets and columns are still
    /// those of the escaped text. With this flag `\/` and `\u0026` end a
    /// URI, as any other `\` does.
    #[arg(long)]
    pub no_json_escapes: bool,

    /// The text encoding of the inputs: auto (the default), none, or a label.
    ///
    /// `auto` decodes an input that starts with a UTF-16 byte-order mark
    /// (BOM) from UTF-16, and skips a UTF-8 BOM; an HTML or XML document
    /// without a BOM is decoded from the encoding it declares (`<meta
    /// charset>`, an XML declaration), unless its first 8 KiB are UTF-8
    /// beyond ASCII; other inputs are scanned as the bytes they are. A label of the WHATWG Encoding Standard
    /// (`latin1`, `shift_jis`, `euc-jp`, `gbk`, `big5`, `euc-kr`,
    /// `utf-16le`, ...; all are listed at
    /// https://encoding.spec.whatwg.org/#names-and-labels) decodes every
    /// input from that encoding, unless it starts with a BOM, which wins.
    /// `none` scans every input's bytes as they are, a BOM included (as
    /// ripgrep's -E). Offsets, lines and columns still count the input's
    /// own bytes. Applies to text and documents (HTML, Markdown, man
    /// pages); not to input read as mail, whose parts name their own
    /// charsets (each is converted from its own); and an input that is
    /// decoded is never read as mail. A
    /// decoded input is scanned on one thread.
    #[arg(short = 'E', long, value_name = "LABEL")]
    pub encoding: Option<String>,

    /// Decompress .gz, .bz2, .xz and .zst files before scanning.
    ///
    /// Files whose names end in .gz or .tgz, .bz2, .xz or .zst are read
    /// through their decompressor; other files are read as they are.
    #[arg(short = 'z', long)]
    pub search_zip: bool,

    /// Include hidden files and directories.
    ///
    /// When walking a directory, names starting with `.` are skipped unless
    /// this flag is given. A hidden path named on the command line is
    /// always scanned.
    #[arg(long)]
    pub hidden: bool,

    /// Do not respect .gitignore, .ignore and similar files.
    ///
    /// When walking a directory, files named in .gitignore, .ignore,
    /// .git/info/exclude or git's global excludes file are skipped unless
    /// this flag is given.
    #[arg(long)]
    pub no_ignore: bool,

    /// Only scan files matching GLOB (`!GLOB` excludes).
    ///
    /// When walking a directory, scan only the files matching GLOB; a glob
    /// starting with `!` skips the files it matches instead. May be given
    /// several times.
    #[arg(short = 'g', long, value_name = "GLOB")]
    pub glob: Vec<String>,

    /// Follow symbolic links.
    ///
    /// When walking a directory, follow symbolic links to files and
    /// directories; a link loop is reported as an error.
    #[arg(short = 'L', long)]
    pub follow: bool,

    /// How many threads to scan with (default: one per core; at most 1024).
    ///
    /// Several inputs are scanned in parallel, and a large file is cut
    /// into segments (at line breaks that no URI crosses, or between the
    /// messages of an mbox) scanned in parallel too. Output is in input
    /// order, byte for byte the same whatever the number of threads.
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,

    /// The size a large file is cut into segments at, for threads.
    ///
    /// A file larger than two segments (2 MiB each by default) is scanned
    /// in segments when several threads are given. Hidden: for tests and
    /// tuning; the output is the same whatever the size.
    #[arg(long, value_name = "BYTES", hide = true)]
    pub segment_size: Option<u64>,

    /// Whether HTML, Markdown, man pages, XML, reST and AsciiDoc are read as
    /// documents.
    ///
    /// `auto` reads a file as a document when its name says it is one
    /// (the `html`, `markdown`, `man`, `xml`, `svg`, `rst` and `asciidoc`
    /// types of --type-list, but `*.asc`; a man page must also start like
    /// roff): links are taken
    /// from its markup, relative ones resolved (see --base), and its text
    /// is scanned as a reader sees it (entities, escapes and roff escapes
    /// undone; in XML, `&amp;` and character references outside comments
    /// and CDATA). `off` scans every file as plain text.
    #[arg(long, value_enum, default_value_t = DocModeArg::Auto, value_name = "MODE")]
    pub doc_mode: DocModeArg,

    /// Only scan files of type TYPE (see --type-list); may be repeated.
    ///
    /// When walking a directory, scan only the files whose names match one
    /// of the given types (ripgrep's type definitions, e.g. `-t html -t
    /// markdown`). Files named on the command line are always scanned.
    #[arg(short = 't', long = "type", value_name = "TYPE")]
    pub types: Vec<String>,

    /// Do not scan files of type TYPE (see --type-list); may be repeated.
    ///
    /// When walking a directory, skip the files whose names match the
    /// given type.
    #[arg(short = 'T', long = "type-not", value_name = "TYPE")]
    pub types_not: Vec<String>,

    /// Print the file types -t knows and their globs, then exit.
    ///
    /// One line per type, `NAME: GLOB, GLOB`, as ripgrep prints them.
    #[arg(long)]
    pub type_list: bool,

    /// Resolve relative links in documents against URI (the inputs' root).
    ///
    /// A document `a/b.md` under a directory given on the command line
    /// has the URI `URI/a/b.md` (a `/` is added to URI's path if it lacks
    /// one); its relative links are resolved against it (RFC 3986 section
    /// 5.2) and printed as absolute URIs. A `<base href>` in an HTML
    /// document wins over it. URI may be an IRI: with `--iri keep`, it and
    /// the documents' paths keep their characters, and relative IRIs are
    /// resolved as IRIs; otherwise it is the URI it maps to.
    #[arg(long, value_name = "URI")]
    pub base: Option<String>,

    /// Also print relative links of documents, as written.
    ///
    /// Without a base (--base or `<base href>`) relative links are left
    /// out; with this flag they are printed as written, and --json gives
    /// `relative: true` and, when a base is known, `resolved`.
    #[arg(long)]
    pub relative: bool,

    /// Also print fragment-only links of documents (`#section`).
    ///
    /// They name a place in the document itself and are left out unless
    /// this flag is given.
    #[arg(long)]
    pub fragments: bool,

    /// Leave out URIs in code spans and code blocks of documents.
    ///
    /// URIs in Markdown code spans and blocks (HTML `<code>` and `<pre>`,
    /// reST literal blocks, code directives and ``literals``, AsciiDoc
    /// listings, literals and monospace) are examples,
    /// not links: --json marks them `in_code: true`,
    /// and this flag leaves them out.
    #[arg(long)]
    pub skip_code: bool,
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
    /// The man page, in roff.
    Man,
    /// A bash completion script.
    Bash,
    /// A zsh completion script.
    Zsh,
    /// A fish completion script.
    Fish,
    /// An elvish completion script.
    Elvish,
    /// A PowerShell completion script.
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

/// `--iri`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Iri {
    /// Print the URI it maps to (`http://xn--mller-kva.de/`).
    Uri,
    /// Print it as written, validated as an IRI.
    Keep,
    /// It is not a URI (--invalid shows it, with its first non-ASCII byte).
    Off,
}

/// `--doc-mode`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum DocModeArg {
    /// Read HTML, Markdown, man pages, XML and reST as documents, by their names.
    Auto,
    /// Read every file as plain text.
    Off,
}

/// `--color`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorChoice {
    /// Color on a terminal, unless NO_COLOR is set or TERM is `dumb`.
    Auto,
    /// Always color (never in JSON).
    Always,
    /// Never color.
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
    /// The path of each input with a URI (`-l`).
    Files,
    /// Nothing: the exit status only (`-q`).
    Quiet,
}

/// A validated scanning job.
#[derive(Debug)]
pub struct Config {
    pub scanner: Scanner,
    /// The scanner's candidate limit, in bytes (`--max-candidate-len`).
    pub max_candidate_len: usize,
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
    /// `-E`: how inputs are decoded.
    pub encoding: TextEncoding,
    pub mail: MailMode,
    pub walk: Walk,
    pub threads: usize,
    /// The size a large regular file is cut into segments at, about.
    pub segment_size: u64,
    pub invalid: bool,
    pub docs: Docs,
}

/// How documents are read and which of their links are printed.
#[derive(Debug)]
pub struct Docs {
    /// Whether HTML, Markdown and man pages are read as documents
    /// (`--doc-mode auto`).
    pub enabled: bool,
    /// `--base`, with a `/` at the end of its path: as written with
    /// `--iri keep`, else the URI it maps to.
    pub base: Option<String>,
    /// `--iri keep`: a document's IRI keeps its path's characters.
    pub keep_iris: bool,
    /// `--relative`, `--fragments`, `--skip-code`.
    pub filter: LinkFilter,
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
    /// `-t` and `-T`: the types of files a walk keeps.
    pub types: Option<ignore::types::Types>,
    /// Print paths found in `.` without their leading `./`: true when `.`
    /// is scanned because no path was given.
    pub strip_dot_prefix: bool,
    /// The file the output goes to, never read (see `walk`); `None`
    /// with `-q`, `-l` and `-c`, whose output holds no URI to read back.
    pub output: Option<FileId>,
}

/// A file as the system knows it, whatever the path to it: its device and
/// inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    /// Standard output's, when it is a regular file (`> out`, `>> out`):
    /// the only output a run could read back. `None` for a terminal, a
    /// pipe, `/dev/null`, or where it cannot be told.
    pub fn of_stdout() -> Option<FileId> {
        FileId::of_handle(&std::io::stdout())
    }

    /// Standard input's, when it is a regular file.
    pub fn of_stdin() -> Option<FileId> {
        FileId::of_handle(&std::io::stdin())
    }

    #[cfg(unix)]
    fn of_handle(handle: &impl std::os::fd::AsFd) -> Option<FileId> {
        let file = fs::File::from(handle.as_fd().try_clone_to_owned().ok()?);
        FileId::of(&file.metadata().ok()?)
    }

    #[cfg(not(unix))]
    fn of_handle<T>(_handle: &T) -> Option<FileId> {
        None
    }

    #[cfg(unix)]
    pub fn of(meta: &fs::Metadata) -> Option<FileId> {
        use std::os::unix::fs::MetadataExt;
        meta.is_file().then(|| FileId {
            dev: meta.dev(),
            ino: meta.ino(),
        })
    }

    #[cfg(not(unix))]
    pub fn of(_meta: &fs::Metadata) -> Option<FileId> {
        None
    }

    /// Its inode number.
    pub fn ino(self) -> u64 {
        self.ino
    }

    /// True if `path` (followed through links) is this file.
    pub fn is(self, path: &Path) -> bool {
        fs::metadata(path).ok().as_ref().and_then(FileId::of) == Some(self)
    }
}

/// `--base`, checked: an absolute URI or IRI, with a `/` at the end of its
/// path (it names the inputs' root directory). An IRI is kept as written
/// when `keep_iris` (`--iri keep`), and is the URI it maps to otherwise.
fn root_base(base: &str, keep_iris: bool) -> Result<String> {
    let Ok(iri) = uriscan::IriRef::parse(base) else {
        bail!("--base: {base:?} is not a valid URI or IRI");
    };
    if iri.is_relative() {
        bail!("--base: {base:?} has no scheme");
    }
    let base = if keep_iris { base.into() } else { iri.to_uri() };
    if iri.path().ends_with('/') || iri.query().is_some() || iri.fragment().is_some() {
        return Ok(base.into_owned());
    }
    Ok(format!("{base}/"))
}

/// What is scanned when no path is given: standard input, unless it is a
/// terminal (where it would wait, silently, for text typed in), and then
/// the current directory, as ripgrep does.
fn default_paths(stdin_is_terminal: bool) -> Vec<PathBuf> {
    if stdin_is_terminal {
        vec![PathBuf::from(".")]
    } else {
        vec![PathBuf::from("-")]
    }
}

impl Args {
    /// Checks the flags and derives the scanning job.
    pub fn into_config(self) -> Result<Config> {
        let outputs = [
            ("--json", self.json),
            ("--count", self.count),
            ("--files-with-matches", self.files_with_matches),
            ("--quiet", self.quiet),
        ];
        let mut given = outputs.iter().filter(|(_, on)| *on).map(|(flag, _)| flag);
        if let (Some(a), Some(b)) = (given.next(), given.next()) {
            bail!("{a} and {b} cannot be used together");
        }
        if self.max_candidate_len < MIN_CANDIDATE_LEN {
            bail!("--max-candidate-len must be at least {MIN_CANDIDATE_LEN}");
        }
        if self.max_candidate_len > uriscan::LARGEST_MAX_CANDIDATE_LEN {
            bail!(
                "--max-candidate-len must be at most {} (1 GiB)",
                uriscan::LARGEST_MAX_CANDIDATE_LEN
            );
        }
        if self.threads == Some(0) {
            bail!("--threads must be at least 1");
        }
        if self.threads > Some(MAX_THREADS) {
            bail!("--threads must be at most {MAX_THREADS}");
        }
        if self.segment_size == Some(0) {
            bail!("--segment-size must be at least 1");
        }
        for s in &self.scheme {
            if !uriscan::is_scheme(s.as_bytes()) {
                bail!("--scheme: {s:?} is not a valid scheme name");
            }
        }
        let keep_iris = matches!(self.iri, Iri::Keep);
        let base = self
            .base
            .as_deref()
            .map(|base| root_base(base, keep_iris))
            .transpose()?;
        let encoding = match &self.encoding {
            None => TextEncoding::default(),
            Some(label) => TextEncoding::for_label(label).ok_or_else(|| {
                anyhow::anyhow!(
                    "--encoding: unknown encoding label {label:?} (use auto, none, or a label \
                     of the WHATWG Encoding Standard, listed at \
                     https://encoding.spec.whatwg.org/#names-and-labels)"
                )
            })?,
        };
        let walk_types = if self.types.is_empty() && self.types_not.is_empty() {
            None
        } else {
            let mut types = TypesBuilder::new();
            types.add_defaults();
            for t in &self.types {
                types.select(t);
            }
            for t in &self.types_not {
                types.negate(t);
            }
            Some(types.build()?)
        };
        let implicit = self.paths.is_empty();
        let paths = if implicit {
            use std::io::IsTerminal;
            default_paths(std::io::stdin().is_terminal())
        } else {
            self.paths
        };
        let several = paths.len() > 1 || paths.iter().any(|p| p.is_dir());
        let with_filename = (self.with_filename || several) && !self.no_filename;
        let format = if self.json {
            Format::Json
        } else if self.count {
            Format::Count
        } else if self.files_with_matches {
            Format::Files
        } else if self.quiet {
            Format::Quiet
        } else {
            Format::Plain
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
            .max_candidate_len(self.max_candidate_len)
            // Counting lines is a pass over every byte: only when printed.
            .line_numbers(self.line_number || self.json)
            .json_escapes(!self.no_json_escapes)
            .hyphen(match self.hyphen {
                Hyphen::Keep => HyphenMode::Keep,
                Hyphen::Drop => HyphenMode::Drop,
                Hyphen::Both => HyphenMode::Both,
            })
            .iri(match self.iri {
                Iri::Uri => IriMode::Uri,
                Iri::Keep => IriMode::Keep,
                Iri::Off => IriMode::Off,
            })
            .build();
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(Config {
            scanner,
            max_candidate_len: self.max_candidate_len,
            paths,
            format,
            with_filename,
            line_number: self.line_number,
            column: self.column,
            // An input with a URI is named by -l even when its URIs all
            // came before, in other inputs.
            unique: self.unique && format != Format::Files,
            schemes: self.scheme.iter().map(|s| s.to_ascii_lowercase()).collect(),
            terminator: if self.null { b'\0' } else { b'\n' },
            color,
            stats: self.stats,
            binary: self.text,
            search_zip: self.search_zip,
            encoding,
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
                types: walk_types,
                strip_dot_prefix: implicit,
                output: if matches!(format, Format::Quiet | Format::Files | Format::Count) {
                    None
                } else {
                    FileId::of_stdout()
                },
            },
            threads,
            segment_size: self.segment_size.unwrap_or(DEFAULT_SEGMENT_SIZE),
            invalid: self.invalid,
            docs: Docs {
                enabled: self.doc_mode == DocModeArg::Auto,
                base,
                keep_iris,
                filter: LinkFilter {
                    relative: self.relative,
                    fragments: self.fragments,
                    skip_code: self.skip_code,
                },
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    /// The job that `uriscan ARGS` describes.
    fn config(args: &[&str]) -> Result<Config> {
        Args::try_parse_from(std::iter::once("uriscan").chain(args.iter().copied()))?.into_config()
    }

    #[test]
    fn files_with_matches_and_quiet_are_parsed() {
        for (args, format) in [
            (&[][..], Format::Plain),
            (&["-l"], Format::Files),
            (&["--files-with-matches"], Format::Files),
            (&["-q"], Format::Quiet),
            (&["--quiet"], Format::Quiet),
            (&["-c"], Format::Count),
            (&["--json"], Format::Json),
            (&["-l", "-n", "-0"], Format::Files),
            (&["-q", "-H", "--stats"], Format::Quiet),
        ] {
            assert_eq!(config(args).unwrap().format, format, "{args:?}");
        }
        assert!(config(&["-u"]).unwrap().unique);
        assert!(!config(&["-l", "-u"]).unwrap().unique);
    }

    #[test]
    fn output_modes_that_conflict_are_rejected() {
        for (args, message) in [
            (&["--json", "-c"], "--json and --count"),
            (&["-l", "--json"], "--json and --files-with-matches"),
            (&["-l", "-c"], "--count and --files-with-matches"),
            (&["-q", "--json"], "--json and --quiet"),
            (&["-q", "-c"], "--count and --quiet"),
            (&["-q", "-l"], "--files-with-matches and --quiet"),
        ] {
            let err = config(args).unwrap_err().to_string();
            assert_eq!(
                err,
                format!("{message} cannot be used together"),
                "{args:?}"
            );
        }
    }

    #[test]
    fn no_path_reads_stdin_unless_it_is_a_terminal() {
        assert_eq!(default_paths(false), [PathBuf::from("-")]);
        assert_eq!(default_paths(true), [PathBuf::from(".")]);
        assert!(!config(&["a.txt"]).unwrap().walk.strip_dot_prefix);
        assert!(!config(&["."]).unwrap().walk.strip_dot_prefix);
        assert!(config(&[]).unwrap().walk.strip_dot_prefix);
    }

    #[test]
    fn only_matching_is_accepted_as_what_is_always_done() {
        let with = config(&["-o", "-n", "x.txt"]).unwrap();
        let without = config(&["-n", "x.txt"]).unwrap();
        assert_eq!(format!("{with:?}"), format!("{without:?}"));
        assert!(config(&["--only-matching"]).is_ok());
    }

    #[test]
    fn threads_are_checked() {
        assert_eq!(config(&["-j", "1024"]).unwrap().threads, 1024);
        assert_eq!(
            config(&["-j0"]).unwrap_err().to_string(),
            "--threads must be at least 1"
        );
        assert_eq!(
            config(&["-j", "1025"]).unwrap_err().to_string(),
            "--threads must be at most 1024"
        );
    }

    #[test]
    fn max_candidate_len_is_parsed_and_checked() {
        let default = config(&[]).unwrap();
        assert_eq!(
            default.max_candidate_len,
            uriscan::DEFAULT_MAX_CANDIDATE_LEN
        );
        let cfg = config(&["--max-candidate-len", "300"]).unwrap();
        assert_eq!(cfg.max_candidate_len, 300);
        assert_eq!(
            config(&["--max-candidate-len=256"])
                .unwrap()
                .max_candidate_len,
            256
        );
        let err = config(&["--max-candidate-len", "255"]).unwrap_err();
        assert_eq!(err.to_string(), "--max-candidate-len must be at least 256");
        let gib = 1usize << 30;
        assert_eq!(
            config(&["--max-candidate-len", &gib.to_string()])
                .unwrap()
                .max_candidate_len,
            gib
        );
        for huge in [gib + 1, usize::MAX] {
            let err = config(&["--max-candidate-len", &huge.to_string()]).unwrap_err();
            assert_eq!(
                err.to_string(),
                "--max-candidate-len must be at most 1073741824 (1 GiB)"
            );
        }
        assert!(config(&["--max-candidate-len", "lots"]).is_err());
    }

    #[test]
    fn encoding_labels_are_parsed_and_checked() {
        assert_eq!(config(&[]).unwrap().encoding, TextEncoding::default());
        for (args, name) in [
            (&["-E", "latin1"][..], "windows-1252"),
            (&["--encoding", "Shift_JIS"], "Shift_JIS"),
            (&["--encoding=utf-16le"], "UTF-16LE"),
            (&["-E", "none"], "none"),
            (&["-E", "auto"], "auto"),
        ] {
            assert_eq!(config(args).unwrap().encoding.name(), name, "{args:?}");
        }
        let err = config(&["-E", "klingon"]).unwrap_err().to_string();
        assert!(
            err.starts_with("--encoding: unknown encoding label \"klingon\""),
            "{err}"
        );
        assert!(err.contains("https://encoding.spec.whatwg.org/"), "{err}");
    }

    /// Every flag and argument, of the scan and of each subcommand, has a
    /// one-line help for `-h` and whole sentences for `--help`: a help that
    /// clap cuts at its first paragraph (or that has none) fails here.
    #[test]
    fn every_flag_has_short_and_long_help() {
        let cmd = Args::command();
        let mut commands = vec![&cmd];
        commands.extend(cmd.get_subcommands());
        for c in commands {
            for arg in c.get_arguments() {
                let id = arg.get_id().as_str();
                if matches!(id, "help" | "version") {
                    continue;
                }
                let short = arg.get_help().map(|h| h.to_string());
                let short = short.unwrap_or_else(|| panic!("{id}: no help"));
                assert!(!short.contains('\n'), "{id}: help of several lines");
                if c.get_name() != "uriscan" {
                    continue;
                }
                let long = arg.get_long_help().map(|h| h.to_string());
                let long = long.unwrap_or_else(|| panic!("{id}: no long help"));
                assert!(long.starts_with(&short), "{id}: {long:?}");
                assert!(long.ends_with('.'), "{id}: {long:?} is cut");
            }
        }
    }
}
