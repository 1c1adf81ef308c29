//! Hash and UUID functions: `md5`, `sha1`, `sha256`, `sha512`, `base64sha256`, `base64sha512`, `uuidv5`
//! (`bcrypt` and `uuid` are impure and handled as unknown by the caller).

use super::api::s;
use super::api::{FnCtx, FnResult, Func, P, arg_err, f, p};
use crate::value::Value;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};

pub static FUNCS: &[Func] = &[
    f("md5", &[p("str", P::Str)], |_, a| Ok(Value::string(hex(&Md5::digest(s(&a[0]).as_bytes()))))),
    f("sha1", &[p("str", P::Str)], |_, a| Ok(Value::string(hex(&Sha1::digest(s(&a[0]).as_bytes()))))),
    f("sha256", &[p("str", P::Str)], |_, a| Ok(Value::string(hex(&Sha256::digest(s(&a[0]).as_bytes()))))),
    f("sha512", &[p("str", P::Str)], |_, a| Ok(Value::string(hex(&Sha512::digest(s(&a[0]).as_bytes()))))),
    f("base64sha256", &[p("str", P::Str)], |_, a| {
        Ok(Value::string(STANDARD.encode(Sha256::digest(s(&a[0]).as_bytes()))))
    }),
    f("base64sha512", &[p("str", P::Str)], |_, a| {
        Ok(Value::string(STANDARD.encode(Sha512::digest(s(&a[0]).as_bytes()))))
    }),
    f("uuidv5", &[p("namespace", P::Str), p("name", P::Str)], uuidv5),
];

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn uuidv5(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let ns = match s(&a[0]) {
        "dns" => "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
        "url" => "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
        "oid" => "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
        "x500" => "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
        other => other,
    };
    let hexns: String = ns.chars().filter(|c| *c != '-').collect();
    if hexns.len() != 32 || !hexns.chars().all(|c| c.is_ascii_hexdigit()) {
        return arg_err(0, format!("{:?} is not a valid namespace UUID", s(&a[0])));
    }
    let mut bytes: Vec<u8> = (0..16).map(|i| u8::from_str_radix(&hexns[2 * i..2 * i + 2], 16).unwrap_or(0)).collect();
    bytes.extend_from_slice(s(&a[1]).as_bytes());
    let d = Sha1::digest(&bytes);
    let mut u = [0u8; 16];
    u.copy_from_slice(&d[..16]);
    u[6] = (u[6] & 0x0f) | 0x50;
    u[8] = (u[8] & 0x3f) | 0x80;
    let h = hex(&u);
    Ok(Value::string(format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])))
}
