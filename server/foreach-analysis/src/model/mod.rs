//! The configuration model: per-file summaries ([`lower`]), merged per module ([`module`]), in the spec's nouns
//! ([`items`]), and the references expressions make ([`refs`]).

pub mod items;
pub mod lower;
pub mod module;
pub mod refs;
