//! Which schemes start a candidate without `//`, and the shape some of them
//! must have.
//!
//! A scheme followed by `://` always starts a candidate. A scheme followed by
//! `:` alone (`mailto:`, `urn:`, `tel:`) starts one only when it is known:
//! registered in the IANA URI scheme registry (permanent and provisional
//! schemes, RFC 7595) or described by the uri(7) manual page. Some known
//! schemes are also ordinary words of English prose and logs (`info:`,
//! `tag:`, `data:`, `news:`, `message:`, `session:`), so those must also have
//! the shape their own specification gives; see [`has_required_shape`].

/// Known schemes, lower case, sorted (binary search).
///
/// The IANA registry's permanent and provisional schemes, plus the uri(7)
/// schemes (`man`, `info`, `whatis`, `gopher`, `telnet`, `file`, `news`,
/// `nntp`, `mailto`, `ftp`, `http`, `https`). Historical schemes that are
/// still seen in old mail and RFCs (`gopher`, `prospero`, `wais`, `snews`)
/// are included. `dhttp` is left out: in real text it is almost always
/// quoted-printable's `=3Dhttp`, not the provisional scheme.
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

/// The longest known scheme, in bytes.
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
pub fn is_known(scheme: &[u8]) -> bool {
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
    let (from, to) = LETTER_RANGES[(first - b'a') as usize];
    KNOWN[from as usize..to as usize]
        .iter()
        .any(|k| k.len() == scheme.len() && k.as_bytes().eq_ignore_ascii_case(scheme))
}

/// For each first letter, the range of `KNOWN` (sorted) that starts with it.
const LETTER_RANGES: [(u16, u16); 26] = {
    let mut ranges = [(0u16, 0u16); 26];
    let mut i = 0;
    while i < KNOWN.len() {
        let letter = (KNOWN[i].as_bytes()[0] - b'a') as usize;
        if ranges[letter].1 == 0 {
            ranges[letter].0 = i as u16;
        }
        ranges[letter].1 = i as u16 + 1;
        i += 1;
    }
    ranges
};

/// For a known scheme used without `//`, returns true if and only if what
/// follows its `:` (`rest`, the whole remainder of the candidate) has the
/// shape the scheme's specification requires, for the schemes that are
/// also common words or that give noise in real text.
///
/// - `mailto:` has an `@` or a `?` (RFC 6068: `mailto:?to=…` is allowed).
/// - `urn:` has a namespace and a `:` after it (RFC 8141: `urn:NID:NSS`).
/// - `tel:`, `fax:`, `modem:`, `sms:` start with `+` or a digit (RFC 3966).
/// - `news:` has a `.` or an `@` (a newsgroup or a message-id, RFC 5538),
///   or is `news:*`.
/// - `info:` is `info:namespace/identifier` (RFC 4452).
/// - `tag:` is `tag:authority,date:specific` (RFC 4151).
/// - `data:` has the `,` that ends its media type (RFC 2397).
/// - `geo:` starts with a digit or `-` (RFC 5870).
/// - `cid:`/`mid:` have an `@` (RFC 2392).
/// - `jabber:` has an `@` (`jabber:client` is an XML namespace).
/// - `message:`, `session:`, `service:`, `example:`, `content:`,
///   `content-type:` (mail headers), `feed:`, `drm:` (kernel logs), `ni:`
///   (YANG paths; RFC 6920 `ni:` URIs have `//` anyway), `query:`,
///   `tool:`, `at:`, `go:`, `res:`, `things:`, `tv:`, `pack:`, `platform:`,
///   `proxy:`, `submit:`, `notes:`, `drop:`, `graph:`, `icon:`, `hyper:`
///   are words far more often than URIs; they count only with `//`.
pub fn has_required_shape(scheme: &[u8], rest: &[u8]) -> bool {
    let lower = scheme.to_ascii_lowercase();
    let has = |b: u8| rest.contains(&b);
    let starts_digit_or = |c: u8| rest.first().is_some_and(|&f| f.is_ascii_digit() || f == c);
    match lower.as_slice() {
        b"mailto" => has(b'@') || rest.first() == Some(&b'?'),
        b"urn" => {
            let nid = rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-')
                .count();
            (1..=32).contains(&nid) && rest.get(nid) == Some(&b':') && rest.len() > nid + 1
        }
        b"tel" | b"fax" | b"modem" | b"sms" => starts_digit_or(b'+'),
        b"news" | b"snews" => has(b'.') || has(b'@') || rest == b"*",
        b"info" => {
            let ns = rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
            ns > 0 && rest.get(ns) == Some(&b'/') && rest.len() > ns + 1
        }
        b"tag" => tag_shape(rest),
        b"data" => has(b','),
        b"geo" => starts_digit_or(b'-'),
        b"cid" | b"mid" => has(b'@'),
        b"jabber" => has(b'@'),
        b"message" | b"session" | b"service" | b"example" | b"content" | b"content-type"
        | b"feed" | b"drm" | b"ni" | b"query" | b"tool" | b"at" | b"go" | b"res" | b"things"
        | b"tv" | b"pack" | b"platform" | b"proxy" | b"submit" | b"notes" | b"drop" | b"graph"
        | b"icon" | b"hyper" => false,
        _ => true,
    }
}

/// `tag:` `taggingEntity ":" specific`, where
/// `taggingEntity = authorityName "," date` and `date = year ["-" month ["-" day]]`.
fn tag_shape(rest: &[u8]) -> bool {
    let Some(comma) = rest.iter().position(|&b| b == b',') else {
        return false;
    };
    let after = &rest[comma + 1..];
    let year = after.iter().take_while(|b| b.is_ascii_digit()).count();
    year == 4 && comma > 0 && after[year..].contains(&b':')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_sorted_lowercase_and_unique() {
        for w in KNOWN.windows(2) {
            assert!(w[0] < w[1], "{} !< {}", w[0], w[1]);
        }
        assert!(KNOWN.iter().all(|s| crate::uri::is_scheme(s.as_bytes())));
        assert!(KNOWN.iter().all(|s| *s == s.to_ascii_lowercase()));
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

    #[test]
    fn shapes() {
        let ok = [
            ("mailto", "a@b.org"),
            ("urn", "ietf:rfc:3986"),
            ("tel", "+1-816-555-1212"),
            ("news", "comp.infosystems.www.servers.unix"),
            ("info", "lccn/2002022641"),
            ("tag", "example.com,2005:x"),
            ("data", "text/plain,hi"),
            ("man", "ls(1)"),
        ];
        for (s, rest) in ok {
            assert!(
                has_required_shape(s.as_bytes(), rest.as_bytes()),
                "{s}:{rest}"
            );
        }
        let bad = [
            ("mailto", "nobody"),
            ("urn", "x"),
            ("urn", ":x"),
            ("tel", "home"),
            ("news", "today"),
            ("info", "see"),
            ("tag", "v1"),
            ("data", "foo"),
            ("message", "hello"),
        ];
        for (s, rest) in bad {
            assert!(
                !has_required_shape(s.as_bytes(), rest.as_bytes()),
                "{s}:{rest}"
            );
        }
    }
}
