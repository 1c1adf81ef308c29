//! Function calls: the table of OpenTofu's built-in functions (one file per group, as in OpenTofu's docs) and
//! the calling convention they share: arity, `...` expansion, parameter type conversion, null and unknown
//! handling, sensitive marks, and the size budget of results.
//!
//! Impure functions (`timestamp`, `uuid`, `bcrypt`, `plantimestamp`) and provider functions give unknown values
//! with that reason: OpenTofu computes them, but a checker cannot know what the user will get.

pub(crate) mod api;
mod cidr;
mod collection;
mod conversion;
mod datetime;
mod encoding;
pub use encoding::json_text;
pub(crate) mod file;
mod format;
mod gzip;
mod hash;
mod json;
mod numeric;
mod sets;
mod string;
mod templates;
mod text_encoding;
mod yaml;
mod yaml_decode;

pub use api::{E, FnCtx, FnError, FnHost, FnResult, Func, Imp, P, Param};

pub(crate) const IMPURE: &[&str] = &["timestamp", "uuid", "bcrypt", "plantimestamp", "uuidv4"];

fn table() -> impl Iterator<Item = &'static Func> {
    string::FUNCS
        .iter()
        .chain(collection::FUNCS)
        .chain(sets::FUNCS)
        .chain(numeric::FUNCS)
        .chain(encoding::FUNCS)
        .chain(conversion::FUNCS)
        .chain(hash::FUNCS)
        .chain(cidr::FUNCS)
        .chain(file::FUNCS)
        .chain(datetime::FUNCS)
        .chain(templates::FUNCS)
}

pub fn lookup(name: &str) -> Option<&'static Func> {
    table().find(|f| f.name == name)
}

/// Every built-in name we know (implemented, impure, or special), for completion and suggestions.
pub fn names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = table().map(|f| f.name).collect();
    v.extend(IMPURE);
    v.extend(["try", "can", "type"]);
    v.sort_unstable();
    v
}
