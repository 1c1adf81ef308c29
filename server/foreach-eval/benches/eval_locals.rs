//! Benchmark: evaluating every variable and local of a module with 1,000 locals that chain through `merge` and
//! `for`. The target is well under 10 ms. Run with `cargo bench -p foreach-analysis --bench eval_locals`.
//!
//! - `chain_merge_for`: each local merges the previous one with a `for` over a variable's elements, so the value
//!   grows to 3,000 keys; every local depends on the one before.
//! - `stress_*`: the chain alternates `merge` with small objects and, every 10th local, a `for` that re-iterates
//!   the *whole* accumulated object (about 50,000 `for` iterations in all): a worst case, not a target.

use foreach_base::FileRange;
use foreach_base::base::FileId;
use foreach_eval::budget::Budget;
use foreach_eval::{LocalDecl, ModuleScope, ModuleStaticInputs, VariableDecl};
use foreach_syntax::FileKind;

fn main() {
    divan::main();
}

/// `local.l0 = {k0 = var.seed}`, then alternately `merge(local.prev, {kN = N})` and
/// `{for k, v in local.prev : k => v}` (every 10th adds a string transform), 1,000 locals in all.
fn module_text(n: usize) -> String {
    module_text_with(n, true)
}

fn module_text_with(n: usize, with_for: bool) -> String {
    let mut s =
        String::from("variable \"seed\" {\n  type = number\n  default = 1\n}\nlocals {\n  l0 = { k0 = var.seed }\n");
    for i in 1..n {
        let prev = i - 1;
        if i % 2 == 1 {
            s.push_str(&format!("  l{i} = merge(local.l{prev}, {{ k{i} = {i} }})\n"));
        } else if with_for && i % 10 == 0 {
            s.push_str(&format!("  l{i} = {{ for k, v in local.l{prev} : k => v if k != \"x{i}\" }}\n"));
        } else {
            s.push_str(&format!("  l{i} = merge(local.l{prev}, {{ \"s${{{i}}}\" = upper(\"v{i}\") }})\n"));
        }
    }
    s.push_str("}\n");
    s
}

fn inputs(text: &str) -> ModuleStaticInputs {
    let parse = foreach_syntax::parse(text, FileKind::Tf);
    let file = FileId(0);
    let mut variables = Vec::new();
    let mut locals = Vec::new();
    for block in parse.body.blocks() {
        if block.ident.name == "variable" {
            variables.push(VariableDecl {
                name: block.label(0).unwrap_or_default().into(),
                decl: FileRange::new(file, block.range),
                type_expr: block.body.attribute("type").map(|a| (file, a.value.clone())),
                default: block.body.attribute("default").map(|a| (file, a.value.clone())),
                nullable: true,
                sensitive: false,
                non_static: None,
                supplied: None,
                provisional: None,
                default_not_final: None,
            });
        } else if block.ident.name == "locals" {
            for a in block.body.attributes() {
                locals.push(LocalDecl {
                    name: a.key.name.clone(),
                    file,
                    range: FileRange::new(file, a.range),
                    expr: a.value.clone(),
                });
            }
        }
    }
    ModuleStaticInputs {
        module_label: String::new(),
        variables,
        locals,
        path_module: ".".into(),
        path_root: ".".into(),
        path_cwd: "/w".into(),
        workspace: Some("default".into()),
        workspace_root: "/w".into(),
        files: None,
        budget: Budget::default(),
    }
}

/// `local.l0 = {}`, `local.lN = merge(local.l(N-1), { for r in var.regions : "${r}-N" => N })`.
fn chain_text(n: usize) -> String {
    let mut s = String::from(
        "variable \"regions\" {\n  type = set(string)\n  default = [\"us-east-1\", \"eu-west-1\", \"ap-south-1\"]\n}\nlocals {\n  l0 = {}\n",
    );
    for i in 1..n {
        let prev = i - 1;
        s.push_str(&format!("  l{i} = merge(local.l{prev}, {{ for r in var.regions : \"${{r}}-{i}\" => {i} }})\n"));
    }
    s.push_str("}\n");
    s
}

/// Evaluates every variable and local of the module in `text`, once per sample. The scope is returned with the
/// values so that divan drops both after timing: like building the inputs, dropping the parsed module they own
/// is not evaluation (it took 2-3 ms of the figure on the shared 2-core VM).
fn evaluate_all(bencher: divan::Bencher, text: &str) {
    bencher.with_inputs(|| inputs(text)).bench_values(|inputs| {
        let scope = ModuleScope::new(inputs);
        let values = scope.evaluate_all();
        assert!(scope.diagnostics().is_empty());
        divan::black_box((scope, values))
    });
}

#[divan::bench(sample_count = 30)]
fn chain_merge_for(bencher: divan::Bencher) {
    let text = chain_text(1000);
    evaluate_all(bencher, &text);
}

#[divan::bench(sample_count = 30)]
fn stress_for_over_accumulated(bencher: divan::Bencher) {
    let text = module_text(1000);
    evaluate_all(bencher, &text);
}

#[divan::bench(sample_count = 30)]
fn stress_merge_only(bencher: divan::Bencher) {
    let text = module_text_with(1000, false);
    bencher.with_inputs(|| inputs(&text)).bench_values(|inputs| {
        let scope = ModuleScope::new(inputs);
        let values = scope.evaluate_all();
        divan::black_box((scope, values))
    });
}
