//! The "use the declared name" fix for `undefined-reference`: replace a reference's name (or address, or output
//! name) with the closest one that is declared. The callers check that the text at `at` is exactly the name they
//! read there, so the edit never cuts through escapes or spaces. Offered in the editor only: the closest name is a
//! guess.

use crate::base::FileRange;
use crate::diagnostics::{Fix, TextEdit};

pub fn use_name(at: FileRange, with: &str) -> Fix {
    Fix {
        title: format!("Use `{with}`"),
        edits: vec![TextEdit { location: at, new_text: with.to_string() }],
        automatic: false,
    }
}
