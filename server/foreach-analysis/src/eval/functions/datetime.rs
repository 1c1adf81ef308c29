//! Date and time functions that are pure: `formatdate`, `timeadd`, `timecmp` on RFC 3339 timestamps.
//! (`timestamp` and `plantimestamp` are impure and give unknown values.) Not implemented yet: they give an
//! unknown value saying so, never a wrong one.

use super::{FnError, Func, P, f, p};

pub static FUNCS: &[Func] = &[
    f("formatdate", &[p("format", P::Str), p("time", P::Str)], |_, _| Err(not_yet("formatdate"))),
    f("timeadd", &[p("timestamp", P::Str), p("duration", P::Str)], |_, _| Err(not_yet("timeadd"))),
    f("timecmp", &[p("timestamp_a", P::Str), p("timestamp_b", P::Str)], |_, _| Err(not_yet("timecmp"))),
];

fn not_yet(name: &str) -> FnError {
    FnError::Unknown(format!("`{name}` is not evaluated by foreach-ls yet"))
}
