//! Hover and go to definition for what OpenTofu evaluates at `tofu init`: a module call's `source` and `version`,
//! and the arguments of `terraform { backend … }` / `terraform { encryption … }`.
//!
//! Sources come from the module tree, which evaluated them in each instance of the calling module (a module called
//! twice can load two different directories); backend and encryption arguments are evaluated in the root module's
//! scope, the only place OpenTofu reads them.

use std::sync::Arc;

use foreach_syntax::TextRange;

use foreach_analysis::db::{Db, ModuleDir, SourceFile, Workspace, module};
use foreach_analysis::eval::Value;
use foreach_analysis::eval::render::console;
use foreach_analysis::init_values::{Outcome, StaticText, eval_settings_arg, settings_args, settings_block_kind};
use foreach_analysis::model::items::{Arg, ModuleCall, OptArg};
use foreach_analysis::module_eval::{root_for_dir, scope_for_node};
use foreach_analysis::paths::relative_path;
use foreach_analysis::tree::{CallTarget, ModuleTree, module_tree};

use super::results::{HoverResult, NavigationTarget};
use super::{FilePosition, dir_of, touches};

/// At most this many instances of the calling module are listed.
const MAX_INSTANCES: usize = 5;

/// Which init-time argument of a module call the cursor is on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CallField {
    Source,
    Version,
}

/// The module call whose `source` or `version` attribute contains the cursor.
fn call_field_at<'m>(calls: &'m [Arc<ModuleCall>], pos: FilePosition) -> Option<(&'m ModuleCall, CallField, &'m Arg)> {
    calls.iter().map(|c| &**c).find_map(|c: &'m ModuleCall| {
        let on = |a: &'m OptArg| a.as_deref().filter(|a| a.file == pos.file && touches(a.range(), pos.offset));
        on(&c.source).map(|a| (c, CallField::Source, a)).or_else(|| on(&c.version).map(|a| (c, CallField::Version, a)))
    })
}

/// Every instance of the module in `dir` that makes `call`: (the instance's address, its evaluated source or
/// version, and the loaded target).
fn call_instances<'t>(
    tree: &'t ModuleTree,
    dir: ModuleDir,
    call: &str,
    field: CallField,
) -> Vec<(String, Option<&'t StaticText>, &'t CallTarget)> {
    let mut out = Vec::new();
    for node in tree.nodes.iter().filter(|n| n.dir == dir) {
        for child in node.children.iter().filter(|c| c.call == call) {
            let text = match field {
                CallField::Source => child.source.as_ref(),
                CallField::Version => child.version.as_ref(),
            };
            out.push((node.address(), text, &child.target));
        }
    }
    out
}

pub(crate) fn init_hover(db: &dyn Db, ws: Workspace, file: SourceFile, pos: FilePosition) -> Option<HoverResult> {
    let dir = dir_of(db, ws, file)?;
    let m = module(db, dir);
    if let Some((call, field, arg)) = call_field_at(&m.module_calls, pos) {
        return Some(call_hover(db, ws, dir, call, field, arg));
    }
    settings_hover(db, ws, dir, pos)
}

fn call_hover(
    db: &dyn Db,
    ws: Workspace,
    dir: ModuleDir,
    call: &ModuleCall,
    field: CallField,
    arg: &Arg,
) -> HoverResult {
    let tree = module_tree(db, ws);
    let label = if field == CallField::Source { "source" } else { "version" };
    let mut md = format!("```hcl\nmodule \"{}\"  # {label}\n```\n", call.name);
    let instances = call_instances(&tree, dir, &call.name, field);
    if instances.is_empty() {
        md.push_str("\nnot evaluated: this module is not part of any root module's tree\n");
    }
    for (n, (address, text, target)) in instances.iter().enumerate() {
        if n >= MAX_INSTANCES {
            md.push_str(&format!("\n…and {} more instances of this module\n", instances.len() - MAX_INSTANCES));
            break;
        }
        if instances.len() > 1 || !address.is_empty() {
            let who = if address.is_empty() { "the root module".to_string() } else { format!("`{address}`") };
            md.push_str(&format!("\nin {who}:\n"));
        }
        match text {
            Some(StaticText::Known(s)) => {
                md.push_str(&format!("\n```hcl\n{}\n```\n", console(&Value::string(s.as_str()))));
                if field == CallField::Source {
                    md.push_str(&target_line(db, &tree, dir, target));
                }
            }
            Some(StaticText::Unknown(why)) => md.push_str(&format!("\nnot known at `tofu init`: {why}\n")),
            None => {}
        }
    }
    HoverResult { range: arg.expr_range(), markdown: md }
}

/// Where a known source leads, relative to the calling module.
fn target_line(db: &dyn Db, tree: &ModuleTree, dir: ModuleDir, target: &CallTarget) -> String {
    match target {
        CallTarget::Node(id) => {
            format!("\nloads `{}`\n", relative_path(tree.node(*id).dir.path(db), dir.path(db)))
        }
        CallTarget::Unresolved => {
            "\nnot loaded: a remote source that `tofu init` has not installed here, or a directory not read\n"
                .to_string()
        }
        CallTarget::Broken => "\nnot loaded: see the diagnostic on this source\n".to_string(),
    }
}

/// On an argument of a backend or encryption block: its value in the root module.
fn settings_hover(db: &dyn Db, ws: Workspace, dir: ModuleDir, pos: FilePosition) -> Option<HoverResult> {
    let m = module(db, dir);
    for block in m.backends.iter().chain(m.encryption.iter()) {
        if block.file != pos.file || !touches(block.block.range, pos.offset) {
            continue;
        }
        let args = settings_args(block.file, &block.block.body);
        let arg = args.iter().find(|a| touches(a.attr.range, pos.offset))?;
        let kind = settings_block_kind(&block.block);
        let mut md = format!("```hcl\nterraform.{kind}.{}\n```\n", arg.path);
        let tree = module_tree(db, ws);
        match root_for_dir(&tree, dir) {
            None => md.push_str("\nnot evaluated: OpenTofu reads this block only in a root module\n"),
            Some(root) => {
                let (scope, _) = scope_for_node(db, ws, tree.node(root));
                md.push_str(&match eval_settings_arg(&scope, arg, kind) {
                    Outcome::Known(v) => format!("\n```hcl\n{}\n```\n", console(&v)),
                    Outcome::Unresolved { reason, .. } | Outcome::NotStatic(reason) => {
                        format!("\nnot known at `tofu init`: {}\n", reason.explanation())
                    }
                    Outcome::Sensitive => "\n(sensitive value)\n".to_string(),
                    Outcome::Failed => "\nevaluating it fails: see the diagnostic\n".to_string(),
                });
            }
        }
        return Some(HoverResult { range: arg.attr.value.range, markdown: md });
    }
    None
}

/// On a module call's `source`: the loaded module directories (one per distinct directory the instances load).
pub(crate) fn source_definition(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    pos: FilePosition,
) -> Vec<NavigationTarget> {
    let Some(dir) = dir_of(db, ws, file) else { return Vec::new() };
    let m = module(db, dir);
    let Some((call, CallField::Source, _)) = call_field_at(&m.module_calls, pos) else { return Vec::new() };
    let tree = module_tree(db, ws);
    let mut dirs: Vec<ModuleDir> = Vec::new();
    for (_, _, target) in call_instances(&tree, dir, &call.name, CallField::Source) {
        if let CallTarget::Node(id) = target
            && !dirs.contains(&tree.node(*id).dir)
        {
            dirs.push(tree.node(*id).dir);
        }
    }
    dirs.into_iter().filter_map(|d| module_entry(db, d)).collect()
}

/// The file that stands for a module directory: `main.tf` (or `main.tofu`) if there is one, else the first
/// configuration file by name; the target is its start.
fn module_entry(db: &dyn Db, dir: ModuleDir) -> Option<NavigationTarget> {
    let mut files: Vec<SourceFile> = dir.files(db).iter().copied().filter(|f| f.kind(db).is_config()).collect();
    files.sort_by_key(|f| (!matches!(f.file_name(db), "main.tf" | "main.tofu"), f.file_name(db).to_string()));
    let f = files.first()?;
    let start = TextRange::empty(0.into());
    Some(NavigationTarget { file: f.id(db), full_range: start, focus_range: start })
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;

    fn hover(text: &str) -> String {
        let f = Fixture::parse(text);
        crate::Analysis::of(&f.host)
            .hover(f.position())
            .unwrap()
            .map(|h| h.markdown)
            .unwrap_or_else(|| "<none>".to_string())
    }

    fn goto(text: &str) -> Vec<String> {
        let f = Fixture::parse(text);
        let targets = crate::Analysis::of(&f.host).goto_definition(f.position()).unwrap();
        targets.into_iter().map(|t| f.host.file_path(t.file).unwrap()).collect()
    }

    const TEMPLATED: &str = "#- /main.tf\nvariable \"env\" {}\nmodule \"app\" {\n  source = \"./modules/${var.env}$0\"\n}\n#- /terraform.tfvars\nenv = \"prod\"\n#- /modules/prod/variables.tf\nvariable \"x\" {\n  default = 1\n}\n#- /modules/prod/main.tf\nlocals {}\n#- /modules/staging/main.tf\nlocals {}\n";

    #[test]
    fn source_shows_the_value_and_the_loaded_directory() {
        assert_eq!(
            hover(TEMPLATED),
            "```hcl\nmodule \"app\"  # source\n```\n\n```hcl\n\"./modules/prod\"\n```\n\nloads `modules/prod`\n"
        );
    }

    #[test]
    fn source_without_a_value_says_why() {
        let text = "variable \"env\" {}\nmodule \"app\" {\n  sou$0rce = \"./modules/${var.env}\"\n}\n";
        let md = hover(text);
        assert!(
            md.starts_with("```hcl\nmodule \"app\"  # source\n```\n\nnot known at `tofu init`: `var.env` has no value"),
            "{md}"
        );
    }

    #[test]
    fn a_reference_inside_a_source_keeps_its_own_hover() {
        let md = hover(&TEMPLATED.replace("${var.env}$0", "${var.e$0nv}"));
        assert_eq!(md, "```hcl\nvar.env\n```\n\n```hcl\n\"prod\"\n```\n");
    }

    #[test]
    fn version_per_instance_of_the_calling_module() {
        let text = "module \"a\" {\n  source = \"./child\"\n  v      = \"1.0.0\"\n}\nmodule \"b\" {\n  source = \"./child\"\n  v      = \"2.0.0\"\n}\n#- /child/main.tf\nvariable \"v\" {}\nmodule \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = var.v$0\n}\n";
        // On the reference, the variable's hover; on the rest of the attribute, the version.
        let md = hover(&text.replace("var.v$0", "$0var.v"));
        assert!(md.starts_with("```hcl\nvar.v\n```\n"), "{md}");
        let md = hover(&text.replace("version = var.v$0", "vers$0ion = var.v"));
        assert_eq!(
            md,
            "```hcl\nmodule \"vpc\"  # version\n```\n\nin `module.a`:\n\n```hcl\n\"1.0.0\"\n```\n\nin `module.b`:\n\n```hcl\n\"2.0.0\"\n```\n"
        );
    }

    #[test]
    fn backend_argument_in_the_root_module() {
        let text = "variable \"env\" {\n  default = \"prod\"\n}\nlocals {\n  key = \"net/${var.env}.tfstate\"\n}\nterraform {\n  backend \"s3\" {\n    k$0ey = local.key\n    assume_role {\n      role_arn = var.nope\n    }\n  }\n}\n";
        assert_eq!(hover(text), "```hcl\nterraform.backend.key\n```\n\n```hcl\n\"net/prod.tfstate\"\n```\n");
        let nested = text.replace("k$0ey", "key").replace("role_arn = var.nope", "role_$0arn = \"arn:${var.env}\"");
        assert_eq!(
            hover(&nested),
            "```hcl\nterraform.backend.assume_role.role_arn\n```\n\n```hcl\n\"arn:prod\"\n```\n"
        );
    }

    #[test]
    fn goto_on_a_templated_source_opens_the_module() {
        assert_eq!(goto(TEMPLATED), vec!["/ws/modules/prod/main.tf".to_string()]);
        // A remote source has no local target.
        let remote = "module \"vpc\" {\n  source = \"terraform-aws-$0modules/vpc/aws\"\n}\n";
        assert!(goto(remote).is_empty());
    }

    #[test]
    fn goto_from_a_module_called_twice_offers_both_directories() {
        let text = "module \"a\" {\n  source = \"./wrapper\"\n  flavour = \"blue\"\n}\nmodule \"b\" {\n  source = \"./wrapper\"\n  flavour = \"green\"\n}\n#- /wrapper/main.tf\nvariable \"flavour\" {}\nmodule \"svc\" {\n  source = \"../svc/${var.flavour}$0\"\n}\n#- /svc/blue/main.tf\nlocals {}\n#- /svc/green/b.tf\nlocals {}\n#- /svc/green/a.tf\nlocals {}\n";
        assert_eq!(goto(text), vec!["/ws/svc/blue/main.tf".to_string(), "/ws/svc/green/a.tf".to_string()]);
    }
}
