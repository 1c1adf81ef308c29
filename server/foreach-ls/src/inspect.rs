//! `foreach-ls inspect`: prints, as JSON, every provider configuration with its instances and evaluated
//! arguments, and every block with the configuration and instance keys it uses. The format is documented in
//! `docs/inspect.md`.

use std::io::Write;

use foreach_analysis::eval::Value;
use foreach_analysis::eval::functions::json_text;
use foreach_analysis::inspect::{inspect, known};
use foreach_analysis::providers::expand::Expansion;
use foreach_load::{LoadOptions, OrderedVar, load};
use serde_json::{Value as Json, json};

use crate::args::InspectArgs;
use crate::check::env_variables;
use crate::exit::ExitStatus;
use crate::report::{Locator, Span};

pub fn run(args: &InspectArgs, ordered_vars: &[OrderedVar]) -> ExitStatus {
    let paths = [args.path.clone()];
    let opts = LoadOptions {
        paths: &paths,
        excludes: &args.exclude,
        ordered_vars,
        env_vars: env_variables(),
        workspace_name: std::env::var("TF_WORKSPACE").unwrap_or_else(|_| "default".to_string()),
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
                Expansion::Single => ("single", Json::Null, Json::Null),
                Expansion::Keys(list) => (
                    "expanded",
                    Json::Array(
                        list.iter()
                            .map(|i| {
                                let args: serde_json::Map<String, Json> =
                                    i.args.iter().map(|(k, v)| (k.clone(), value_json(v))).collect();
                                json!({"key": i.key, "each_value": value_json(&i.each_value), "arguments": args})
                            })
                            .collect(),
                    ),
                    Json::Null,
                ),
                Expansion::Unresolved(vars) => ("unresolved", Json::Null, json!(vars)),
                Expansion::Invalid => ("invalid", Json::Null, Json::Null),
            };
            json!({
                "module": p.module,
                "name": p.name,
                "alias": p.alias,
                "location": location(&locator.span(p.location)),
                "status": status,
                "instances": instances,
                "unresolved_variables": unresolved,
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
    let doc = json!({"providers": providers, "blocks": blocks});
    let _ = writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    ExitStatus::Clean
}

fn location(s: &Span) -> Json {
    json!({"file": s.path, "line": s.start.line, "column": s.start.column})
}

/// A value as JSON, or `null` when it is not known statically.
fn value_json(v: &Value) -> Json {
    known(v).and_then(|v| json_text(v).ok()).and_then(|t| serde_json::from_str::<Json>(&t).ok()).unwrap_or(Json::Null)
}
