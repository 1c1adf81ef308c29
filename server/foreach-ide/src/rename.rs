//! Rename: variables, locals, outputs and module calls, across the files of their module, the `.tfvars` files that
//! set a root variable, and the callers that pass a variable or read an output (`module.x.out`); the places come
//! from `occurrences.rs`.
//!
//! What cannot be renamed safely is refused with a reason instead of being half-done: a name used in a JSON file
//! (we do not rewrite JSON), a module loaded from outside the workspace (under `.terraform/modules`), a reference
//! whose name is not written plainly (`var . x`), a resource (its state address would change: that needs a
//! `moved` block, not a rename).

use foreach_syntax::TextRange;

use foreach_analysis::db::{Db, ModuleDir, Workspace, module};
use foreach_analysis::diagnostics::TextEdit;
use foreach_analysis::tree::module_tree;

use super::FilePosition;
use super::occurrences::{Symbol, occurrences, symbol_at};
use super::rename_key::key_sites;
use super::rename_provider::{alias_declared, alias_sites};

/// Why a rename is not offered, in words for the user.
pub type RenameError = String;

/// A variable of a root module under the cursor: the project file's `-var` names (`foreach-ls.toml`,
/// `[environments.X] variables`) set it, and the caller that owns that file renames them too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootVariable {
    /// The root module's directory.
    pub root: String,
    pub name: String,
    /// The other root modules that declare a variable of the same name: an environment that applies to one of
    /// them sets theirs with the same entry, which then cannot be renamed.
    pub other_roots: Vec<String>,
}

/// The variable under the cursor when it belongs to a root module (`None` for anything else).
pub(crate) fn root_variable(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Option<RootVariable> {
    let (Symbol::Variable(dir, name), _) = symbol_at(db, ws, pos)? else { return None };
    let tree = module_tree(db, ws);
    let roots: Vec<ModuleDir> = tree.roots.iter().map(|r| tree.node(*r).dir).collect();
    if !roots.contains(&dir) {
        return None;
    }
    let mut other_roots: Vec<String> = roots
        .iter()
        .filter(|d| **d != dir && module(db, **d).variables.iter().any(|v| v.name == name))
        .map(|d| d.path(db).clone())
        .collect();
    other_roots.sort();
    other_roots.dedup();
    Some(RootVariable { root: dir.path(db).clone(), name, other_roots })
}

/// The name under the cursor that a rename would change (the editor shows it as the placeholder), or why there is
/// nothing that can be renamed here.
pub(crate) fn prepare_rename(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Result<TextRange, RenameError> {
    if let Some(key) = key_sites(db, ws, pos) {
        return key.map(|(at, _)| at.range);
    }
    if let Some(alias) = alias_sites(db, ws, pos) {
        return alias.map(|a| a.at.range);
    }
    let (symbol, range) = symbol_at(db, ws, pos).ok_or_else(nothing_here)?;
    sites(db, ws, &symbol)?;
    Ok(range)
}

/// The edits that rename the symbol under the cursor to `new_name`: every place it is written, in every file.
pub(crate) fn rename(
    db: &dyn Db,
    ws: Workspace,
    pos: FilePosition,
    new_name: &str,
) -> Result<Vec<TextEdit>, RenameError> {
    if !is_identifier(new_name) {
        return Err(format!(
            "`{new_name}` is not a valid name: use letters, digits, `_` and `-`, starting with a letter or `_`"
        ));
    }
    if let Some(key) = key_sites(db, ws, pos) {
        let (_, sites) = key?;
        return Ok(sites.into_iter().map(|location| TextEdit { location, new_text: new_name.to_string() }).collect());
    }
    if let Some(alias) = alias_sites(db, ws, pos) {
        let a = alias?;
        if new_name != a.alias && alias_declared(db, a.dir, &a.name, new_name) {
            return Err(format!("cannot rename: `{}.{new_name}` is already declared in this module", a.name));
        }
        return Ok(a.sites.into_iter().map(|location| TextEdit { location, new_text: new_name.to_string() }).collect());
    }
    let (symbol, _) = symbol_at(db, ws, pos).ok_or_else(nothing_here)?;
    if !is_identifier(new_name) {
        return Err(format!(
            "`{new_name}` is not a valid name: use letters, digits, `_` and `-`, starting with a letter or `_`"
        ));
    }
    if new_name != symbol.name() && declared(db, &symbol, new_name) {
        return Err(format!("cannot rename {}: `{new_name}` is already declared in this module", symbol.describe()));
    }
    let sites = sites(db, ws, &symbol)?;
    Ok(sites.into_iter().map(|location| TextEdit { location, new_text: new_name.to_string() }).collect())
}

fn nothing_here() -> RenameError {
    "nothing to rename here: rename works on variables, locals, outputs, module calls and provider aliases".to_string()
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn declared(db: &dyn Db, symbol: &Symbol, name: &str) -> bool {
    let m = module(db, symbol.dir());
    match symbol {
        Symbol::Variable(..) => m.variables.iter().any(|v| v.name == name),
        Symbol::Local(..) => m.locals.iter().any(|l| l.name == name),
        Symbol::Output(..) => m.outputs.iter().any(|o| o.name == name),
        Symbol::ModuleCall(..) => m.module_calls.iter().any(|c| c.name == name),
        Symbol::Resource(..) => false,
    }
}

/// The spans to replace, or why renaming would be unsafe.
fn sites(db: &dyn Db, ws: Workspace, symbol: &Symbol) -> Result<Vec<foreach_analysis::FileRange>, RenameError> {
    if let Symbol::Resource(..) = symbol {
        return Err(format!(
            "cannot rename {}: its state address would change; rename the block and add a `moved` block",
            symbol.describe()
        ));
    }
    let found = occurrences(db, ws, symbol);
    for dir in &found.dirs {
        guard(db, symbol, *dir)?;
    }
    if let Some(path) = found.unplain.first() {
        return Err(format!("cannot rename {}: a reference to it in {path} is not written plainly", symbol.describe()));
    }
    if let Some(path) = found.json.first() {
        return Err(format!(
            "cannot rename {}: the JSON var file {path} sets it, which rename does not edit",
            symbol.describe()
        ));
    }
    if let Some((path, other)) = found.shared_var_files.first() {
        return Err(format!(
            "cannot rename {}: the var file {path} sets it for the root module {other} too, which declares it as well",
            symbol.describe()
        ));
    }
    Ok(found.sites.into_iter().map(|o| o.location).collect())
}

/// Refuses a module that is not ours to edit, or one where the name appears in a JSON file.
fn guard(db: &dyn Db, symbol: &Symbol, dir: ModuleDir) -> Result<(), RenameError> {
    let path = dir.path(db);
    if path.contains("/.terraform/") {
        return Err(format!(
            "cannot rename {}: it is used in {path}, a module installed by `tofu init` outside the workspace",
            symbol.describe()
        ));
    }
    for f in dir.files(db).iter().filter(|f| f.file_name(db).ends_with(".json")) {
        if f.text(db).contains(symbol.name()) {
            return Err(format!(
                "cannot rename {}: it may be used in the JSON file {}, which rename does not edit",
                symbol.describe(),
                f.path(db)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::{Fixture, apply};

    /// Renames at the cursor to `new` and returns every file's new text (only the files that changed).
    fn rename(text: &str, new: &str) -> Result<Vec<(String, String)>, String> {
        let f = Fixture::parse(text);
        let edits = crate::Analysis::of(&f.host).rename(f.position(), new).unwrap()?;
        let mut out = Vec::new();
        for (path, old) in &f.files {
            let id = f.file_id(path);
            let mine: Vec<_> = edits.iter().filter(|e| e.location.file == id).cloned().collect();
            if !mine.is_empty() {
                out.push((path.trim_start_matches("/ws").to_string(), apply(old, &mine)));
            }
        }
        Ok(out)
    }

    fn files(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect()
    }

    #[test]
    fn variable_with_tfvars_from_a_reference() {
        let text = "#- /main.tf\nvariable \"region\" {}\nlocals {\n  a = var.reg$0ion\n  b = \"${var.region}-x\"\n}\n#- /terraform.tfvars\nregion = \"eu\"\n";
        assert_eq!(
            rename(text, "zone").unwrap(),
            files(&[
                ("/main.tf", "variable \"zone\" {}\nlocals {\n  a = var.zone\n  b = \"${var.zone}-x\"\n}\n"),
                ("/terraform.tfvars", "zone = \"eu\"\n"),
            ])
        );
        // From the `.tfvars` assignment and from the declaration: the same edits.
        let from_tfvars = text.replace("var.reg$0ion", "var.region").replace("region = \"eu\"", "reg$0ion = \"eu\"");
        assert_eq!(rename(&from_tfvars, "zone").unwrap(), rename(text, "zone").unwrap());
        let from_decl =
            text.replace("var.reg$0ion", "var.region").replace("variable \"region\"", "variable \"r$0egion\"");
        assert_eq!(rename(&from_decl, "zone").unwrap(), rename(text, "zone").unwrap());
    }

    #[test]
    fn variable_set_in_a_test_file() {
        let text = "#- /main.tf\nvariable \"re$0gion\" {}\n#- /a.tftest.hcl\nvariables {\n  region = \"eu\"\n}\nrun \"x\" {\n  variables {\n    region = \"us\"\n  }\n  assert {\n    condition     = var.region == \"us\"\n    error_message = \"x\"\n  }\n}\n";
        let got = rename(text, "zone").unwrap();
        assert_eq!(got[1].0, "/a.tftest.hcl");
        assert_eq!(got[1].1.matches("zone").count(), 3, "{}", got[1].1);
        assert!(!got[1].1.contains("region"), "{}", got[1].1);
    }

    #[test]
    fn variable_of_a_child_renames_the_callers_argument() {
        let text = "#- /main.tf\nmodule \"c\" {\n  source = \"./child\"\n  size   = 3\n}\n#- /child/main.tf\nvariable \"si$0ze\" {}\noutput \"o\" {\n  value = var.size\n}\n";
        assert_eq!(
            rename(text, "count_of").unwrap(),
            files(&[
                ("/main.tf", "module \"c\" {\n  source = \"./child\"\n  count_of   = 3\n}\n"),
                ("/child/main.tf", "variable \"count_of\" {}\noutput \"o\" {\n  value = var.count_of\n}\n"),
            ])
        );
        // From the argument in the caller.
        let from_arg = text.replace("si$0ze", "size").replace("  size   = 3", "  s$0ize   = 3");
        assert_eq!(rename(&from_arg, "count_of").unwrap(), rename(text, "count_of").unwrap());
    }

    #[test]
    fn local() {
        let text = "locals {\n  a$0 = 1\n  b = local.a + 1\n}\nresource \"x\" \"y\" {\n  count = local.a\n}\n";
        assert_eq!(
            rename(text, "one").unwrap(),
            files(&[(
                "/main.tf",
                "locals {\n  one = 1\n  b = local.one + 1\n}\nresource \"x\" \"y\" {\n  count = local.one\n}\n"
            )])
        );
    }

    #[test]
    fn output_and_its_readers_in_callers() {
        let text = "#- /main.tf\nmodule \"c\" {\n  source = \"./child\"\n}\nlocals {\n  v = module.c.i$0d\n}\n#- /child/main.tf\noutput \"id\" {\n  value = 1\n}\n";
        assert_eq!(
            rename(text, "ident").unwrap(),
            files(&[
                ("/main.tf", "module \"c\" {\n  source = \"./child\"\n}\nlocals {\n  v = module.c.ident\n}\n"),
                ("/child/main.tf", "output \"ident\" {\n  value = 1\n}\n"),
            ])
        );
    }

    #[test]
    fn module_call_and_moved_blocks() {
        let text = "module \"o$0ld\" {\n  source = \"./child\"\n}\nmoved {\n  from = module.legacy\n  to   = module.old\n}\noutput \"x\" {\n  value = module.old.id\n}\n#- /child/main.tf\noutput \"id\" {\n  value = 1\n}\n";
        let got = rename(text, "new").unwrap();
        assert_eq!(
            got[0].1,
            "module \"new\" {\n  source = \"./child\"\n}\nmoved {\n  from = module.legacy\n  to   = module.new\n}\noutput \"x\" {\n  value = module.new.id\n}\n"
        );
    }

    #[test]
    fn provider_alias() {
        let text = "provider \"aws\" {\n  alias    = \"by_re$0gion\"\n  for_each = toset([\"a\"])\n}\nresource \"aws_s3_bucket\" \"a\" {\n  for_each = toset([\"a\"])\n  provider = aws.by_region[each.key]\n}\nmodule \"m\" {\n  source    = \"./m\"\n  providers = { aws = aws.by_region[\"a\"] }\n}\n";
        let want = text.replace("by_re$0gion", "r").replace("by_region", "r");
        assert_eq!(rename(text, "r").unwrap(), files(&[("/main.tf", &want)]));
        let from_ref = text.replace("by_re$0gion", "by_region").replace("aws.by_region[each", "aws.by_$0region[each");
        assert_eq!(rename(&from_ref, "r").unwrap(), files(&[("/main.tf", &want)]));
        // A test file's provider block of the same address and its `providers` maps follow; a mention elsewhere
        // (here a comment) is refused.
        let tested = format!(
            "#- /main.tf\n{text}#- /tests/a.tftest.hcl\nprovider \"aws\" {{\n  alias = \"by_region\"\n}}\nrun \"x\" {{\n  providers = {{\n    aws.by_region = aws.by_region\n  }}\n}}\n"
        );
        let got = rename(&tested, "r").unwrap();
        assert_eq!(got[1].0, "/tests/a.tftest.hcl");
        assert_eq!(got[1].1.matches("r\"").count() + got[1].1.matches("aws.r").count(), 3, "{}", got[1].1);
        assert!(!got[1].1.contains("by_region"), "{}", got[1].1);
        let from_test = tested.replace("by_re$0gion", "by_region").replace("aws.by_region = ", "aws.by_$0region = ");
        assert_eq!(rename(&from_test, "r").unwrap(), got);
        let mentioned = tested.replace("run \"x\"", "# aws.by_region\nrun \"x\"");
        assert!(rename(&mentioned, "r").unwrap_err().contains("outside `provider` blocks"));
        let other_module = tested.replace("run \"x\" {\n", "run \"x\" {\n  module {\n    source = \"./m\"\n  }\n");
        assert!(rename(&other_module, "r").unwrap_err().contains("another module"));
        // A name the module already has.
        let taken = text.replace("module \"m\"", "provider \"aws\" {\n  alias = \"r\"\n}\nmodule \"m\"");
        assert!(rename(&taken, "r").unwrap_err().contains("already declared"));
    }

    #[test]
    fn configuration_alias_and_the_callers_providers_keys() {
        let text = "#- /main.tf\nprovider \"aws\" {\n  alias = \"x\"\n}\nmodule \"c\" {\n  source    = \"./c\"\n  providers = { aws.src = aws.x }\n}\n#- /c/main.tf\nterraform {\n  required_providers {\n    aws = {\n      source                = \"hashicorp/aws\"\n      configuration_aliases = [aws.s$0rc]\n    }\n  }\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.src\n}\n";
        let got = rename(text, "source").unwrap();
        assert_eq!(
            got,
            files(&[
                (
                    "/main.tf",
                    "provider \"aws\" {\n  alias = \"x\"\n}\nmodule \"c\" {\n  source    = \"./c\"\n  providers = { aws.source = aws.x }\n}\n"
                ),
                (
                    "/c/main.tf",
                    &text
                        .split("#- /c/main.tf\n")
                        .nth(1)
                        .unwrap()
                        .replace("aws.s$0rc", "aws.source")
                        .replace("aws.src", "aws.source")
                ),
            ])
        );
        // From the caller's key and from the child's reference: the same.
        let from_key = text.replace("aws.s$0rc", "aws.src").replace("{ aws.src =", "{ aws.s$0rc =");
        assert_eq!(rename(&from_key, "source").unwrap(), got);
        let from_ref = text.replace("aws.s$0rc", "aws.src").replace("provider = aws.src", "provider = aws.s$0rc");
        assert_eq!(rename(&from_ref, "source").unwrap(), got);
        // The caller's own configuration `aws.x` is another rename: only the value changes.
        let caller = text.replace("aws.s$0rc", "aws.src").replace("= aws.x }", "= aws.$0x }");
        let got = rename(&caller, "y").unwrap();
        assert_eq!(got.len(), 1);
        assert!(got[0].1.contains("alias = \"y\"") && got[0].1.contains("{ aws.src = aws.y }"), "{}", got[0].1);
    }

    #[test]
    fn literal_instance_key() {
        let text = "#- /main.tf\nprovider \"aws\" {\n  alias    = \"r\"\n  for_each = local.regions\n}\nresource \"aws_s3_bucket\" \"a\" {\n  provider = aws.r[\"u$0s\"]\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.r[\"us\"]\n}\n#- /locals.tf\nlocals {\n  regions = {\n    eu = \"eu-west-1\"\n    us = \"us-east-1\"\n  }\n}\n";
        let got = rename(text, "usa").unwrap();
        assert_eq!(got[1].1, "locals {\n  regions = {\n    eu = \"eu-west-1\"\n    usa = \"us-east-1\"\n  }\n}\n");
        assert!(got[0].1.contains("aws.r[\"usa\"]\n}\nresource") && !got[0].1.contains("\"us\""), "{}", got[0].1);
        let by_expr =
            text.replace("provider = aws.r[\"us\"]\n", "for_each = local.regions\n  provider = aws.r[each.key]\n");
        assert!(rename(&by_expr, "usa").unwrap_err().contains("each.key"));
        // A local inside a provider key is the local's rename, not the alias's.
        let local = "provider \"aws\" {\n  alias    = \"r\"\n  for_each = toset([\"us\"])\n}\nresource \"x\" \"y\" {\n  provider = aws.r[local.$0k]\n}\nlocals {\n  k = \"us\"\n}\n";
        let want = local.replace("local.$0k", "local.kk").replace("  k = ", "  kk = ");
        assert_eq!(rename(local, "kk").unwrap(), files(&[("/main.tf", &want)]));
        let computed = text.replace("for_each = local.regions", "for_each = { for k in [\"us\"] : k => k }");
        assert!(rename(&computed, "usa").unwrap_err().contains("computed"));
    }

    /// `var.primary` inside `aws.by_region[var.primary]` is the variable, for rename and for the range
    /// `prepareRename` answers (not the alias's, on another line).
    #[test]
    fn variable_inside_a_provider_key() {
        let text = "#- /main.tf\nvariable \"primary\" {\n  type = string\n}\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"use1\"])\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[var.pri$0mary]\n}\n#- /terraform.tfvars\nprimary = \"use1\"\n";
        let f = Fixture::parse(text);
        let range = crate::Analysis::of(&f.host).prepare_rename(f.position()).unwrap().unwrap();
        assert_eq!(range.start(), f.position().offset - foreach_syntax::TextSize::from(3));
        assert_eq!(&f.text("/ws/main.tf")[range], "primary");
        let main = text.split("#- /terraform.tfvars\n").next().unwrap().trim_start_matches("#- /main.tf\n");
        assert_eq!(
            rename(text, "home").unwrap(),
            files(&[
                ("/main.tf", &main.replace("\"primary\"", "\"home\"").replace("var.pri$0mary", "var.home")),
                ("/terraform.tfvars", "home = \"use1\"\n"),
            ])
        );
    }

    /// Every var file of the root that sets the variable: beside it but not auto-loaded (`prod.tfvars`), in a
    /// directory below it that holds no module (`envs/staging.tfvars`), but not one below a child module; from any
    /// of them too.
    #[test]
    fn variable_in_every_var_file_of_its_root() {
        let text = "#- /main.tf\nvariable \"re$0gion\" {}\nmodule \"m\" {\n  source = \"./modules/m\"\n}\n#- /prod.tfvars\nregion = \"eu\"\n#- /envs/staging.tfvars\nregion = \"us\"\nsize   = 1\n#- /modules/m/main.tf\nvariable \"region\" {}\n#- /modules/m/envs/test.tfvars\nregion = \"x\"\n";
        let got = rename(text, "zone").unwrap();
        let paths: Vec<&str> = got.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["/main.tf", "/prod.tfvars", "/envs/staging.tfvars"], "{got:?}");
        assert_eq!(got[2].1, "zone = \"us\"\nsize   = 1\n");
        let from_env = text.replace("re$0gion", "region").replace("region = \"us\"", "reg$0ion = \"us\"");
        assert_eq!(rename(&from_env, "zone").unwrap(), got);
        let json = format!("{text}#- /envs/qa.tfvars.json\n{{\"region\": \"qa\"}}\n");
        assert!(rename(&json, "zone").unwrap_err().contains("JSON var file /ws/envs/qa.tfvars.json"));
    }

    /// A var file the settings give (`--var-file`, the editor's `varFiles`) is renamed too, unless it sets the
    /// variable for another root module that declares it as well.
    #[test]
    fn variable_in_a_var_file_of_the_settings() {
        use foreach_analysis::host::Change;
        use foreach_analysis::settings::{CliVariable, Settings};
        let text = "#- /live/main.tf\nvariable \"re$0gion\" {}\n#- /vars/common.tfvars\nregion = \"eu\"\n#- /other/main.tf\nlocals {}\n";
        let with = |text: &str, var: CliVariable| {
            let mut f = Fixture::parse(text);
            let settings = Settings { cli_variables: vec![var], ..Settings::default() };
            f.host.apply_change(Change { settings: Some(settings), ..Change::default() });
            let edits = crate::Analysis::of(&f.host).rename(f.position(), "zone").unwrap()?;
            let file = f.file_id("/ws/vars/common.tfvars");
            Ok::<_, String>(apply(
                f.text("/ws/vars/common.tfvars"),
                &edits.into_iter().filter(|e| e.location.file == file).collect::<Vec<_>>(),
            ))
        };
        let file = || CliVariable::File("/ws/vars/common.tfvars".to_string());
        assert_eq!(with(text, file()).unwrap(), "zone = \"eu\"\n");
        let for_root = CliVariable::ForRoot { root: "/ws/live".to_string(), warn: true, var: Box::new(file()) };
        let shared = text.replace("locals {}", "variable \"region\" {}");
        assert_eq!(with(&shared, for_root).unwrap(), "zone = \"eu\"\n", "given to this root only");
        let e = with(&shared, file()).unwrap_err();
        assert!(e.contains("/ws/vars/common.tfvars") && e.contains("/ws/other"), "{e}");
    }

    #[test]
    fn refusals() {
        let json =
            "#- /main.tf\nvariable \"re$0gion\" {}\n#- /extra.tf.json\n{\"locals\": {\"a\": \"${var.region}\"}}\n";
        assert!(rename(json, "zone").unwrap_err().contains("JSON"));
        let bad = "locals {\n  a$0 = 1\n}\n";
        assert!(rename(bad, "1x").unwrap_err().contains("not a valid name"));
        let taken = "locals {\n  a$0 = 1\n  b = 2\n}\n";
        assert!(rename(taken, "b").unwrap_err().contains("already declared"));
        let nothing = "resource \"x\" \"y\" {\n  count$0 = 1\n}\n";
        assert!(rename(nothing, "z").unwrap_err().contains("nothing to rename"));
        let resource = "resource \"x\" \"y\" {}\nlocals {\n  a = x.y$0.id\n}\n";
        assert!(rename(resource, "z").unwrap_err().contains("moved"));
    }

    #[test]
    fn prepare_gives_the_name_without_quotes() {
        let f = Fixture::parse("variable \"re$0gion\" {}\n");
        let range = crate::Analysis::of(&f.host).prepare_rename(f.position()).unwrap().unwrap();
        assert_eq!(&f.text("/ws/main.tf")[range], "region");
        let f = Fixture::parse("locals {\n  a = length$0([])\n}\n");
        assert!(crate::Analysis::of(&f.host).prepare_rename(f.position()).unwrap().is_err());
    }
}
