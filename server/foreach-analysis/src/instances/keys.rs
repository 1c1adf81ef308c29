//! The instance keys of one block (a resource or a module call) in one module instance: its `for_each`, `count`
//! and `enabled` evaluated statically, or why they cannot be.
//!
//! One evaluation of the meta-arguments serves both the state's findings (is this key still declared?) and `diff`
//! (which keys are declared?). Unknown is never guessed: a `for_each` over a data source gives [`Keys::Unknown`] with
//! the reason in words.

use std::sync::Arc;

use smol_str::SmolStr;

use crate::eval::{EvalContext, ModuleScope, Provisional, Value};
use crate::model::items::Arg;
use crate::providers::expand::instance_keys;
use crate::state::StateKey;

/// The instances a block declares in one module instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keys {
    /// No `for_each` or `count`: one instance without a key.
    Single,
    /// `count`: the keys `0..n` (0 when `enabled` is false, or for `count = 0`).
    Count(i64),
    /// `for_each`: string keys, sorted, each once (empty when `enabled` is false).
    Each(Arc<[SmolStr]>),
    /// Not known statically; why, in words (``the `for_each` of `aws_s3_bucket.b` is not known statically: …``).
    Unknown(Arc<str>),
}

impl Keys {
    /// No instance at all.
    pub const NONE: Keys = Keys::Count(0);

    /// Whether `key` is one of the instances; `None` when the keys are not known.
    pub fn contains(&self, key: &Option<StateKey>) -> Option<bool> {
        Some(match (self, key) {
            (Keys::Unknown(_), _) => return None,
            (Keys::Single, k) => k.is_none(),
            (Keys::Count(n), Some(StateKey::Int(i))) => (0..*n).contains(i),
            (Keys::Each(keys), Some(StateKey::Str(k))) => keys.binary_search(k).is_ok(),
            _ => false,
        })
    }

    /// The instance keys in order; empty when not known.
    pub fn iter(&self) -> Box<dyn Iterator<Item = Option<StateKey>> + '_> {
        match self {
            Keys::Single => Box::new(std::iter::once(None)),
            Keys::Count(n) => Box::new((0..*n).map(|i| Some(StateKey::Int(i)))),
            Keys::Each(keys) => Box::new(keys.iter().map(|k| Some(StateKey::Str(k.clone())))),
            Keys::Unknown(_) => Box::new(std::iter::empty()),
        }
    }

    /// How many instances; `None` when not known.
    pub fn len(&self) -> Option<usize> {
        match self {
            Keys::Single => Some(1),
            Keys::Count(n) => Some(usize::try_from(*n).unwrap_or(0)),
            Keys::Each(keys) => Some(keys.len()),
            Keys::Unknown(_) => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    pub fn unknown(&self) -> Option<&str> {
        match self {
            Keys::Unknown(why) => Some(why),
            _ => None,
        }
    }
}

/// `for_each`, `count` and `enabled` of one block.
#[derive(Clone, Copy, Default)]
pub struct Meta<'a> {
    pub for_each: Option<&'a Arg>,
    pub count: Option<&'a Arg>,
    pub enabled: Option<&'a Arg>,
}

impl Meta<'_> {
    pub fn is_empty(&self) -> bool {
        self.for_each.is_none() && self.count.is_none() && self.enabled.is_none()
    }
}

/// The keys of a block (`what` names it in messages: ``module `a` ``, `` `aws_vpc.b` ``) evaluated in `scope`, and
/// the defaults that may not be what runs that they rest on (`eval/provisional.rs`).
pub fn block_keys(scope: &ModuleScope, what: &str, meta: Meta<'_>) -> (Keys, Option<Arc<Provisional>>) {
    let mut rests_on = None;
    let mut eval = |arg: &Arg, origin: &str| {
        let expr = arg.expr();
        rests_on = Provisional::union(rests_on.take(), scope.provisional(&expr).as_ref());
        scope.eval(arg.file, &expr, &EvalContext { origin: origin.into(), ..EvalContext::default() })
    };
    if let Some(enabled) = meta.enabled {
        let v = eval(enabled, "enabled");
        match v.as_bool() {
            Some(true) => {}
            Some(false) => return (Keys::NONE, rests_on),
            None => return (Keys::Unknown(not_known(what, "enabled", &v).into()), None),
        }
    }
    let keys = if let Some(for_each) = meta.for_each {
        let v = eval(for_each, "for_each");
        if v.first_unknown().is_some() {
            return (Keys::Unknown(not_known(what, "for_each", &v).into()), None);
        }
        match instance_keys(&v) {
            Ok(keys) => {
                let mut keys: Vec<SmolStr> = keys.into_iter().map(|(k, _)| SmolStr::new(k)).collect();
                keys.sort();
                keys.dedup();
                Keys::Each(keys.into())
            }
            Err(problem) => return (Keys::Unknown(format!("the `for_each` of {what} {problem}").into()), None),
        }
    } else if let Some(count) = meta.count {
        let v = eval(count, "count");
        match v.as_number().and_then(|n| n.to_i64()) {
            Some(n) if n >= 0 => Keys::Count(n),
            Some(n) => return (Keys::Unknown(format!("the `count` of {what} is negative ({n})").into()), None),
            None => return (Keys::Unknown(not_known(what, "count", &v).into()), None),
        }
    } else {
        Keys::Single
    };
    (keys, rests_on)
}

/// ``the `for_each` of `aws_s3_bucket.b` is not known statically: `data.x.y` is only known after apply (…)``.
pub(crate) fn not_known(what: &str, argument: &str, v: &Value) -> String {
    match v.first_unknown() {
        Some(r) => format!(
            "the `{argument}` of {what} is not known statically: {} ({})",
            r.explanation(),
            r.chain_text(argument)
        ),
        None => format!("the `{argument}` of {what} is not a valid value"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn membership_follows_the_kind_of_key() {
        let each = Keys::Each(Arc::from([SmolStr::new("a"), SmolStr::new("b")]));
        assert_eq!(each.contains(&Some(StateKey::Str("a".into()))), Some(true));
        assert_eq!(each.contains(&Some(StateKey::Str("c".into()))), Some(false));
        assert_eq!(each.contains(&Some(StateKey::Int(0))), Some(false));
        assert_eq!(each.contains(&None), Some(false));
        assert_eq!(Keys::Count(2).contains(&Some(StateKey::Int(1))), Some(true));
        assert_eq!(Keys::Count(2).contains(&Some(StateKey::Int(2))), Some(false));
        assert_eq!(Keys::Single.contains(&None), Some(true));
        assert_eq!(Keys::Single.contains(&Some(StateKey::Int(0))), Some(false));
        assert_eq!(Keys::Unknown("why".into()).contains(&None), None);
        assert_eq!(Keys::Count(3).iter().count(), 3);
        assert_eq!(Keys::NONE.len(), Some(0));
    }
}
