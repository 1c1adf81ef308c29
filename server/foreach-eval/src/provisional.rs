//! Values that rest on a default which may not be what runs.
//!
//! A root module with a required variable that nothing here gives a value cannot run as it is: its values come
//! from outside (`-var environment=prod` in a pipeline). Its other variables' defaults are then still the best
//! guess of what runs (most pipelines override only what has no default), so they are used, but a finding that rests
//! on one is *provisional*: a warning that names the default, not an error, since the pipeline may override it.
//!
//! What a value rests on is found syntactically, like OpenTofu's dependency graph: an expression rests on the
//! defaults of the variables it names and of those the locals it names rest on (`ModuleScope::provisional`); a child
//! module's variable on what its calling argument rests on. Branches that are not taken count too, which can only
//! turn an error into a warning, never invent one.

use std::sync::Arc;

use smol_str::SmolStr;

use foreach_base::diagnostics::{Diagnostic, Severity};

/// The root variables whose defaults a value rests on, and why those defaults may not be final.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Provisional {
    /// `var.regions`, as the root module names them; sorted, without repeats.
    pub defaults: Vec<SmolStr>,
    /// The root's required variables that have no value here (`var.environment`), which make it unable to run as
    /// it is; sorted. The same for every value of one root.
    pub missing: Arc<[SmolStr]>,
}

impl Provisional {
    /// Resting on the default of one root variable.
    pub fn default_of(name: &str, missing: Arc<[SmolStr]>) -> Arc<Provisional> {
        Arc::new(Provisional { defaults: vec![SmolStr::new(format!("var.{name}"))], missing })
    }

    /// What either rests on.
    pub fn union(a: Option<Arc<Provisional>>, b: Option<&Arc<Provisional>>) -> Option<Arc<Provisional>> {
        match (a, b) {
            (None, None) => None,
            (Some(a), None) => Some(a),
            (None, Some(b)) => Some(b.clone()),
            (Some(a), Some(b)) => {
                if b.defaults.iter().all(|d| a.defaults.contains(d)) {
                    return Some(a);
                }
                let mut defaults = a.defaults.clone();
                defaults.extend(b.defaults.iter().cloned());
                defaults.sort();
                defaults.dedup();
                Some(Arc::new(Provisional { defaults, missing: a.missing.clone() }))
            }
        }
    }

    /// The finding as a provisional one: an error becomes a warning, and the message says which default it used
    /// and how to make it final.
    pub fn settle(&self, d: &mut Diagnostic) {
        if d.severity == Severity::Error {
            d.severity = Severity::Warning;
        }
        d.message.push_str(&format!(" ({})", self.explanation()));
    }

    /// `with the default of `var.regions`; …`.
    pub fn explanation(&self) -> String {
        let defaults = list(&self.defaults);
        let (missing, has) = match self.missing.len() {
            1 => (list(&self.missing), "has"),
            _ => (list(&self.missing), "have"),
        };
        format!(
            "with the default of {defaults}, which may not be what runs: {missing} {has} no value here, so this root \
             module gets its values from outside; give them with --var-file or an environment in foreach-ls.toml to \
             make this final"
        )
    }
}

/// `` `a` ``, `` `a` and `b` ``, `` `a`, `b` and `c` ``.
fn list(names: &[SmolStr]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Settles each of `diags` as resting on `p`, if anything.
pub fn settle_all(diags: &mut [Diagnostic], p: Option<&Provisional>) {
    if let Some(p) = p {
        diags.iter_mut().for_each(|d| p.settle(d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use foreach_base::base::{FileId, FileRange};
    use foreach_base::diagnostics::Code;

    fn missing() -> Arc<[SmolStr]> {
        Arc::from(vec![SmolStr::new("var.environment")])
    }

    #[test]
    fn an_error_resting_on_a_default_becomes_a_warning_that_names_it() {
        let p = Provisional::default_of("regions", missing());
        let mut d = Diagnostic::new(
            Code::UnknownProviderInstance,
            FileRange::new(FileId(0), Default::default()),
            "no provider instance `x`",
        );
        p.settle(&mut d);
        assert_eq!(d.severity, Severity::Warning);
        assert!(d.message.starts_with("no provider instance `x` (with the default of `var.regions`"), "{}", d.message);
        assert!(d.message.contains("`var.environment` has no value here"), "{}", d.message);
        assert!(d.message.contains("--var-file") && d.message.contains("foreach-ls.toml"), "{}", d.message);
    }

    #[test]
    fn union_keeps_every_default_once() {
        let a = Provisional::default_of("b", missing());
        let b = Provisional::default_of("a", missing());
        let u = Provisional::union(Some(a.clone()), Some(&b)).unwrap();
        assert_eq!(u.defaults, ["var.a", "var.b"]);
        assert!(Arc::ptr_eq(&Provisional::union(Some(u.clone()), Some(&a)).unwrap(), &u));
        assert_eq!(Provisional::union(None, None), None);
        assert_eq!(
            u.explanation().split(':').next().unwrap(),
            "with the default of `var.a` and `var.b`, which may not be what runs"
        );
    }

    #[test]
    fn infos_keep_their_severity() {
        let p = Provisional::default_of("regions", missing());
        let mut d =
            Diagnostic::new(Code::ProviderForEachUnresolved, FileRange::new(FileId(0), Default::default()), "m");
        p.settle(&mut d);
        assert_eq!(d.severity, Severity::Info);
    }
}
