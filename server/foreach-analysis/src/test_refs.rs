//! References in test files (`.tftest.hcl`, `.tofutest.hcl` and their JSON forms) to resources, data sources,
//! module calls and module outputs of the module a `run` block tests.
//!
//! A `run` block's `assert` conditions and error messages are evaluated in the scope of the module under test (the
//! test file's directory, or its parent for a file in `tests/`), or of the module its `module { source = "./…" }`
//! block loads (relative to the module under test, as OpenTofu loads it like a child of that module). OpenTofu
//! checks their references statically before evaluating them, as in a module. `expect_failures` names checkable
//! objects of that module: a resource it does not declare can never fail as expected.
//!
//! Not checked: `run.NAME`, `output.NAME` and `check.NAME` (the test scope's own names), variables (a test file
//! defines its own), and runs whose module is remote or not loaded.

use std::collections::HashMap;
use std::sync::Arc;

use foreach_syntax::ast::{Block, ExprKind};

use crate::db::{Db, ModuleDir, SourceFile, Workspace, dir_index, module, parse};
use crate::diagnostics::Diagnostic;
use crate::model::refs::{Reference, references};
use crate::module_outputs::{check_outputs, file_text};
use crate::paths::{is_local_source, join_normalized};
use crate::providers::test_files::module_under_test;
use crate::refcheck::Declared;
use crate::refcheck::complete;
use crate::tree::{CallTarget, module_tree};

/// Roots that only the test scope has.
const TEST_ROOTS: &[&str] = &["run", "output", "check"];

#[salsa::tracked(returns(clone))]
pub fn test_file_references(db: &dyn Db, ws: Workspace) -> Arc<Vec<Diagnostic>> {
    let dirs: HashMap<&str, ModuleDir> = ws.dirs(db).iter().map(|d| (d.path(db).as_str(), *d)).collect();
    let index = dir_index(db, ws);
    let mut out = Vec::new();
    for dir in ws.dirs(db).iter() {
        for file in dir.files(db).iter().filter(|f| f.kind(db).is_test()) {
            let Some(under_test) = module_under_test(db, *dir, &dirs) else { continue };
            for run in parse(db, *file).body.blocks().filter(|b| b.ident.name == "run") {
                let tested = match run_module_source(run) {
                    None => Some(under_test),
                    Some(Some(source)) => index.get(&join_normalized(under_test.path(db), &source)).copied(),
                    Some(None) => None,
                };
                if let Some(tested) = tested.filter(|d| complete(db, *d)) {
                    check_run(db, ws, *file, *dir, run, tested, &mut out);
                }
            }
        }
    }
    Arc::new(out)
}

/// `None` without a `module` block; `Some(None)` for a source that is not a local path.
fn run_module_source(run: &Block) -> Option<Option<String>> {
    let m = run.body.blocks_named("module").next()?;
    let source = m.body.attribute("source").and_then(|a| a.value.as_string_literal());
    Some(source.filter(|s| is_local_source(s)))
}

fn check_run(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    file_dir: ModuleDir,
    run: &Block,
    tested: ModuleDir,
    out: &mut Vec<Diagnostic>,
) {
    let mut refs: Vec<Reference> = Vec::new();
    for assert in run.body.blocks_named("assert") {
        for a in assert.body.attributes().filter(|a| a.key.name == "condition" || a.key.name == "error_message") {
            refs.extend(references(&a.value, &[]));
        }
    }
    if let Some(a) = run.body.attribute("expect_failures")
        && let ExprKind::Tuple(items) = &a.value.kind
    {
        for item in items {
            refs.extend(references(item, &[]).into_iter().filter(|r| r.range.start() == item.range.start()));
        }
    }
    refs.retain(|r| !TEST_ROOTS.contains(&r.root()));
    if refs.is_empty() {
        return;
    }
    let id = file.id(db);
    let m = module(db, tested);
    let declared = Declared::of(&m);
    let text = |f| file_text(db, file_dir, f);
    for r in &refs {
        out.extend(declared.check(id, r, " in the module under test", &text));
    }
    // Outputs of the tested module's calls, through any instance of it in the tree.
    let tree = module_tree(db, ws);
    let Some(node) = tree.nodes.iter().find(|n| n.dir == tested) else { return };
    for child in &node.children {
        let CallTarget::Node(c) = child.target else { continue };
        let (Some(call), child_dir) = (m.module_call(&child.call), tree.node(c).dir) else { continue };
        if complete(db, child_dir) {
            check_outputs(call, &module(db, child_dir), refs.iter().map(|r| (id, r)), &text, out);
        }
    }
}
