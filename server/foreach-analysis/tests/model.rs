//! Structural tests of the configuration model, the module tree and variable precedence, on in-memory workspaces.
//! (Diagnostics are tested with fixtures under `testdata/`; these check what the model *is*.)

use std::sync::Arc;

use foreach_analysis::db::{ModuleDir, module};
use foreach_analysis::tree::{CallTarget, module_tree};
use foreach_analysis::vars::{RawValue, ValueSource, root_assignments};
use foreach_analysis::{AnalysisHost, Change, CliVariable, Code, Settings, SourceText};

fn host(files: &[(&str, &str)]) -> AnalysisHost {
    host_with(files, Settings::default())
}

fn host_with(files: &[(&str, &str)], settings: Settings) -> AnalysisHost {
    let mut h = AnalysisHost::new();
    h.apply_change(Change {
        files: files.iter().map(|(p, t)| (p.to_string(), Ok(SourceText::from(*t)))).collect(),
        read_roots: Some(vec!["/ws".to_string()]),
        settings: Some(settings),
        ..Change::default()
    });
    h
}

fn dir(h: &AnalysisHost, path: &str) -> ModuleDir {
    *h.workspace().dirs(h.db()).iter().find(|d| d.path(h.db()) == path).expect("dir loaded")
}

fn codes(h: &AnalysisHost) -> Vec<&'static str> {
    h.diagnostics().iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn tofu_file_replaces_tf_file_of_same_base_name() {
    let h = host(&[
        ("/ws/main.tf", "variable \"from_tf\" {}\n"),
        ("/ws/main.tofu", "variable \"from_tofu\" {}\n"),
        ("/ws/other.tf", "variable \"other\" {}\n"),
    ]);
    let m = module(h.db(), dir(&h, "/ws"));
    let names: Vec<&str> = m.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["from_tofu", "other"]);
    assert_eq!(m.shadowed.len(), 1);
    assert_eq!(codes(&h), ["shadowed-by-tofu-file"]);
}

#[test]
fn tofu_json_replaces_only_tf_json() {
    let h =
        host(&[("/ws/main.tf", "variable \"native\" {}\n"), ("/ws/main.tofu.json", r#"{"variable": {"json": {}}}"#)]);
    let m = module(h.db(), dir(&h, "/ws"));
    let mut names: Vec<&str> = m.variables.iter().map(|v| v.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["json", "native"], "main.tofu.json shadows main.tf.json, not main.tf");
}

#[test]
fn override_files_replace_attributes_in_lexical_order() {
    let h = host(&[
        (
            "/ws/main.tf",
            "resource \"aws_vpc\" \"v\" {\n  for_each = local.a\n  cidr_block = \"x\"\n}\nlocals {\n  a = 1\n  b = 2\n}\n",
        ),
        ("/ws/override.tf", "resource \"aws_vpc\" \"v\" {\n  for_each = local.b\n}\n"),
        ("/ws/z_override.tf", "locals {\n  b = 3\n}\n"),
    ]);
    let m = module(h.db(), dir(&h, "/ws"));
    let fe = m.resources[0].for_each().unwrap();
    assert!(matches!(&fe.expr().kind, foreach_syntax::ast::ExprKind::Traversal { .. }));
    let text = "resource \"aws_vpc\" \"v\" {\n  for_each = local.b\n}\n";
    assert_eq!(&text[fe.expr_range()], "local.b");
    let b = m.local("b").unwrap();
    assert_eq!(b.arg.expr().kind, foreach_syntax::ast::ExprKind::Number("3".into()));
    assert!(codes(&h).is_empty(), "{:?}", h.diagnostics());
}

#[test]
fn provider_override_ignores_for_each() {
    let h = host(&[
        ("/ws/main.tf", "provider \"aws\" {\n  alias = \"r\"\n  for_each = var.a\n  region = \"x\"\n}\n"),
        ("/ws/main_override.tf", "provider \"aws\" {\n  alias = \"r\"\n  for_each = var.b\n  region = \"y\"\n}\n"),
    ]);
    let m = module(h.db(), dir(&h, "/ws"));
    let p = &m.providers[0];
    let fe = p.for_each.as_ref().unwrap();
    assert_eq!(fe.file, m.files[0], "for_each still comes from main.tf");
    assert_eq!(p.config.len(), 1);
    assert_eq!(p.config[0].file, m.files[1], "region comes from the override");
}

#[test]
fn override_without_base_and_duplicates_are_reported() {
    let h =
        host(&[("/ws/main.tf", "variable \"a\" {}\nvariable \"a\" {}\n"), ("/ws/override.tf", "variable \"b\" {}\n")]);
    let mut c = codes(&h);
    c.sort();
    assert_eq!(c, ["duplicate-block", "override-without-base"]);
    let dup = h.diagnostics().into_iter().find(|d| d.code == Code::DuplicateBlock).unwrap();
    assert_eq!(dup.related.len(), 1, "points at the first declaration");
}

#[test]
fn module_tree_follows_local_sources_and_reports_cycles() {
    let h = host(&[
        ("/ws/main.tf", "module \"a\" {\n  source = \"./a\"\n}\n"),
        ("/ws/a/main.tf", "module \"b\" {\n  source = \"../b\"\n}\n"),
        ("/ws/b/main.tf", "module \"back\" {\n  source = \"../a\"\n}\n"),
    ]);
    let tree = module_tree(h.db(), h.workspace());
    assert_eq!(tree.roots.len(), 1, "a and b are called, so only /ws is a root");
    let paths: Vec<String> = tree.nodes.iter().map(|n| n.address()).collect();
    assert_eq!(paths, ["", "module.a", "module.a.module.b"]);
    let b = tree.nodes.iter().find(|n| n.address() == "module.a.module.b").unwrap();
    assert_eq!(b.children[0].target, CallTarget::Broken);
    assert_eq!(codes(&h), ["module-cycle"]);
}

#[test]
fn module_calling_itself_is_a_cycle() {
    let h = host(&[("/ws/main.tf", "module \"me\" {\n  source = \"./\"\n}\n")]);
    assert_eq!(codes(&h), ["module-cycle"]);
}

#[test]
fn unloaded_and_missing_module_dirs() {
    let mut h = host(&[("/ws/main.tf", "module \"x\" {\n  source = \"../elsewhere\"\n}\n")]);
    assert_eq!(h.unloaded_dirs(), ["/elsewhere"]);
    assert!(codes(&h).is_empty(), "not an error until the host says the directory is missing");
    h.apply_change(Change { dirs: vec![("/elsewhere".into(), false)], ..Change::default() });
    assert!(h.unloaded_dirs().is_empty());
    assert_eq!(codes(&h), ["module-not-found"]);
}

#[test]
fn registry_sources_resolve_through_modules_json() {
    let mut h = host(&[
        ("/ws/main.tf", "module \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n"),
        ("/ws/.terraform/modules/vpc/main.tf", "variable \"cidr\" {}\n"),
    ]);
    let tree = module_tree(h.db(), h.workspace());
    assert_eq!(tree.node(tree.roots[0]).children[0].target, CallTarget::Unresolved, "no manifest yet");
    let manifest = r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"vpc","Source":"registry.opentofu.org/terraform-aws-modules/vpc/aws","Dir":".terraform/modules/vpc"}]}"#;
    h.apply_change(Change { manifests: vec![("/ws".into(), Arc::from(manifest))], ..Change::default() });
    let tree = module_tree(h.db(), h.workspace());
    assert_eq!(tree.roots.len(), 1, "installed modules are never roots");
    assert!(matches!(tree.node(tree.roots[0]).children[0].target, CallTarget::Node(_)));
}

fn winner(h: &AnalysisHost, name: &str) -> (ValueSource, String) {
    let a = root_assignments(h.db(), h.workspace(), dir(h, "/ws"));
    let asg = a.values.get(name).expect("assigned").clone();
    let text = match asg.value {
        RawValue::Text(t) => t,
        RawValue::Expr { expr, .. } => match Arc::unwrap_or_clone(expr).kind {
            foreach_syntax::ast::ExprKind::Number(n) => n.to_string(),
            other => format!("{other:?}"),
        },
        RawValue::Encrypted { .. } => "(encrypted)".to_string(),
    };
    (asg.source, text)
}

#[test]
fn tfvars_precedence_follows_opentofu() {
    let files = [
        ("/ws/main.tf", "variable \"a\" {}\nvariable \"b\" {}\nvariable \"c\" {}\nvariable \"d\" {}\n"),
        ("/ws/terraform.tfvars", "a = 1\nb = 1\nc = 1\nd = 1\n"),
        ("/ws/terraform.tfvars.json", r#"{"b": 2, "c": 2, "d": 2}"#),
        ("/ws/b.auto.tfvars", "c = 4\n"),
        ("/ws/a.auto.tfvars.json", r#"{"c": 3, "d": 3}"#),
        ("/ws/prod.tfvars", "d = 5\n"),
    ];
    let h = host(&files);
    assert_eq!(winner(&h, "a").1, "1");
    assert_eq!(winner(&h, "b").1, "2", "terraform.tfvars.json after terraform.tfvars");
    assert_eq!(winner(&h, "c").1, "4", "auto files in lexical order, after terraform.tfvars*");
    assert_eq!(winner(&h, "d").1, "3", "prod.tfvars is not auto-loaded");

    let settings = Settings {
        cli_variables: vec![
            CliVariable::Value { name: "d".into(), value: "cli".into() },
            CliVariable::File("/ws/prod.tfvars".into()),
        ],
        env_variables: vec![("a".into(), "env".into())],
        ..Settings::default()
    };
    let h = host_with(&files, settings);
    assert_eq!(winner(&h, "d").1, "5", "a later --var-file beats an earlier --var");
    assert_eq!(winner(&h, "a").1, "1", "terraform.tfvars beats TF_VAR_a");
    let settings = Settings {
        cli_variables: vec![
            CliVariable::File("/ws/prod.tfvars".into()),
            CliVariable::Value { name: "d".into(), value: "cli".into() },
        ],
        env_variables: vec![("z".into(), "env".into())],
        ..Settings::default()
    };
    let h = host_with(&files, settings);
    assert_eq!(winner(&h, "d"), (ValueSource::CommandLine { position: 1 }, "cli".to_string()));
}

#[test]
fn env_variables_are_lowest_precedence() {
    let settings = Settings { env_variables: vec![("only_env".into(), "e".into())], ..Settings::default() };
    let h = host_with(&[("/ws/main.tf", "variable \"only_env\" {}\n")], settings);
    assert_eq!(winner(&h, "only_env"), (ValueSource::Environment, "e".to_string()));
}

#[test]
fn undeclared_tfvars_entries_warn() {
    let h = host(&[("/ws/main.tf", "variable \"a\" {}\n"), ("/ws/terraform.tfvars", "a = 1\nnope = 2\n")]);
    assert_eq!(codes(&h), ["undeclared-variable-value"]);
}

#[test]
fn computed_source_reaching_a_directory_sorted_before_its_caller_makes_it_a_child() {
    let h = host(&[
        ("/ws/a/main.tf", "variable \"name\" {}\n"),
        (
            "/ws/z/main.tf",
            "locals {\n  d = \"a\"\n}\nmodule \"m\" {\n  source = \"../${local.d}\"\n  name   = \"x\"\n}\n",
        ),
    ]);
    let tree = module_tree(h.db(), h.workspace());
    let roots: Vec<&String> = tree.roots.iter().map(|r| tree.node(*r).dir.path(h.db())).collect();
    assert_eq!(roots, ["/ws/z"]);
    let child = &tree.node(tree.roots[0]).children[0];
    let CallTarget::Node(id) = child.target else { panic!("loaded: {child:?}") };
    assert_eq!(tree.node(id).dir.path(h.db()), "/ws/a");
    assert_eq!(tree.node(id).call_path, ["m"]);
}

#[test]
fn computed_source_follows_the_variable_value_and_asks_for_unloaded_dirs() {
    let files = [(
        "/ws/main.tf",
        "variable \"env\" {\n  default = \"dev\"\n}\nmodule \"app\" {\n  source = \"../envs/${var.env}\"\n}\n",
    )];
    let h = host(&files);
    assert_eq!(h.unloaded_dirs(), ["/envs/dev"]);
    let settings = Settings {
        cli_variables: vec![CliVariable::Value { name: "env".into(), value: "prod".into() }],
        ..Settings::default()
    };
    let h = host_with(&files, settings);
    assert_eq!(h.unloaded_dirs(), ["/envs/prod"]);
}

#[test]
fn editing_the_tfvars_value_of_a_templated_source_switches_the_loaded_module() {
    // Loaded as the child, `prod` gets its regions from the caller and the bad key is an error; analysed as a root
    // of its own it has no value for them, which is only a note.
    let prod = "variable \"regions\" {\n  type = set(string)\n}\nprovider \"aws\" {\n  alias    = \"x\"\n  for_each = var.regions\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.x[\"nope\"]\n}\n";
    let mut h = host(&[
        (
            "/ws/main.tf",
            "variable \"env\" {}\nmodule \"app\" {\n  source  = \"./modules/${var.env}\"\n  regions = [\"a\"]\n}\n",
        ),
        ("/ws/terraform.tfvars", "env = \"staging\"\n"),
        ("/ws/modules/prod/main.tf", prod),
        ("/ws/modules/staging/main.tf", "variable \"regions\" {}\n"),
    ]);
    let loaded = |h: &AnalysisHost| {
        let tree = module_tree(h.db(), h.workspace());
        let root = tree.roots.iter().find(|r| tree.node(**r).dir.path(h.db()) == "/ws").copied().unwrap();
        match tree.node(root).children[0].target {
            CallTarget::Node(id) => tree.node(id).dir.path(h.db()).clone(),
            ref other => format!("{other:?}"),
        }
    };
    let sorted = |h: &AnalysisHost| {
        let mut c = codes(h);
        c.sort();
        c
    };
    assert_eq!(loaded(&h), "/ws/modules/staging");
    assert_eq!(sorted(&h), ["provider-for-each-unresolved"]);
    h.apply_change(Change {
        files: vec![("/ws/terraform.tfvars".into(), Ok(SourceText::from("env = \"prod\"\n")))],
        ..Change::default()
    });
    assert_eq!(loaded(&h), "/ws/modules/prod");
    assert_eq!(module_tree(h.db(), h.workspace()).roots.len(), 2, "the root and the unused staging module");
    assert_eq!(sorted(&h), ["unknown-provider-instance"]);
    // Removing the value: nothing is loaded, the note says which variable is missing.
    h.apply_change(Change {
        files: vec![("/ws/terraform.tfvars".into(), Ok(SourceText::from("")))],
        ..Change::default()
    });
    assert_eq!(loaded(&h), "Unresolved");
    assert_eq!(sorted(&h), ["module-source-unresolved", "provider-for-each-unresolved"]);
}

/// A file read from disk (its text kept compressed) keeps its locals, module arguments and variable types packed,
/// small ones included; an editor's open document (kept plain) keeps them as trees, since it is summarised on every keystroke.
/// Either way they read back as the same expressions, ranges included, and evaluate to the same values.
#[test]
fn expressions_of_files_nobody_edits_are_kept_packed() {
    let fields: Vec<String> = (0..12).map(|i| format!("k{i} = \"value ${{var.v.k0}} {i}\"")).collect();
    let object = format!("{{ {} }}", fields.join(", "));
    let types: Vec<String> = (0..12).map(|i| format!("k{i} = string")).collect();
    let main = format!(
        "variable \"v\" {{\n  type    = object({{ {} }})\n  default = {{ {} }}\n}}\n\
         locals {{\n  small = var.v.k1\n  big   = {object}\n}}\n\
         module \"m\" {{\n  source = \"./m\"\n  input  = {object}\n}}\n",
        types.join(", "),
        (0..12).map(|i| format!("k{i} = \"{i}\"")).collect::<Vec<_>>().join(", "),
    );
    let files = |text: SourceText| {
        let mut h = AnalysisHost::new();
        h.apply_change(Change {
            files: vec![
                ("/ws/main.tf".to_string(), Ok(text)),
                ("/ws/m/main.tf".to_string(), Ok(SourceText::from("variable \"input\" {}\n"))),
            ],
            read_roots: Some(vec!["/ws".to_string()]),
            ..Change::default()
        });
        h
    };
    let cold = files(SourceText::compressed(&main));
    let hot = files(SourceText::from(main.as_str()));
    let cold_module = module(cold.db(), dir(&cold, "/ws"));
    let hot_module = module(hot.db(), dir(&hot, "/ws"));

    let args = |m: &foreach_analysis::model::module::Module| {
        let v = &m.variables[0];
        let call = &m.module_calls[0];
        [
            m.local("big").unwrap().arg.clone(),
            m.local("small").unwrap().arg.clone(),
            (**v.ty.as_ref().unwrap()).clone(),
            (**v.default.as_ref().unwrap()).clone(),
            call.input("input").unwrap().clone(),
        ]
    };
    let (cold_args, hot_args) = (args(&cold_module), args(&hot_module));
    let packed: Vec<bool> = cold_args.iter().map(|a| a.is_packed()).collect();
    assert_eq!(packed, [true; 5], "big local, small local, type, default, module argument");
    assert!(hot_args.iter().all(|a| !a.is_packed()), "an open document's expressions stay trees");
    for (c, h) in cold_args.iter().zip(&hot_args) {
        assert_eq!(c.expr(), h.expr(), "`{}` reads back as it was parsed", c.name.name);
        assert_eq!(c.expr_range(), h.expr_range());
    }

    let value = |h: &AnalysisHost| {
        let e = h.evaluate_in("/ws", "[local.big, local.small]");
        assert!(e.diagnostics.is_empty(), "{:?}", e.diagnostics);
        foreach_analysis::eval::render::compact(&e.value)
    };
    assert_eq!(value(&cold), value(&hot));
    assert!(value(&cold).contains("value 0 11"), "{}", value(&cold));
    assert_eq!(cold.diagnostics(), hot.diagnostics());
}
