//! What every file of the grammar imports; `Error` is the error type of the instance of the grammar
//! (PATCH(foreach-ls 13), `parser/mod.rs`).

pub(in crate::parser) use winnow::error::{StrContext, StrContextValue};
pub(in crate::parser) use winnow::stream::Stream;
pub(in crate::parser) use winnow::{dispatch, ModalParser, Parser};

/// The error type of this instance of the grammar, under the name the grammar's files were written with.
pub(in crate::parser) type ContextError = super::Error;
/// A parser's result, with this instance's error type.
pub(in crate::parser) type ModalResult<O, E = ContextError> = winnow::ModalResult<O, E>;

pub(in crate::parser) type Input<'a> =
    winnow::stream::Stateful<winnow::stream::LocatingSlice<&'a str>, NestingState>;

use super::nesting::NestingState;

/// Creates a new parser input from `s`.
pub(in crate::parser) fn new_input(s: &str) -> Input<'_> {
    Input {
        input: winnow::stream::LocatingSlice::new(s),
        state: NestingState::default(),
    }
}
