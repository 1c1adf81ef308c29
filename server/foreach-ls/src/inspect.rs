//! `foreach-ls inspect`: prints, as JSON, every provider configuration with its instances and evaluated
//! arguments, every block with the configuration and instance keys it uses, and every module call with its
//! evaluated source and loaded directory. The format is documented in
//! `docs/inspect.md`.

use std::io::Write;

use foreach_analysis::eval::Value;
use foreach_analysis::eval::functions::json_text;
use foreach_analysis::init_values::StaticText;
use foreach_analysis::inspect::{inspect, known};
use foreach_analysis::providers::expand::Expansion;
use foreach_analysis::state::StateKey;
use foreach_analysis::tree::CallTarget;
use foreach_load::{LoadOptions, OrderedVar, StateOption, load};
use serde_json::{Value as Json, json};

use crate::args::InspectArgs;
use crate::check::env_variables;
use crate::exit::ExitStatus;
use crate::report::{Locator, Span, relative};

pub fn run(args: &InspectArgs, ordered_vars: &[OrderedVar]) -> ExitStatus {
    let paths = [args.path.clone()];
    let states = match StateOption::parse_all(&args.state.states) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "foreach-ls: {}", e.0);
            return ExitStatus::Usage;
        }
    };
    let project = match crate::project::discover(&args.path) {
        Ok(p) => p,
        Err(status) => return status,
    };
    let env = match crate::project::chosen(project.as_ref(), args.env.as_deref()) {
        Ok(e) => e,
        Err(status) => return status,
    };
    let ordered_vars = crate::project::with_environment(env, ordered_vars);
    let opts = LoadOptions {
        paths: &paths,
        excludes: &args.exclude,
        ordered_vars: &ordered_vars,
        env_vars: env_variables(),
        workspace_name: args.vars.workspace_name().or_else(|| env.and_then(|e| e.workspace.clone())),
        states: &states,
        project_excludes: project.as_ref().map(|p| (p.dir.as_path(), p.exclude.as_slice())),
        texts: foreach_load::KeepTexts::Compressed,
    };
    let host = match load(&opts) {
        Ok(l) => l.host,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "foreach-ls: {}", e.0);
            return ExitStatus::Usage;
        }
    };
    let report = inspect(host.db(), host.workspace());
    let files = host.file_table();
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut locator = Locator::new(&files, &cwd);
    let providers: Vec<Json> = report
        .providers
        .iter()
        .map(|p| {
            let (status, instances, unresolved) = match &p.expansion {
                _ if !p.module_has_instances => ("no-instances", Json::Null, Json::Null),
                Expansion::Single => ("single", Json::Null, Json::Null),
                Expansion::Keys(list) => (
                    "expanded",
                    Json::Array(
                        list.iter()
                            .map(|i| {
                                let args: serde_json::Map<String, Json> =
                                    i.args.iter().map(|(k, v)| (k.clone(), value_json(v))).collect();
                                let bound = p.state.as_ref().map(|st| {
                                    st.iter()
                                        .find(|(k, _)| matches!(k, Some(StateKey::Str(s)) if *s == i.key))
                                        .map_or(0, |(_, n)| *n)
                                });
                                json!({
                                    "key": i.key,
                                    "each_value": value_json(&i.each_value),
                                    "arguments": args,
                                    "state_resource_instances": bound,
                                })
                            })
                            .collect(),
                    ),
                    Json::Null,
                ),
                Expansion::Unresolved(vars) => ("unresolved", Json::Null, json!(vars)),
                Expansion::Invalid => ("invalid", Json::Null, Json::Null),
            };
            let arguments = match (status, &p.expansion) {
                ("single", Expansion::Single) => {
                    Json::Object(p.arguments.iter().map(|(k, v)| (k.clone(), value_json(v))).collect())
                }
                _ => Json::Null,
            };
            json!({
                "module": p.module,
                "name": p.name,
                "alias": p.alias,
                "location": location(&locator.span(p.location)),
                "status": status,
                "arguments": arguments,
                "instances": instances,
                "unresolved_variables": unresolved,
                "state": p.state.as_ref().map(|st| state_json(st, &p.expansion)),
            })
        })
        .collect();
    let blocks: Vec<Json> = report
        .blocks
        .iter()
        .map(|b| {
            json!({
                "module": b.module,
                "address": b.address,
                "passes": b.passes,
                "location": location(&locator.span(b.location)),
                "provider": {
                    "module": b.declared_in,
                    "config": b.config,
                    "declared": b.declared,
                    "explicit": b.explicit,
                    "via": b.via,
                },
                "instances": b.keys.iter().map(|k| json!({"instance": k.instance, "provider_key": k.key})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let modules: Vec<Json> = report
        .modules
        .iter()
        .map(|m| {
            let status = match m.target {
                CallTarget::Node(_) => "loaded",
                CallTarget::Unresolved => "not-loaded",
                CallTarget::Broken => "broken",
            };
            let not_known: Vec<String> = [("source", &m.source), ("version", &m.version)]
                .into_iter()
                .filter_map(|(what, t)| match t {
                    Some(StaticText::Unknown(why)) => Some(format!("{what}: {why}")),
                    _ => None,
                })
                .collect();
            json!({
                "module": m.module,
                "address": m.address,
                "location": location(&locator.span(m.location)),
                "source": m.source.as_ref().and_then(StaticText::known),
                "version": m.version.as_ref().and_then(StaticText::known),
                "not_known": not_known,
                "status": status,
                "dir": m.dir.as_deref().map(|d| relative(d, &cwd)),
                "has_instances": m.has_instances,
            })
        })
        .collect();
    let versions: Vec<Json> = report
        .versions
        .iter()
        .map(|v| {
            json!({
                "module": v.module,
                "dir": relative(&v.dir, &cwd),
                "admitted": v.admitted,
                "tree_admitted": v.tree_admitted,
                "minimum": v.minimum,
                "needs": v.needs.iter().map(|(what, at, since)| json!({
                    "construct": what,
                    "location": location(&locator.span(*at)),
                    "opentofu": since,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let doc = json!({"providers": providers, "blocks": blocks, "modules": modules, "versions": versions});
    let _ = writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    ExitStatus::Clean
}

/// The provider instances the state binds resource instances to: key (`null` for none), how many, and whether the
/// configuration still has that instance (`null` when its instances are not known).
fn state_json(bound: &[(Option<StateKey>, usize)], expansion: &Expansion) -> Json {
    Json::Array(
        bound
            .iter()
            .map(|(key, n)| {
                let in_configuration = match (expansion, key) {
                    (Expansion::Keys(list), Some(StateKey::Str(k))) => {
                        Json::Bool(list.iter().any(|i| i.key == k.as_str()))
                    }
                    (Expansion::Keys(_), _) => Json::Bool(false),
                    (Expansion::Single, k) => Json::Bool(k.is_none()),
                    _ => Json::Null,
                };
                let key = match key {
                    Some(StateKey::Str(s)) => json!(s.as_str()),
                    Some(StateKey::Int(i)) => json!(i),
                    None => Json::Null,
                };
                json!({"key": key, "resource_instances": n, "in_configuration": in_configuration})
            })
            .collect(),
    )
}

fn location(s: &Span) -> Json {
    json!({"file": s.path, "line": s.start.line, "column": s.start.column})
}

/// A value as JSON, or `null` when it is not known statically.
fn value_json(v: &Value) -> Json {
    known(v).and_then(|v| json_text(v).ok()).and_then(|t| serde_json::from_str::<Json>(&t).ok()).unwrap_or(Json::Null)
}
