//! The character encodings of `textencodebase64`/`textdecodebase64`.
//!
//! OpenTofu looks the name up with Go's `ianaindex.IANA` (case-insensitive, every IANA name and alias of an
//! encoding `golang.org/x/text` implements) and converts with `x/text`'s tables. We convert with `encoding_rs`, which
//! implements the WHATWG Encoding Standard, but never look names up with its `Encoding::for_label`: WHATWG labels
//! differ from IANA's on purpose (`latin1`, `ISO-8859-1` and `US-ASCII` mean windows-1252 there, `ISO-8859-9` means
//! windows-1254, `utf-16` means UTF-16LE, `sjis` and `unicode` are labels there but not IANA aliases). So the table
//! below lists the IANA names and aliases Go accepts, each mapped to how we convert it:
//! - a WHATWG encoding whose byte mapping is the same as `x/text`'s (the windows-*, ISO-8859-2..16, KOI8, Mac and
//!   CJK encodings: `x/text` builds those from the WHATWG index files too);
//! - by hand where WHATWG has no such encoding: US-ASCII, true ISO-8859-1 and ISO-8859-9, and UTF-16 with a byte
//!   order mark (`encoding_rs` does not encode to UTF-16 at all);
//! - "not evaluated" for encodings `x/text` has and `encoding_rs` lacks (IBM/EBCDIC code pages, HZ-GB-2312...): the
//!   result is unknown with that reason rather than an error OpenTofu would not give.
//!
//! One difference in the tables themselves: WHATWG maps the bytes 0x80..0x9F of the ISO-8859-x encodings, and
//! the bytes windows-125x leave undefined, to the C1 controls U+0080..U+009F, where `x/text` leaves them undefined.
//! No other single-byte WHATWG encoding maps anything to C1, so for those encodings we treat C1 controls as
//! unmappable in both directions (checked byte by byte against Terraform by the differential test).
//!
//! Decoding follows OpenTofu's rule: the decoder turns undefined bytes into U+FFFD and any U+FFFD in the result is
//! an error, so the same check applies to our (WHATWG, replacing) decoders.

use encoding_rs::Encoding;

pub enum Charset {
    Utf8,
    /// UTF-16 with an optional byte order mark: big-endian, and a BOM is written when encoding.
    Utf16Bom,
    Utf16Le,
    Utf16Be,
    Ascii,
    Latin1,
    /// ISO-8859-9: ISO-8859-1 with six Turkish letters in place of Icelandic ones.
    Latin5,
    Whatwg(&'static Encoding),
}

pub enum Lookup {
    Found(&'static str, Charset),
    /// A name Go's `ianaindex` knows and we cannot convert.
    NotEvaluated(&'static str),
    Unsupported,
}

type Entry = (&'static [&'static str], fn() -> Option<Charset>);

/// IANA names and aliases (the first is the name Go reports in messages), from the IANA character set registry.
static TABLE: &[Entry] = &[
    (&["UTF-8", "csUTF8"], || Some(Charset::Utf8)),
    (&["UTF-16", "csUTF16"], || Some(Charset::Utf16Bom)),
    (&["UTF-16LE", "csUTF16LE"], || Some(Charset::Utf16Le)),
    (&["UTF-16BE", "csUTF16BE"], || Some(Charset::Utf16Be)),
    (
        &[
            "US-ASCII",
            "iso-ir-6",
            "ANSI_X3.4-1968",
            "ANSI_X3.4-1986",
            "ISO_646.irv:1991",
            "ISO646-US",
            "us",
            "IBM367",
            "cp367",
            "csASCII",
        ],
        || Some(Charset::Ascii),
    ),
    (
        &[
            "ISO_8859-1:1987",
            "iso-ir-100",
            "ISO_8859-1",
            "ISO-8859-1",
            "latin1",
            "l1",
            "IBM819",
            "CP819",
            "csISOLatin1",
        ],
        || Some(Charset::Latin1),
    ),
    (&["ISO_8859-2:1987", "iso-ir-101", "ISO_8859-2", "ISO-8859-2", "latin2", "l2", "csISOLatin2"], || {
        Some(Charset::Whatwg(encoding_rs::ISO_8859_2))
    }),
    (&["ISO_8859-3:1988", "iso-ir-109", "ISO_8859-3", "ISO-8859-3", "latin3", "l3", "csISOLatin3"], || {
        Some(Charset::Whatwg(encoding_rs::ISO_8859_3))
    }),
    (&["ISO_8859-4:1988", "iso-ir-110", "ISO_8859-4", "ISO-8859-4", "latin4", "l4", "csISOLatin4"], || {
        Some(Charset::Whatwg(encoding_rs::ISO_8859_4))
    }),
    (&["ISO_8859-5:1988", "iso-ir-144", "ISO_8859-5", "ISO-8859-5", "cyrillic", "csISOLatinCyrillic"], || {
        Some(Charset::Whatwg(encoding_rs::ISO_8859_5))
    }),
    (
        &[
            "ISO_8859-6:1987",
            "iso-ir-127",
            "ISO_8859-6",
            "ISO-8859-6",
            "ECMA-114",
            "ASMO-708",
            "arabic",
            "csISOLatinArabic",
        ],
        || Some(Charset::Whatwg(encoding_rs::ISO_8859_6)),
    ),
    (
        &[
            "ISO_8859-7:1987",
            "iso-ir-126",
            "ISO_8859-7",
            "ISO-8859-7",
            "ELOT_928",
            "ECMA-118",
            "greek",
            "greek8",
            "csISOLatinGreek",
        ],
        || Some(Charset::Whatwg(encoding_rs::ISO_8859_7)),
    ),
    (&["ISO_8859-8:1988", "iso-ir-138", "ISO_8859-8", "ISO-8859-8", "hebrew", "csISOLatinHebrew"], || {
        Some(Charset::Whatwg(encoding_rs::ISO_8859_8))
    }),
    (&["ISO_8859-9:1989", "iso-ir-148", "ISO_8859-9", "ISO-8859-9", "latin5", "l5", "csISOLatin5"], || {
        Some(Charset::Latin5)
    }),
    (&["ISO-8859-10", "iso-ir-157", "l6", "ISO_8859-10:1992", "csISOLatin6", "latin6"], || {
        Some(Charset::Whatwg(encoding_rs::ISO_8859_10))
    }),
    (&["ISO-8859-13", "csISO885913"], || Some(Charset::Whatwg(encoding_rs::ISO_8859_13))),
    (
        &["ISO-8859-14", "iso-ir-199", "ISO_8859-14:1998", "ISO_8859-14", "latin8", "iso-celtic", "l8", "csISO885914"],
        || Some(Charset::Whatwg(encoding_rs::ISO_8859_14)),
    ),
    (&["ISO-8859-15", "ISO_8859-15", "Latin-9", "csISO885915"], || Some(Charset::Whatwg(encoding_rs::ISO_8859_15))),
    (&["ISO-8859-16", "iso-ir-226", "ISO_8859-16:2001", "ISO_8859-16", "latin10", "l10", "csISO885916"], || {
        Some(Charset::Whatwg(encoding_rs::ISO_8859_16))
    }),
    (&["KOI8-R", "csKOI8R"], || Some(Charset::Whatwg(encoding_rs::KOI8_R))),
    (&["KOI8-U", "csKOI8U"], || Some(Charset::Whatwg(encoding_rs::KOI8_U))),
    (&["macintosh", "mac", "csMacintosh"], || Some(Charset::Whatwg(encoding_rs::MACINTOSH))),
    (&["IBM866", "cp866", "866", "csIBM866"], || Some(Charset::Whatwg(encoding_rs::IBM866))),
    (&["windows-874", "cswindows874"], || Some(Charset::Whatwg(encoding_rs::WINDOWS_874))),
    (&["windows-1250", "cswindows1250"], || Some(Charset::Whatwg(encoding_rs::WINDOWS_1250))),
    (&["windows-1251", "cswindows1251"], || Some(Charset::Whatwg(encoding_rs::WINDOWS_1251))),
    (&["windows-1252", "cswindows1252"], || Some(Charset::Whatwg(encoding_rs::WINDOWS_1252))),
    (&["windows-1253", "cswindows1253"], || Some(Charset::Whatwg(encoding_rs::WINDOWS_1253))),
    (&["windows-1254", "cswindows1254"], || Some(Charset::Whatwg(encoding_rs::WINDOWS_1254))),
    (&["windows-1255", "cswindows1255"], || Some(Charset::Whatwg(encoding_rs::WINDOWS_1255))),
    (&["windows-1256", "cswindows1256"], || Some(Charset::Whatwg(encoding_rs::WINDOWS_1256))),
    (&["windows-1257", "cswindows1257"], || Some(Charset::Whatwg(encoding_rs::WINDOWS_1257))),
    (&["windows-1258", "cswindows1258"], || Some(Charset::Whatwg(encoding_rs::WINDOWS_1258))),
    (&["Shift_JIS", "MS_Kanji", "csShiftJIS"], || Some(Charset::Whatwg(encoding_rs::SHIFT_JIS))),
    (&["EUC-JP", "Extended_UNIX_Code_Packed_Format_for_Japanese", "csEUCPkdFmtJapanese"], || {
        Some(Charset::Whatwg(encoding_rs::EUC_JP))
    }),
    (&["ISO-2022-JP", "csISO2022JP"], || Some(Charset::Whatwg(encoding_rs::ISO_2022_JP))),
    (&["EUC-KR", "csEUCKR"], || Some(Charset::Whatwg(encoding_rs::EUC_KR))),
    (&["GBK", "CP936", "MS936", "windows-936", "csGBK"], || Some(Charset::Whatwg(encoding_rs::GBK))),
    (&["GB18030", "csGB18030"], || Some(Charset::Whatwg(encoding_rs::GB18030))),
    (&["Big5", "csBig5"], || Some(Charset::Whatwg(encoding_rs::BIG5))),
    // `x/text` implements these and `encoding_rs` does not.
    (
        &[
            "IBM037",
            "IBM437",
            "IBM850",
            "IBM852",
            "IBM855",
            "IBM00858",
            "IBM860",
            "IBM862",
            "IBM863",
            "IBM865",
            "IBM1047",
            "IBM01140",
            "cp037",
            "cp437",
            "437",
            "cp850",
            "850",
            "cp852",
            "852",
            "cp855",
            "855",
            "CCSID00858",
            "CP00858",
            "PC-Multilingual-850+euro",
            "cp860",
            "860",
            "cp862",
            "862",
            "cp863",
            "863",
            "cp865",
            "865",
            "HZ-GB-2312",
            "ISO-8859-6-E",
            "ISO-8859-6-I",
            "ISO-8859-8-E",
            "ISO-8859-8-I",
        ],
        || None,
    ),
];

pub fn lookup(name: &str) -> Lookup {
    for (names, charset) in TABLE {
        if let Some(n) = names.iter().find(|n| n.eq_ignore_ascii_case(name)) {
            return match charset() {
                Some(c) => Lookup::Found(names[0], c),
                None => Lookup::NotEvaluated(n),
            };
        }
    }
    Lookup::Unsupported
}

/// ISO-8859-9's six differences from ISO-8859-1, as (byte, character).
const LATIN5: [(u8, char); 6] = [(0xD0, 'Ğ'), (0xDD, 'İ'), (0xDE, 'Ş'), (0xF0, 'ğ'), (0xFD, 'ı'), (0xFE, 'ş')];

/// The bytes of `text`, or `None` if a character has no representation.
pub fn encode(charset: &Charset, text: &str) -> Option<Vec<u8>> {
    match charset {
        Charset::Utf8 => Some(text.as_bytes().to_vec()),
        Charset::Utf16Bom => {
            Some([0xFE, 0xFF].into_iter().chain(text.encode_utf16().flat_map(u16::to_be_bytes)).collect())
        }
        Charset::Utf16Le => Some(text.encode_utf16().flat_map(u16::to_le_bytes).collect()),
        Charset::Utf16Be => Some(text.encode_utf16().flat_map(u16::to_be_bytes).collect()),
        Charset::Ascii => text.is_ascii().then(|| text.as_bytes().to_vec()),
        Charset::Latin1 => text.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect(),
        Charset::Latin5 => text
            .chars()
            .map(|c| match LATIN5.iter().find(|(_, l)| *l == c) {
                Some((b, _)) => Some(*b),
                None if LATIN5.iter().any(|(b, _)| u32::from(*b) == u32::from(c)) => None,
                None => u8::try_from(u32::from(c)).ok(),
            })
            .collect(),
        Charset::Whatwg(e) if e.is_single_byte() && text.chars().any(is_c1) => None,
        Charset::Whatwg(e) => {
            let (bytes, _, unmappable) = e.encode(text);
            // `encode` writes unmappable characters as HTML numeric references; Go's encoders fail instead.
            (!unmappable).then(|| bytes.into_owned())
        }
    }
}

/// The text `bytes` stand for, with U+FFFD for every undefined or malformed sequence (as `x/text` decoders do).
pub fn decode(charset: &Charset, bytes: &[u8]) -> String {
    match charset {
        Charset::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
        Charset::Utf16Bom => match bytes {
            [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes),
            [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes),
            _ => utf16(bytes, u16::from_be_bytes),
        },
        Charset::Utf16Le => utf16(bytes, u16::from_le_bytes),
        Charset::Utf16Be => utf16(bytes, u16::from_be_bytes),
        Charset::Ascii => bytes.iter().map(|&b| if b.is_ascii() { char::from(b) } else { '\u{FFFD}' }).collect(),
        Charset::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
        Charset::Latin5 => {
            bytes.iter().map(|&b| LATIN5.iter().find(|(l, _)| *l == b).map_or(char::from(b), |(_, c)| *c)).collect()
        }
        Charset::Whatwg(e) if e.is_single_byte() => {
            e.decode_without_bom_handling(bytes).0.chars().map(|c| if is_c1(c) { '\u{FFFD}' } else { c }).collect()
        }
        Charset::Whatwg(e) => e.decode_without_bom_handling(bytes).0.into_owned(),
    }
}

fn is_c1(c: char) -> bool {
    matches!(c, '\u{80}'..='\u{9F}')
}

fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|c| unit([c[0], c[1]]));
    let mut text: String = char::decode_utf16(units).map(|c| c.unwrap_or('\u{FFFD}')).collect();
    if bytes.len() % 2 == 1 {
        text.push('\u{FFFD}');
    }
    text
}
