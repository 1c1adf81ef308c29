//! The `missing-provider-instance-key` message: `aws.by_region` without `[…]`. The per-module check that finds it
//! (`checks.rs`) evaluates nothing, so it can only give an example key; this pass over the finished diagnostics
//! names the configuration's real instance keys when every instance of the module expands it to the same keys
//! (`instance_values`), as `unknown-provider-instance` does.

use std::collections::HashMap;

use crate::base::FileRange;
use crate::db::{Db, ModuleDir, Workspace, dir_index, file_index};
use crate::diagnostics::{Code, Diagnostic};
use crate::module_eval::instance_values;
use crate::paths::parent;
use crate::providers::config::{ConfigTarget, RefOwner, dir_references, resolve_config};
use crate::providers::unknown_instance::quote_list;
use crate::tree::{NodeId, module_tree};

/// The message for a reference to `config` (which has `for_each`) without an instance key: in a module call's
/// `providers` map, `passed_as` is the name the child receives it as (`aws`). `keys` are the configuration's
/// instance keys when known.
pub fn message(config: &str, passed_as: Option<&str>, keys: Option<&[&str]>) -> String {
    let what = match passed_as {
        Some(child) => format!(
            "passing every instance into a module is not possible: pass one instance, as in `{child} = {config}[each.key]`"
        ),
        None => {
            let example = keys.and_then(|k| k.first()).map_or_else(|| "\"us\"".to_string(), |k| quote_key(k));
            format!("add the instance to use, as in `[{example}]` or `[each.key]`")
        }
    };
    let mut msg = format!("`{config}` has `for_each`, so a reference must select one instance; {what}");
    match keys {
        Some([]) => msg.push_str("; it has no instances"),
        Some(keys) => msg.push_str(&format!("; its instances are {}", quote_list(keys))),
        None => {}
    }
    msg
}

/// A key as HCL writes it in `[…]`.
fn quote_key(key: &str) -> String {
    format!("\"{}\"", key.replace('\\', "\\\\").replace('"', "\\\"").replace("${", "$${").replace("%{", "%%{"))
}

/// Rewrites each `missing-provider-instance-key` finding of `diags` whose configuration's keys are known.
pub fn name_the_keys(db: &dyn Db, ws: Workspace, diags: &mut [Diagnostic]) {
    if !diags.iter().any(|d| d.code == Code::MissingProviderInstanceKey) {
        return;
    }
    let (files, dirs) = (file_index(db, ws), dir_index(db, ws));
    let mut known: HashMap<(ModuleDir, usize), Option<Vec<String>>> = HashMap::new();
    for d in diags.iter_mut().filter(|d| d.code == Code::MissingProviderInstanceKey) {
        let Some(dir) = files.get(&d.location.file).and_then(|f| dirs.get(parent(f.path(db))).copied()) else {
            continue;
        };
        let Some((block, config, passed_as)) = reference_at(db, dir, d.location) else { continue };
        let keys = known.entry((dir, block)).or_insert_with(|| instance_keys(db, ws, dir, block));
        if let Some(keys) = keys {
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            d.message = message(&config, passed_as.as_deref(), Some(&keys));
        }
    }
}

/// The provider block and the configuration's address of the reference at `at`, and the name the child receives
/// it as when it is a `providers` map value.
fn reference_at(db: &dyn Db, dir: ModuleDir, at: FileRange) -> Option<(usize, String, Option<String>)> {
    let m = crate::db::module(db, dir);
    let refs = dir_references(db, dir);
    let site = refs.iter().find(|s| s.reference.location() == at && s.reference.key.is_none())?;
    let r = &site.reference;
    let ConfigTarget::Block(block) = resolve_config(&m, &r.name, r.alias_name()) else { return None };
    let passed_as = match &site.owner {
        RefOwner::ModuleCall(_, child) => Some(child.clone()),
        _ => None,
    };
    Some((block, r.config_address(), passed_as))
}

/// The instance keys of provider block `block` of `dir`, when every instance of the module that has instances
/// expands it to the same keys; `None` when one cannot expand it or two disagree.
fn instance_keys(db: &dyn Db, ws: Workspace, dir: ModuleDir, block: usize) -> Option<Vec<String>> {
    let tree = module_tree(db, ws);
    let mut found: Option<Vec<String>> = None;
    for (i, _) in tree.nodes.iter().enumerate().filter(|(_, n)| n.dir == dir) {
        let values = instance_values(db, ws, NodeId(i as u32));
        if !values.has_instances {
            continue;
        }
        let keys: Vec<String> =
            values.providers.expansions.get(block)?.keys()?.into_iter().map(str::to_string).collect();
        match &found {
            Some(f) if *f != keys => return None,
            Some(_) => {}
            None => found = Some(keys),
        }
    }
    found
}
