//! Which schemes start a candidate without `//`, and the shape some of them
//! must have.
//!
//! A scheme followed by `://` starts a candidate (unless it is a single
//! letter, a Windows drive: `C://temp`). A scheme followed by
//! `:` alone (`mailto:`, `urn:`, `tel:`) starts one only when it is known:
//! registered in the IANA URI scheme registry (permanent and provisional
//! schemes, RFC 7595) or described by the uri(7) manual page. Some known
//! schemes are also ordinary words of English prose and logs (`info:`,
//! `tag:`, `data:`, `news:`, `message:`, `session:`), so those must also have
//! the shape their own specification gives; see [`has_required_shape`].

use super::core::{NeedMore, Window, LOOKBACK};
use crate::uri::table::{SCHEME, URI};

/// The longest scheme looked for before a `:`.
const MAX_SCHEME: usize = 64;

/// The shortest known scheme recognized after glued text (`x.ftp:` is not
/// an `ftp:`, `post.https://` is an `https:`).
const MIN_GLUED_SCHEME: usize = 3;

/// A scheme that starts a candidate.
#[derive(Clone, Copy, Debug)]
pub struct Scheme {
    /// Where it starts (the candidate's first byte), in the window.
    pub start: usize,
    /// Where its `:` is, in the window.
    pub colon: usize,
    /// True when `://` follows.
    pub slashes: bool,
}

impl Scheme {
    /// Finds the scheme that ends at `colon`, if one starts a candidate.
    ///
    /// Looks back at most [`MAX_SCHEME`] bytes, and at most [`MAX_LEN`]
    /// positions for a scheme glued to the text before it, each turned away
    /// by one table lookup unless a known scheme has its first letter and
    /// length.
    pub fn before(
        win: &Window<'_>,
        colon: usize,
        any_scheme: bool,
    ) -> Result<Option<Scheme>, NeedMore> {
        let hay = win.hay;
        if hay.len() < colon + 3 && !win.eof {
            return Err(NeedMore);
        }
        let slashes = hay[colon + 1..].starts_with(b"//");
        // Without `//`, only a known scheme starts a candidate (unless any
        // scheme does), and it ends right before the `:`: most words
        // before a `:` are turned away here, by their last two bytes.
        if !slashes && !any_scheme && !ends_like_known(&hay[..colon]) {
            return Ok(None);
        }
        // A non-ASCII character right after the `:` starts an IRI only in
        // an address ([`Scheme::accepts`] decides; this turns the others
        // away before their run is read: `Tip:設定…`, `Im:Übrigen`).
        if !slashes && hay.get(colon + 1).is_some_and(|b| !b.is_ascii()) {
            let address = ADDRESS_SCHEMES
                .iter()
                .any(|name| ends_with_ignore_case(&hay[..colon], name.as_bytes()));
            if !address {
                return Ok(None);
            }
        }
        let floor = colon.saturating_sub(LOOKBACK.min(MAX_SCHEME));
        let mut run = colon;
        while run > floor && SCHEME.contains(hay[run - 1]) {
            run -= 1;
        }
        crate::work::examined(colon - run + 1);
        // A run that goes on past the limit has no word boundary of its own.
        let bounded = run == 0 || !SCHEME.contains(hay[run - 1]);
        let after = hay.get(colon + 1).copied();
        if !slashes && !after.is_some_and(|b| (URI.contains(b) && b != b':') || !b.is_ascii()) {
            return Ok(None); // `News: …`, `data: …`, `Re:` at a line end, `DNS::Net`
        }
        let Some(word) = (run..colon).find(|&i| hay[i].is_ascii_alphabetic()) else {
            return Ok(None); // `12:30`
        };
        let at = |start| {
            Some(Scheme {
                start,
                colon,
                slashes,
            })
        };
        // A scheme right after another `:` is a piece of something else
        // (`2001:db8:aaa:bbb`, `jabber:server:dialback`), unless that `:`
        // ends the `URL:` prefix, or a log or config field's name
        // (`referer:https://…`, `[ref]:https://…`): a known scheme with `//`.
        if bounded && run > 0 && hay[run - 1] == b':' {
            let url_prefix = run >= 4 && hay[run - 4..run - 1].eq_ignore_ascii_case(b"url");
            let field_value = slashes && is_known(&hay[run..colon]);
            if !url_prefix && !field_value {
                return Ok(None);
            }
        }
        // Without `//`, a scheme after a variable's sigil or inside an
        // identifier is code: Rust macros' `$cap:tt` and `$dict:expr`, a C
        // bit field's `mem_lvl_num:4`. Or it ends a path in a list of them
        // ([`in_path_list`]).
        if !slashes && run > 0 && (in_code(hay, run) || in_path_list(hay, run, colon)) {
            return Ok(None);
        }
        // A scheme glued to a digit is the end of a word (`04bb:0528`,
        // `1abc://foo`), unless the digit ends an escape (`=A0https://`).
        let glued_to_digit =
            word > run && hay[word - 1].is_ascii_digit() && !after_escape(hay, word);
        if bounded && !glued_to_digit {
            let name = &hay[word..colon];
            if name.eq_ignore_ascii_case(b"url") {
                return Ok(None); // the `URL:` prefix of Appendix C
            }
            if is_known(name) {
                return Ok(at(word));
            }
        }
        // Text glued before a known scheme is not part of it:
        // `post.https://`, `can...http:`, quoted-printable's `=3Dhttp://`
        // and `=A0https://`. Only after a `.` or an escape: a word's end is
        // not a scheme (`broadcast:`), nor is what follows `+`
        // (`git+ssh://`). And letters glued to `http://` or `https://`
        // (see [`is_glued_web_scheme`]).
        let glued = (word + 1..colon)
            .filter(|&i| colon - i >= MIN_GLUED_SCHEME && colon - i < MAX_LEN)
            .find(|&i| {
                let after_glue = hay[i - 1] == b'.'
                    || after_escape(hay, i)
                    || slashes && is_glued_web_scheme(hay, i, colon);
                after_glue && hay[i].is_ascii_alphabetic() && is_known(&hay[i..colon])
            });
        if let Some(start) = glued {
            return Ok(at(start));
        }
        // No scheme of one letter is registered: `C://temp` is a Windows
        // drive.
        let drive = colon - word == 1;
        let unknown_ok = bounded && !glued_to_digit && (slashes && !drive || any_scheme);
        Ok(if unknown_ok { at(word) } else { None })
    }

    /// Returns true if and only if a candidate of this scheme, whose text
    /// after the `:` is `rest`, has the shape its scheme requires: any
    /// scheme with `//` does; without it, an unknown scheme does when
    /// `any_scheme` lets it in, and a known one must pass
    /// [`has_required_shape`]. `name` is the scheme's text.
    pub fn accepts(
        &self,
        name: &[u8],
        rest: &[u8],
        has: &mut dyn FnMut(u8) -> bool,
        any_scheme: bool,
    ) -> bool {
        // In `<...>` the `//` may have been wrapped (`<http:/` `/host>`).
        let slashes = rest.starts_with(b"//");
        // *Judgement call:* text glued to a `:` that ends a known scheme's
        // name is a label and its value far more often than a URI when it
        // is not ASCII (CJK writes no space after a colon: `Tip:設定…`,
        // `Data:東京,大阪`; German `Im:Übrigen`), so a non-ASCII character
        // right after the `:` starts an IRI only in an address, with its
        // `@`: an internationalized mail address (RFC 6530,
        // `mailto:用户@例子.广告`), an XMPP or SIP address. This holds with
        // `any_scheme` too.
        if rest.first().is_some_and(|b| !b.is_ascii()) {
            let address = ADDRESS_SCHEMES
                .iter()
                .any(|a| name.eq_ignore_ascii_case(a.as_bytes()));
            return address && has(b'@') && has_required_shape(name, rest, has);
        }
        if let Some(host) = authority_rule(name) {
            return slashes && (host == Host::MayBeEmpty || has_host(&rest[2..]));
        }
        if !slashes && is_port_or_account_fields(name, rest) && is_known(name) {
            return false;
        }
        slashes || (any_scheme && !is_known(name)) || has_required_shape(name, rest, has)
    }
}

/// Returns true if and only if `rest`, after a known scheme `name` and
/// its `:` without `//`, is what follows a host or account name that
/// happens to be a scheme's name, not a URI of it:
///
/// - a port (`redis:6379`, `smtp:25`, `mongodb:27017`: a service and its
///   port, in logs and configurations), a number alone, which is a URI
///   only of `oid` and of the calling schemes that take a bare number
///   (`facetime:14085551234`, `callto:5551234`; `tel:` and the like need
///   their own shape, see [`has_required_shape`]);
/// - the fields of an account line in `/etc/passwd`, `group` or `shadow`
///   (`man:x:6:12:…`, `apt:*:20228:0:…`, `man:$y$j9T$…:19000:…`): a
///   password placeholder (`x`, `*`, `!`, `!!` or `!*`) or a `crypt(3)`
///   hash (`$id$…`, no blank nor `:` in it, `!` before it when the
///   account is locked), `:` and a number. (With no placeholder,
///   `news::9:`, the `::` already ends it: see [`Scheme::before`].)
///
/// *Judgement call:* both are read as a name and its fields whatever the
/// scheme, so a scheme whose specification needs `//` is not required to
/// be listed to be turned away there.
fn is_port_or_account_fields(name: &[u8], rest: &[u8]) -> bool {
    let port = !rest.is_empty() && rest.iter().all(u8::is_ascii_digit);
    if port {
        let number_ok = [&b"oid"[..], b"facetime", b"callto"];
        return !number_ok.iter().any(|n| name.eq_ignore_ascii_case(n));
    }
    let hash = match rest {
        [b'$', ..] | [b'!', b'$', ..] => rest
            .iter()
            .take(MAX_HASH)
            .take_while(|&&b| b.is_ascii_graphic() && b != b':')
            .count(),
        _ => 0,
    };
    let placeholder = if hash > 0 {
        hash
    } else {
        rest.iter()
            .take(3)
            .take_while(|&&b| matches!(b, b'x' | b'*' | b'!'))
            .count()
    };
    let placeholder_ok =
        hash > 0 || matches!(&rest[..placeholder], b"x" | b"*" | b"!" | b"!!" | b"!*");
    placeholder_ok
        && rest.get(placeholder) == Some(&b':')
        && rest.get(placeholder + 1).is_some_and(u8::is_ascii_digit)
}

/// The schemes whose path is an address with an `@`, which may start
/// with a non-ASCII character ([`Scheme::accepts`]).
const ADDRESS_SCHEMES: [&str; 7] = ["mailto", "xmpp", "jabber", "sip", "sips", "im", "pres"];

/// Returns true if and only if `text` ends with `word`, in any case.
fn ends_with_ignore_case(text: &[u8], word: &[u8]) -> bool {
    text.len() >= word.len() && text[text.len() - word.len()..].eq_ignore_ascii_case(word)
}

/// Returns true if and only if `hay[i..colon]` is `http` or `https` (any
/// case) and an ASCII letter is glued before it, in an unknown scheme:
/// `Seehttps://`, `forumhttp://`, a doubled `hhttp://`, a C string's
/// `\nhttps://`, and the trail byte of a Shift-JIS or Big5 character read
/// undecoded (`Whttp://`).
///
/// *Judgement call:* the scheme is the `http` or `https` at its end, as a
/// reader reads it. No registered or commonly used scheme ends in letters
/// and `http` (`shttp` is known, so never split; `git+https` and
/// `persistent-https` have a separator). Other known schemes are left
/// whole: `gsiftp://` and `sshftp://` are real and unregistered, and end
/// in `ftp`.
fn is_glued_web_scheme(hay: &[u8], i: usize, colon: usize) -> bool {
    let name = &hay[i..colon];
    hay[i - 1].is_ascii_alphabetic()
        && (name.eq_ignore_ascii_case(b"http") || name.eq_ignore_ascii_case(b"https"))
}

/// Returns true if and only if the byte before `i` makes the word at `i` a
/// piece of code: a `$` (a variable's sigil), or a `_` after a letter or
/// digit (an identifier; a `_` after anything else may open Markdown's
/// emphasis, `_mailto:x@y.org_`).
fn in_code(hay: &[u8], i: usize) -> bool {
    match hay[i - 1] {
        b'$' => true,
        b'_' => i >= 2 && hay[i - 2].is_ascii_alphanumeric(),
        _ => false,
    }
}

/// Returns true if and only if the word at `run` (before the `:` at
/// `colon`) ends a path in a list of them: it follows a `/`, and the next
/// path or a variable follows the `:` (`MANPATH=/usr/share/man:/usr/local/man`,
/// `PYTHONPATH=/srv/file:/srv/lib`, `$HOME/man:$MANPATH`). A `/` alone
/// before a scheme is prose's `or` (`a Firefox extension/about:config`).
fn in_path_list(hay: &[u8], run: usize, colon: usize) -> bool {
    hay[run - 1] == b'/' && matches!(hay.get(colon + 1), Some(b'/' | b'$'))
}

/// Returns true if and only if the three bytes before `i` are a percent or
/// quoted-printable escape (`%HH`, `=HH`): what glues a scheme to the text
/// before it in encoded text read as it is.
fn after_escape(hay: &[u8], i: usize) -> bool {
    i >= 3
        && matches!(hay[i - 3], b'=' | b'%')
        && hay[i - 2].is_ascii_hexdigit()
        && hay[i - 1].is_ascii_hexdigit()
}

/// Longer than every `crypt(3)` hash a shadow file holds (yescrypt's
/// and SHA-512's are about 100 bytes).
const MAX_HASH: usize = 256;

/// Longer than every scheme that [`authority_rule`] and
/// [`has_required_shape`] name (`content-type` is the longest).
const MAX_NAMED: usize = 16;

/// `name` in lower case, in `buf`; empty (no scheme) when it is longer
/// than `buf`, and so than every scheme named in a rule.
fn lowercase<'b>(name: &[u8], buf: &'b mut [u8; MAX_NAMED]) -> &'b [u8] {
    let Some(lower) = buf.get_mut(..name.len()) else {
        return &[];
    };
    for (to, &from) in lower.iter_mut().zip(name) {
        *to = from.to_ascii_lowercase();
    }
    lower
}

/// Whether a scheme's authority may have an empty host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Host {
    Required,
    MayBeEmpty,
}

/// The schemes whose specification gives them an authority (`//`), and
/// whether its host may be empty: `http:443-`, `pop:2`, `svn:mergeinfo`,
/// `http://#` and `https:///x` are not URIs of their scheme.
fn authority_rule(scheme: &[u8]) -> Option<Host> {
    match lowercase(scheme, &mut [0; MAX_NAMED]) {
        // RFC 9110, 6455, 1738, 4266, 4248, 5538, 5092, 2384, 3507: a host.
        b"http" | b"https" | b"ws" | b"wss" | b"ftp" | b"gopher" | b"telnet" | b"nntp"
        | b"imap" | b"pop" | b"icap" => Some(Host::Required),
        // RFC 7826 (RTSP), 7252 (CoAP), 3510 and 7472 (IPP), 3617 (TFTP),
        // Mumble's: a host.
        b"rtsp" | b"rtsps" | b"rtspu" | b"coap" | b"coaps" | b"ipp" | b"ipps" | b"tftp"
        | b"mumble" => Some(Host::Required),
        // RFC 4516 (`ldap:///` is the server's default), 7869 (VNC), 4088
        // (SNMP), and tools' own (Redis, MongoDB, SMB, SMTP): their `//`
        // at least, so that an image's tag (`redis:7.2`, `mongodb:6.0.5`)
        // or a service's port (`redis:6379/0`) is none of them.
        b"ldap" | b"ldaps" | b"svn" | b"git" | b"ssh" | b"sftp" | b"rsync" | b"irc" | b"ircs"
        | b"vnc" | b"snmp" | b"redis" | b"rediss" | b"mongodb" | b"smb" | b"smtp" => {
            Some(Host::MayBeEmpty)
        }
        _ => None,
    }
}

/// Returns true if and only if the specification of `scheme` requires its
/// URIs to name a host (`http`, `ftp`, …: `http://` alone names nothing).
#[cfg(feature = "docs")]
pub fn requires_host(scheme: &[u8]) -> bool {
    authority_rule(scheme) == Some(Host::Required)
}

/// Returns true if and only if `authority` (what follows `//`) starts with
/// a host: not with the end of the authority (`/`, `?`, `#`), a port's
/// `:`, or nothing.
fn has_host(authority: &[u8]) -> bool {
    authority
        .first()
        .is_some_and(|b| !matches!(b, b'/' | b'?' | b'#' | b':'))
}

/// Known schemes, lower case, sorted (which keeps the list easy to read and
/// lets a test check it holds no name twice); looked up through
/// [`KNOWN_SLOTS`], not searched.
///
/// The IANA registry's permanent and provisional schemes, plus the uri(7)
/// schemes (`man`, `info`, `whatis`, `gopher`, `telnet`, `file`, `news`,
/// `nntp`, `mailto`, `ftp`, `http`, `https`). Historical schemes that are
/// still seen in old mail and RFCs (`gopher`, `prospero`, `wais`, `snews`)
/// are included. `dhttp` is left out: in real text it is almost always
/// quoted-printable's `=3Dhttp`, not the provisional scheme. `jdbc` is
/// not registered, but Java's database drivers are configured with it
/// everywhere (`jdbc:postgresql://db:5432/app`): read as an unknown scheme,
/// such a URL was lost whole (its driver's name is not a scheme after a
/// field's `:`; see [`Scheme::before`]).
const KNOWN: &[&str] = &[
    "aaa",
    "aaas",
    "about",
    "acap",
    "acct",
    "acd",
    "acr",
    "adiumxtra",
    "adt",
    "afp",
    "afs",
    "aim",
    "amss",
    "android",
    "appdata",
    "apt",
    "ar",
    "ark",
    "at",
    "attachment",
    "aw",
    "barion",
    "bb",
    "beshare",
    "bitcoin",
    "bitcoincash",
    "blob",
    "bolo",
    "brid",
    "browserext",
    "cabal",
    "calculator",
    "callto",
    "cap",
    "cast",
    "casts",
    "chrome",
    "chrome-extension",
    "cid",
    "coap",
    "coap+tcp",
    "coap+ws",
    "coaps",
    "coaps+tcp",
    "coaps+ws",
    "com-eventbrite-attendee",
    "content",
    "content-type",
    "crid",
    "cstr",
    "cvs",
    "dab",
    "dat",
    "data",
    "dav",
    "diaspora",
    "dict",
    "did",
    "dis",
    "dlna-playcontainer",
    "dlna-playsingle",
    "dns",
    "dntp",
    "doi",
    "dpp",
    "drm",
    "drop",
    "dtmi",
    "dtn",
    "dvb",
    "dvx",
    "dweb",
    "ed2k",
    "eid",
    "elsi",
    "embedded",
    "ens",
    "ethereum",
    "example",
    "facetime",
    "fax",
    "feed",
    "feedready",
    "fido",
    "file",
    "filesystem",
    "finger",
    "first-run-pen-experience",
    "fish",
    "fm",
    "ftp",
    "fuchsia-pkg",
    "geo",
    "gg",
    "git",
    "gitoid",
    "gizmoproject",
    "go",
    "gopher",
    "graph",
    "grd",
    "gtalk",
    "h323",
    "ham",
    "hcap",
    "hcp",
    "hs20",
    "http",
    "https",
    "hxxp",
    "hxxps",
    "hydrazone",
    "hyper",
    "iax",
    "icap",
    "icon",
    "im",
    "imap",
    "info",
    "iotdisco",
    "ipfs",
    "ipn",
    "ipns",
    "ipp",
    "ipps",
    "irc",
    "irc6",
    "ircs",
    "iris",
    "iris.beep",
    "iris.lwz",
    "iris.xpc",
    "iris.xpcs",
    "isostore",
    "itms",
    "jabber",
    "jar",
    "jdbc",
    "jms",
    "keyparc",
    "lastfm",
    "lbry",
    "ldap",
    "ldaps",
    "leaptofrogans",
    "lid",
    "lorawan",
    "lpa",
    "lvlt",
    "magnet",
    "mailserver",
    "mailto",
    "man",
    "maps",
    "market",
    "matrix",
    "message",
    "microsoft.windows.camera",
    "microsoft.windows.camera.multipicker",
    "microsoft.windows.camera.picker",
    "mid",
    "mms",
    "modem",
    "mongodb",
    "moz",
    "ms-access",
    "ms-appinstaller",
    "ms-browser-extension",
    "ms-calculator",
    "ms-drive-to",
    "ms-enrollment",
    "ms-excel",
    "ms-eyecontrolspeech",
    "ms-gamebarservices",
    "ms-gamingoverlay",
    "ms-getoffice",
    "ms-help",
    "ms-infopath",
    "ms-inputapp",
    "ms-launchremotedesktop",
    "ms-lockscreencomponent-config",
    "ms-media-stream-id",
    "ms-meetnow",
    "ms-mixedrealitycapture",
    "ms-mobileplans",
    "ms-newsandinterests",
    "ms-officeapp",
    "ms-people",
    "ms-powerpoint",
    "ms-project",
    "ms-publisher",
    "ms-remotedesktop",
    "ms-remotedesktop-launch",
    "ms-restoretabcompanion",
    "ms-screenclip",
    "ms-screensketch",
    "ms-search",
    "ms-search-repair",
    "ms-secondary-screen-controller",
    "ms-secondary-screen-setup",
    "ms-settings",
    "ms-settings-airplanemode",
    "ms-settings-bluetooth",
    "ms-settings-camera",
    "ms-settings-cellular",
    "ms-settings-cloudstorage",
    "ms-settings-connectabledevices",
    "ms-settings-displays-topology",
    "ms-settings-emailandaccounts",
    "ms-settings-language",
    "ms-settings-location",
    "ms-settings-lock",
    "ms-settings-nfctransactions",
    "ms-settings-notifications",
    "ms-settings-power",
    "ms-settings-privacy",
    "ms-settings-proximity",
    "ms-settings-screenrotation",
    "ms-settings-wifi",
    "ms-settings-workplace",
    "ms-spd",
    "ms-stickers",
    "ms-sttoverlay",
    "ms-transit-to",
    "ms-useractivityset",
    "ms-virtualtouchpad",
    "ms-visio",
    "ms-walk-to",
    "ms-whiteboard",
    "ms-whiteboard-cmd",
    "ms-word",
    "msnim",
    "msrp",
    "msrps",
    "mss",
    "mt",
    "mtqp",
    "mumble",
    "mupdate",
    "mvn",
    "mvrp",
    "mvrps",
    "news",
    "nfs",
    "ni",
    "nih",
    "nntp",
    "notes",
    "num",
    "ocf",
    "oid",
    "onenote",
    "onenote-cmd",
    "opaquelocktoken",
    "openid",
    "openpgp4fpr",
    "otpauth",
    "p1",
    "pack",
    "palm",
    "paparazzi",
    "payment",
    "payto",
    "pkcs11",
    "platform",
    "pop",
    "pres",
    "prospero",
    "proxy",
    "psyc",
    "pttp",
    "pwid",
    "qb",
    "query",
    "quic-transport",
    "redis",
    "rediss",
    "reload",
    "res",
    "resource",
    "rmi",
    "rsync",
    "rtmfp",
    "rtmp",
    "rtsp",
    "rtsps",
    "rtspu",
    "sarif",
    "secondlife",
    "secret-token",
    "service",
    "session",
    "sftp",
    "sgn",
    "shc",
    "shttp",
    "sieve",
    "simpleledger",
    "simplex",
    "sip",
    "sips",
    "skype",
    "smb",
    "smp",
    "sms",
    "smtp",
    "snews",
    "snmp",
    "soap.beep",
    "soap.beeps",
    "soldat",
    "spiffe",
    "spotify",
    "ssb",
    "ssh",
    "starknet",
    "steam",
    "stun",
    "stuns",
    "submit",
    "svn",
    "swh",
    "swid",
    "swidpath",
    "tag",
    "taler",
    "teamspeak",
    "tel",
    "teliaeid",
    "telnet",
    "tftp",
    "things",
    "thismessage",
    "tip",
    "tn3270",
    "tool",
    "turn",
    "turns",
    "tv",
    "udp",
    "unreal",
    "upt",
    "urn",
    "ut2004",
    "uuid-in-package",
    "v-event",
    "vemmi",
    "ventrilo",
    "ves",
    "videotex",
    "view-source",
    "vnc",
    "vscode",
    "vscode-insiders",
    "vsls",
    "w3",
    "wais",
    "wcr",
    "web3",
    "webcal",
    "whatis",
    "wifi",
    "wpid",
    "ws",
    "wss",
    "wtai",
    "wyciwyg",
    "xcon",
    "xcon-userid",
    "xfire",
    "xftp",
    "xmlrpc.beep",
    "xmlrpc.beeps",
    "xmpp",
    "xri",
    "ymsgr",
    "z39.50",
    "z39.50r",
    "z39.50s",
];

/// Every known scheme is shorter than this, in bytes.
const MAX_LEN: usize = 40;

/// For each first letter, bit `n` is set when a known scheme of that letter
/// has `n` bytes: most words before a `:` are turned away by one lookup.
const FIRST_LETTER_LENGTHS: [u64; 26] = {
    let mut table = [0u64; 26];
    let mut i = 0;
    while i < KNOWN.len() {
        let name = KNOWN[i].as_bytes();
        assert!(name.len() < MAX_LEN && name[0].is_ascii_lowercase());
        table[(name[0] - b'a') as usize] |= 1 << name.len();
        i += 1;
    }
    table
};

/// Returns true if and only if `scheme` (any case) is a known scheme.
/// Its bytes are those of a scheme (`ALPHA / DIGIT / "+" / "-" / "."`), as
/// every name before a `:` that the scanner looks up is.
pub fn is_known(scheme: &[u8]) -> bool {
    debug_assert!(scheme.iter().all(|&b| SCHEME.contains(b)));
    let Some(&first) = scheme.first() else {
        return false;
    };
    let first = first.to_ascii_lowercase();
    if !first.is_ascii_lowercase()
        || scheme.len() >= MAX_LEN
        || FIRST_LETTER_LENGTHS[(first - b'a') as usize] & (1 << scheme.len()) == 0
    {
        return false;
    }
    crate::work::examined(scheme.len());
    let key = Key::of(scheme);
    let mut slot = key.slot();
    loop {
        let Some(i) = KNOWN_SLOTS[slot].checked_sub(1) else {
            return false;
        };
        let i = usize::from(i);
        // Keys tell schemes of up to 16 bytes apart; longer ones are
        // compared whole.
        if KNOWN_KEYS[i] == key
            && (scheme.len() <= 16 || KNOWN[i].as_bytes().eq_ignore_ascii_case(scheme))
        {
            return true;
        }
        slot = (slot + 1) % SLOTS;
    }
}

/// The size of [`KNOWN_SLOTS`]: a power of two, near three times the
/// number of known schemes, so that lookups probe one or two slots.
const SLOTS: usize = 1024;

/// The known schemes in an open-addressing hash table: each slot holds
/// one plus a scheme's index in [`KNOWN`], or 0 when empty; a scheme sits
/// at the [`Key::slot`] of its key, or in the first free slot after it.
const KNOWN_SLOTS: [u16; SLOTS] = {
    let mut slots = [0u16; SLOTS];
    let mut i = 0;
    while i < KNOWN.len() {
        let mut slot = Key::of(KNOWN[i].as_bytes()).slot();
        while slots[slot] != 0 {
            slot = (slot + 1) % SLOTS;
        }
        slots[slot] = i as u16 + 1;
        i += 1;
    }
    slots
};

/// The [`Key`] of each known scheme, by its index in [`KNOWN`].
const KNOWN_KEYS: [Key; KNOWN.len()] = {
    let mut keys = [Key {
        len: 0,
        head: 0,
        tail: 0,
    }; KNOWN.len()];
    let mut i = 0;
    while i < KNOWN.len() {
        keys[i] = Key::of(KNOWN[i].as_bytes());
        i += 1;
    }
    keys
};

/// A scheme's name as numbers: its length, and its first and last eight
/// bytes (all of them when shorter), little-endian, each byte with bit
/// `0x20` set, which puts the bytes of a scheme in lower case. So two
/// schemes of at most 16 bytes are equal, in any case, if and only if
/// their keys are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    len: usize,
    head: u64,
    tail: u64,
}

impl Key {
    #[inline]
    const fn of(name: &[u8]) -> Key {
        const FOLD: u64 = u64::from_ne_bytes([0x20; 8]);
        let (head, tail) = match (name.first_chunk::<8>(), name.last_chunk::<8>()) {
            (Some(head), Some(tail)) => (u64::from_le_bytes(*head), u64::from_le_bytes(*tail)),
            _ => {
                let word = Key::short_word(name);
                (word, word)
            }
        };
        Key {
            len: name.len(),
            head: head | FOLD,
            tail: tail | FOLD,
        }
    }

    /// The bytes of `name` (shorter than eight bytes), little-endian, read
    /// as two overlapping halves.
    #[inline]
    const fn short_word(name: &[u8]) -> u64 {
        let n = name.len();
        if let (Some(head), Some(tail)) = (name.first_chunk::<4>(), name.last_chunk::<4>()) {
            u32::from_le_bytes(*head) as u64 | (u32::from_le_bytes(*tail) as u64) << (8 * (n - 4))
        } else if let (Some(head), Some(tail)) = (name.first_chunk::<2>(), name.last_chunk::<2>()) {
            u16::from_le_bytes(*head) as u64 | (u16::from_le_bytes(*tail) as u64) << (8 * (n - 2))
        } else if let Some(&only) = name.first() {
            only as u64
        } else {
            0
        }
    }

    /// The slot of [`KNOWN_SLOTS`] where the key is looked for first.
    #[inline]
    const fn slot(&self) -> usize {
        let mixed = (self.head ^ self.tail.rotate_left(29) ^ self.len as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> (64 - SLOTS.trailing_zeros())) as usize
    }
}

/// Returns true if and only if `before` (the bytes before a `:`) may end
/// with a known scheme, in any case: it ends with a known scheme of two or
/// three bytes, or with the last four bytes of a longer one (as far as
/// [`ENDINGS`] tells, which may let a few other words pass, never a
/// known scheme fail).
fn ends_like_known(before: &[u8]) -> bool {
    let n = before.len();
    (n >= 2 && ENDINGS.may_hold(&before[n - 2..]))
        || (n >= 3 && ENDINGS.may_hold(&before[n - 3..]))
        || (n >= 4 && ENDINGS.may_hold(&before[n - 4..]))
}

/// The endings of the known schemes ([`ends_like_known`]).
const ENDINGS: Endings = {
    let mut endings = Endings([0; ENDING_WORDS]);
    let mut i = 0;
    while i < KNOWN.len() {
        let name = KNOWN[i].as_bytes();
        let from = name.len().saturating_sub(4);
        let (_, ending) = name.split_at(from);
        let bit = Endings::bit(ending);
        endings.0[bit / 64] |= 1 << (bit % 64);
        i += 1;
    }
    endings
};

/// The size of [`Endings`], in words of 64 bits: about twenty bits for
/// each known scheme, so that few other words pass.
const ENDING_WORDS: usize = 128;

/// A set of strings of two to four bytes, any case, kept as one bit each
/// (a Bloom filter with one hash): it may hold a string it was not given,
/// never lack one that it was.
struct Endings([u64; ENDING_WORDS]);

impl Endings {
    /// Returns true if `ending` (two to four bytes) may be in the set.
    #[inline]
    fn may_hold(&self, ending: &[u8]) -> bool {
        let bit = Endings::bit(ending);
        self.0[bit / 64] & (1 << (bit % 64)) != 0
    }

    /// The bit of `ending`: a hash of its length and of its bytes with
    /// bit `0x20` set (a scheme's bytes in lower case).
    #[inline]
    const fn bit(ending: &[u8]) -> usize {
        let mut key = ending.len() as u64;
        let mut i = 0;
        while i < ending.len() {
            key = key << 8 | (ending[i] | 0x20) as u64;
            i += 1;
        }
        let bits = (ENDING_WORDS * 64).trailing_zeros();
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }
}

/// For a known scheme used without `//`, returns true if and only if what
/// follows its `:` has the shape the scheme's specification requires, for
/// the schemes that are also common words or that give noise in real text.
/// `rest` is the whole remainder of the candidate; `has` tells whether it
/// holds a byte (the scanner answers from what it knows of the run, so that
/// many candidates in one run do not search it again and again).
///
/// - `mailto:` has an `@` or a `?` (RFC 6068: `mailto:?to=…` is allowed).
/// - `urn:` has a namespace and a `:` after it (RFC 8141: `urn:NID:NSS`).
/// - `tel:`, `fax:`, `modem:`, `sms:` hold a global number (`+` and a
///   digit), or a local one (a digit) with parameters: RFC 3966 requires a
///   local number's `;phone-context=` (RFC 2806 and 5724 too). So the
///   label of a signature's number is not a URI (`TEL:44-7031-946-936`),
///   nor the piece of a number written with spaces (`tel:033-12 60 93`).
/// - `news:` has a `.` or an `@` (a newsgroup or a message-id, RFC 5538),
///   or is `news:*`.
/// - `info:` is `info:namespace/identifier` (RFC 4452).
/// - `tag:` is `tag:authority,date:specific` (RFC 4151).
/// - `data:` has a media type (`type/subtype`, or none) and the `,` that
///   ends it (RFC 2397): not a script's `data:r,handler:n`.
/// - `jdbc:` is followed by its driver's name, `:` and an address
///   (`jdbc:mysql://…`, `jdbc:oracle:thin:@//…`, `jdbc:h2:mem:db`; not
///   a program's `"jdbc:mysql://" + host`: see [`jdbc_shape`]).
/// - `geo:` starts with a digit or `-` (RFC 5870).
/// - `cid:`/`mid:` have an `@` (RFC 2392).
/// - `jabber:` has an `@` (`jabber:client` is an XML namespace).
/// - `file:` has a `/` next (RFC 8089: `file:///path`, `file://host/path`,
///   `file:/path`; uri(7) too): `FILE:LINE_NUMBER` is a placeholder.
/// - `dns:` has a name (a letter or digit) or `//` next (RFC 4501):
///   `DNS:*.example.org` is a certificate's wildcard name.
/// - `oid:` starts with a digit (an OID's arcs): `OID:PID` is a
///   placeholder.
/// - `sip:`/`sips:` have an `@`, a `.` or an IPv6 literal (RFC 3261: a
///   host's last label starts with a letter, so `sip:500` has none), and
///   do not end with the `@`: the rest is a piece of one cut at a line
///   break or at pipermail's ` at ` (`sip:500 at ekiga.net`,
///   `sip:jones@` / `example.com` in a table).
/// - `skype:` starts with a letter (a Skype name) or `+` (a number): a
///   kernel log's `ioctl32(skype:9593)` is a process and its id.
/// - `blob:` is followed by the origin that made it (the File API:
///   `blob:https://example.org/<uuid>`, Node's `blob:nodedata:<uuid>`):
///   a scheme and its `:`, or `null/` (an opaque origin). Git's object
///   filters `blob:none` and `blob:limit=1k` are not URIs.
/// - `message:`, `session:`, `service:`, `example:`, `content:`,
///   `content-type:` (mail headers), `feed:`, `drm:` (kernel logs), `ni:`
///   (YANG paths; RFC 6920 `ni:` URIs have `//` anyway), `query:`,
///   `tool:`, `at:`, `go:`, `res:`, `things:`, `tv:`, `pack:`, `platform:`,
///   `proxy:`, `submit:`, `notes:`, `drop:`, `graph:`, `icon:`, `hyper:`
///   are words far more often than URIs; they count only with `//`.
///
/// Every check reads a bounded prefix of `rest` (or its last byte) or asks
/// `has`.
pub fn has_required_shape(scheme: &[u8], rest: &[u8], has: &mut dyn FnMut(u8) -> bool) -> bool {
    let starts_digit_or = |c: u8| rest.first().is_some_and(|&f| f.is_ascii_digit() || f == c);
    match lowercase(scheme, &mut [0; MAX_NAMED]) {
        b"mailto" => rest.first() == Some(&b'?') || has(b'@'),
        b"urn" => {
            let nid = prefix_len(rest, MAX_URN_NID + 1, |b| {
                b.is_ascii_alphanumeric() || b == b'-'
            });
            (1..=MAX_URN_NID).contains(&nid) && rest.get(nid) == Some(&b':') && rest.len() > nid + 1
        }
        b"tel" | b"fax" | b"modem" | b"sms" => match rest.first() {
            Some(b'+') => rest
                .get(1)
                .is_some_and(|&b| b.is_ascii_digit() || b == b'('),
            Some(first) => first.is_ascii_digit() && has(b';'),
            None => false,
        },
        b"news" | b"snews" => rest == b"*" || has(b'.') || has(b'@'),
        b"info" => {
            let ns = prefix_len(rest, MAX_INFO_NAMESPACE + 1, |b| b.is_ascii_alphanumeric());
            (1..=MAX_INFO_NAMESPACE).contains(&ns)
                && rest.get(ns) == Some(&b'/')
                && rest.len() > ns + 1
        }
        b"tag" => tag_shape(rest),
        b"data" => data_shape(rest),
        b"geo" => starts_digit_or(b'-'),
        b"cid" | b"mid" | b"jabber" => has(b'@'),
        b"file" => rest.first() == Some(&b'/'),
        b"dns" => rest
            .first()
            .is_some_and(|&f| f.is_ascii_alphanumeric() || f == b'/'),
        b"oid" => rest.first().is_some_and(u8::is_ascii_digit),
        b"sip" | b"sips" => {
            let host_after_at = rest.last() != Some(&b'@');
            host_after_at && (rest.first() == Some(&b'[') || has(b'@') || has(b'.'))
        }
        b"skype" => rest
            .first()
            .is_some_and(|&f| f.is_ascii_alphabetic() || f == b'+'),
        b"blob" => rest.starts_with(b"null/") || starts_with_scheme(rest),
        b"jdbc" => jdbc_shape(rest),
        b"message" | b"session" | b"service" | b"example" | b"content" | b"content-type"
        | b"feed" | b"drm" | b"ni" | b"query" | b"tool" | b"at" | b"go" | b"res" | b"things"
        | b"tv" | b"pack" | b"platform" | b"proxy" | b"submit" | b"notes" | b"drop" | b"graph"
        | b"icon" | b"hyper" => false,
        _ => true,
    }
}

/// Returns true if and only if `rest`, after `data:`, starts with the
/// media type RFC 2397 gives it and then its `,`: nothing, parameters
/// alone (`;base64`), or `type/subtype` and parameters
/// (`image/png;base64`), within [`MAX_DATA_TYPE`] bytes. A minified
/// script's `data:r,handler:n` is an object's fields.
fn data_shape(rest: &[u8]) -> bool {
    let head = &rest[..rest.len().min(MAX_DATA_TYPE + 1)];
    crate::work::examined(head.len());
    let Some(comma) = memchr::memchr(b',', head) else {
        return false;
    };
    let media = &head[..comma];
    let kind = &media[..memchr::memchr(b';', media).unwrap_or(media.len())];
    let is_token = |t: &[u8]| {
        !t.is_empty()
            && t.iter()
                .all(|&b| b.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&b))
    };
    kind.is_empty()
        || kind
            .iter()
            .position(|&b| b == b'/')
            .is_some_and(|slash| is_token(&kind[..slash]) && is_token(&kind[slash + 1..]))
}

/// Returns true if and only if `rest`, after `jdbc:`, is a driver's name,
/// its `:` and an address: two bytes or more, a letter or digit among its
/// first [`MAX_ORIGIN_SCHEME`], not ending in `@`. A program's prefix
/// (`"jdbc:mysql://" + host`, `"jdbc:oracle:thin:@"`) and a Windows
/// path's drive (`jdbc:sqlite:C:\db`) are not URLs.
fn jdbc_shape(rest: &[u8]) -> bool {
    let head = &rest[..rest.len().min(MAX_ORIGIN_SCHEME + 1)];
    let Some(colon) = crate::uri::scheme_end(head) else {
        return false;
    };
    let address = &rest[colon + 1..];
    let head = &address[..address.len().min(MAX_ORIGIN_SCHEME)];
    crate::work::examined(colon + head.len());
    address.len() >= 2 && head.iter().any(u8::is_ascii_alphanumeric) && rest.last() != Some(&b'@')
}

/// Longer than a `data:` URI's media type and its parameters
/// (`application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64`).
const MAX_DATA_TYPE: usize = 255;

/// Returns true if and only if `rest` starts with a scheme and its `:`
/// (the parser's rule), looking at most [`MAX_ORIGIN_SCHEME`] bytes.
fn starts_with_scheme(rest: &[u8]) -> bool {
    let head = &rest[..rest.len().min(MAX_ORIGIN_SCHEME + 1)];
    crate::work::examined(head.len());
    crate::uri::scheme_end(head).is_some()
}

/// Longer than the scheme of any origin a `blob:` URI names (`https`,
/// `chrome-extension`, `nodedata`).
const MAX_ORIGIN_SCHEME: usize = 32;

/// RFC 8141: a namespace identifier has at most 32 bytes.
const MAX_URN_NID: usize = 32;

/// RFC 4452 namespaces are short tokens (`lccn`, `ddc`, `pronom`).
const MAX_INFO_NAMESPACE: usize = 64;

/// RFC 4151: an authority name is a DNS name (at most 255 bytes) or an
/// e-mail address (at most 320).
const MAX_TAG_AUTHORITY: usize = 320;

/// The length of the prefix of `s` whose bytes pass `ok`, looking at most
/// `limit` bytes.
fn prefix_len(s: &[u8], limit: usize, ok: impl Fn(u8) -> bool) -> usize {
    let len = s.iter().take(limit).take_while(|&&b| ok(b)).count();
    crate::work::examined(len + 1);
    len
}

/// `tag:` `taggingEntity ":" specific`, where
/// `taggingEntity = authorityName "," date` and
/// `date = year ["-" month ["-" day]]` (four, then two and two digits).
fn tag_shape(rest: &[u8]) -> bool {
    let head = &rest[..rest.len().min(MAX_TAG_AUTHORITY + 1)];
    crate::work::examined(head.len());
    let Some(comma) = memchr::memchr(b',', head).filter(|&c| c > 0) else {
        return false;
    };
    let date = &rest[comma + 1..];
    let digits = |s: &[u8], n: usize| s.len() >= n && s[..n].iter().all(u8::is_ascii_digit);
    if !digits(date, 4) {
        return false;
    }
    let mut at = 4;
    for _ in 0..2 {
        if date.get(at) == Some(&b'-') && digits(&date[at + 1..], 2) {
            at += 3;
        } else {
            break;
        }
    }
    date.get(at) == Some(&b':')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_colon_search_keeps_the_address_schemes_last_letters() {
        // The colon search passes over a `:` before a non-ASCII byte
        // unless the byte before it ends an address scheme: exactly their
        // last letters, in any case.
        use crate::scan::colons::ends_address_scheme;
        let last = |name: &str| name.as_bytes()[name.len() - 1];
        for b in 0..=255u8 {
            let ends_one = ADDRESS_SCHEMES
                .iter()
                .any(|name| b.eq_ignore_ascii_case(&last(name)));
            assert_eq!(ends_address_scheme(b), ends_one, "{:?}", b as char);
        }
    }

    #[test]
    fn list_is_sorted_lowercase_and_unique() {
        for w in KNOWN.windows(2) {
            assert!(w[0] < w[1], "{} !< {}", w[0], w[1]);
        }
        assert!(KNOWN.iter().all(|s| crate::uri::is_scheme(s.as_bytes())));
        assert!(KNOWN.iter().all(|s| *s == s.to_ascii_lowercase()));
    }

    /// The hash table answers as the list does.
    #[test]
    fn the_table_holds_every_known_scheme_and_nothing_else() {
        let linear = |s: &[u8]| KNOWN.iter().any(|k| k.as_bytes().eq_ignore_ascii_case(s));
        for k in KNOWN {
            assert!(is_known(k.as_bytes()), "{k}");
            assert!(is_known(k.to_ascii_uppercase().as_bytes()), "{k}");
            assert!(ends_like_known(k.as_bytes()), "{k}");
            let (mut longer, shorter) = (k.to_string(), &k[..k.len() - 1]);
            longer.push('x');
            assert_eq!(is_known(longer.as_bytes()), linear(longer.as_bytes()));
            assert_eq!(is_known(shorter.as_bytes()), linear(shorter.as_bytes()));
        }
        // Lookups stay short: no run of filled slots is long.
        let longest = KNOWN_SLOTS
            .split(|&i| i == 0)
            .map(<[u16]>::len)
            .max()
            .unwrap();
        assert!(longest <= 16, "a run of {longest} filled slots");
        for s in [
            "a",
            "from",
            "re",
            "ms-settings-x",
            "HTTPS",
            "x.http",
            "Z39.50R",
        ] {
            assert_eq!(is_known(s.as_bytes()), linear(s.as_bytes()), "{s}");
        }
        assert!(!ends_like_known(b"from") && !ends_like_known(b"p") && !ends_like_known(b""));
    }

    #[test]
    fn known_any_case() {
        for s in [
            "mailto", "URN", "Tel", "news", "data", "man", "info", "whatis", "z39.50s",
        ] {
            assert!(is_known(s.as_bytes()), "{s}");
        }
        for s in ["re", "note", "c", "key", "v1.2.3", "12", "url", "fwd", ""] {
            assert!(!is_known(s.as_bytes()), "{s}");
        }
    }

    fn shape(scheme: &str, rest: &str) -> bool {
        let rest = rest.as_bytes();
        has_required_shape(scheme.as_bytes(), rest, &mut |b| rest.contains(&b))
    }

    #[test]
    fn shapes() {
        let ok = [
            ("mailto", "a@b.org"),
            ("urn", "ietf:rfc:3986"),
            ("tel", "+1-816-555-1212"),
            ("Tel", "+1(541)382-8588"),
            ("tel", "7042;phone-context=example.com"),
            ("sms", "+15105550101?body=hello"),
            ("sip", "alice@atlanta.com"),
            ("sips", "atlanta.com;transport=tcp"),
            ("sip", "[2001:db8::10]"),
            ("skype", "echo123?call"),
            ("news", "comp.infosystems.www.servers.unix"),
            ("info", "lccn/2002022641"),
            ("tag", "example.com,2005:x"),
            ("tag", "a@example.com,2005-01-02:x"),
            ("data", "text/plain,hi"),
            ("man", "ls(1)"),
            (
                "blob",
                "https://example.org/550e8400-e29b-41d4-a716-446655440000",
            ),
            ("blob", "nodedata:b5a7d3c1"),
            ("blob", "null/550e8400-e29b-41d4-a716-446655440000"),
            ("data", ",Hello"),
            ("data", ";base64,SGVsbG8="),
            ("data", "image/svg+xml;charset=utf-8,%3Csvg%3E"),
            ("jdbc", "postgresql://db:5432/app"),
            ("jdbc", "oracle:thin:@//db:1521/orcl"),
            ("jdbc", "h2:mem:test"),
        ];
        for (s, rest) in ok {
            assert!(shape(s, rest), "{s}:{rest}");
        }
        let bad = [
            ("mailto", "nobody"),
            ("urn", "x"),
            ("urn", ":x"),
            ("tel", "home"),
            ("tel", "+"),
            ("TEL", "44-7031-946-936"),
            ("fax", "0044-70304-00042"),
            ("sip", "500"),
            ("sip", "yannick"),
            ("sip", "jones@"),
            ("skype", "9593"),
            ("news", "today"),
            ("info", "see"),
            ("tag", "v1"),
            ("tag", "x,2005-1:y"),
            ("data", "foo"),
            ("message", "hello"),
            ("blob", "none"),
            ("blob", "limit=1k"),
            ("blob", "1:x"),
            ("data", "r,handler:n"),
            ("data", "null,success:n"),
            ("data", "text/,x"),
            ("jdbc", "driver"),
            ("jdbc", "//db/app"),
            ("jdbc", "mysql://"),
            ("jdbc", "oracle:thin:@"),
            ("jdbc", "sqlite:C"),
        ];
        for (s, rest) in bad {
            assert!(!shape(s, rest), "{s}:{rest}");
        }
    }
}
