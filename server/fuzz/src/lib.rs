//! The fuzz targets of foreach-ls, as plain functions over bytes so that two drivers share them: cargo-fuzz
//! (`fuzz_targets/*.rs`, libFuzzer, nightly, long runs) and the stable harness that `cargo test` runs for a
//! bounded time (`server/foreach-lsp/tests/fuzz_stable.rs`, proptest, plus every corpus file and crasher).
//!
//! Each target panics exactly when it finds a bug: a panic or hang in the code under test, or a broken invariant
//! checked here (ranges inside the text, line/column round trips, a symmetric comparison, the server's document
//! text equal to a reference model of the edits, no request answered with an internal error).

pub mod lsp;
pub mod model;

use std::sync::Arc;

use foreach_analysis::FileId;
use foreach_analysis::FileRange;
use foreach_analysis::eval::budget::Budget;
use foreach_analysis::eval::scope::FileReader;
use foreach_analysis::eval::{EvalContext, LocalDecl, ModuleScope, ModuleStaticInputs, VariableDecl};
use foreach_syntax::{ColumnEncoding, FileKind, LineIndex, TextSize, parse, parse_expr};

/// Inputs longer than this are cut: the targets look for logic bugs, the hostile-input tests cover size.
const MAX_INPUT: usize = 16 * 1024;

fn text(data: &[u8]) -> &str {
    let data = &data[..data.len().min(MAX_INPUT)];
    match std::str::from_utf8(data) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&data[..e.valid_up_to()]).unwrap_or_default(),
    }
}

/// The syntax layer with recovery: every file kind, the expression parser and the line index.
pub fn syntax(data: &[u8]) {
    let src = text(data);
    for kind in [FileKind::Tf, FileKind::TfJson, FileKind::Tfvars] {
        let p = parse(src, kind);
        for e in &p.errors {
            let (start, end) = (usize::from(e.range.start()), usize::from(e.range.end()));
            assert!(start <= end && end <= src.len(), "{kind:?}: error range {start}..{end} outside the text");
            assert!(src.is_char_boundary(start) && src.is_char_boundary(end), "{kind:?}: error splits a character");
            assert!(!src[start..end].contains('\n'), "{kind:?}: error range spans lines");
        }
        for s in &p.body.structures {
            let r = match s {
                foreach_syntax::ast::Structure::Attribute(a) => a.range,
                foreach_syntax::ast::Structure::Block(b) => b.range,
            };
            assert!(usize::from(r.end()) <= src.len(), "{kind:?}: item range outside the text");
        }
    }
    let _ = parse_expr(src);
    // The direct parser reads only what hcl-edit accepts, into the very tree hcl-edit's makes (`tests/direct.rs`).
    if let Some(direct) = foreach_syntax::parsers_for_tests::direct(src) {
        let reference = foreach_syntax::parsers_for_tests::through_hcl_edit(src);
        assert!(
            reference.as_ref() == Some(&direct),
            "the direct parser read a text hcl-edit reads otherwise: {direct:?}"
        );
    }
    // Re-parsing an edited text reuses its unchanged items (and inside a changed item, the node around the edit)
    // and must equal a fresh parse, spans included: the input parsed after a version of it with a character
    // removed (at a half and at a third of it), one added (`x` at a half: an edit that deletes it) or eight
    // added (an edit that removes a word).
    let fresh = parse(src, FileKind::Tf);
    let at = |fraction: usize| {
        let mut at = src.len() / fraction;
        while !src.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let without = |at: usize| {
        let next = src[at..].chars().next().map_or(at, |c| at + c.len_utf8());
        format!("{}{}", &src[..at], &src[next..])
    };
    let (half, third) = (at(2), at(3));
    let added = |what: &str| format!("{}{what}{}", &src[..half], &src[half..]);
    // Every other one with a spare made up front (a document an editor opened), so the edit is made in place.
    for (i, before) in [without(half), without(third), added("x"), added("abc_defg")].into_iter().enumerate() {
        let before: std::sync::Arc<str> = std::sync::Arc::from(before);
        let (_, cache) = foreach_syntax::parse_reusing(&before, FileKind::Tf, None);
        if i % 2 == 1
            && let Some(cache) = &cache
        {
            cache.ensure_spare();
        }
        let (reused, _) = foreach_syntax::parse_reusing(&std::sync::Arc::from(src), FileKind::Tf, cache.as_ref());
        assert!(*reused == fresh, "a reusing parse differs from a fresh one");
    }
    // Three versions in a row, as when two typed characters are deleted one at a time: the last parse may edit
    // the first one's tree in place, replaying the edit between the first two.
    let mut cache = None;
    for version in [added("ab"), added("a")] {
        let version: std::sync::Arc<str> = std::sync::Arc::from(version);
        let (got, next) = foreach_syntax::parse_reusing(&version, FileKind::Tf, cache.as_ref());
        assert!(*got == parse(&version, FileKind::Tf), "a reusing parse of an edit differs from a fresh one");
        drop(got);
        cache = next.or(cache);
    }
    let (reused, _) = foreach_syntax::parse_reusing(&std::sync::Arc::from(src), FileKind::Tf, cache.as_ref());
    assert!(*reused == fresh, "a reusing parse after three versions differs from a fresh one");
    // Every character boundary survives offset -> line/column -> offset, in both encodings (except the point
    // between `\r` and `\n`, which is no position: it maps to the end of the line's content).
    let index = LineIndex::new(src);
    for (i, _) in src.char_indices().step_by(7).chain([(src.len(), ' ')]) {
        if src[..i].ends_with('\r') && src[i..].starts_with('\n') {
            continue;
        }
        let offset = TextSize::try_from(i).unwrap_or_default();
        for enc in [ColumnEncoding::Utf16, ColumnEncoding::Char] {
            let lc = index.line_col(offset, enc);
            assert_eq!(index.offset(lc, enc), offset, "round trip of {i} ({enc:?})");
        }
    }
}

/// A tiny module every evaluation sees: variables and locals of each shape, a `for_each`-like map.
const MODULE: &str = r#"
variable "regions" {
  type    = set(string)
  default = ["eu-west-1", "us-east-1"]
}
variable "n" {
  default = 3
}
locals {
  m    = { a = 1, b = "two", c = [true, null] }
  l    = [for r in var.regions : upper(r)]
  s    = "x-${var.n}"
  self = local.self
}
"#;

const MODULE_FILE: FileId = FileId(1);
const EXPR_FILE: FileId = FileId(2);

/// Files the file functions can read: `/ws/a.txt`, and a template that calls `templatefile` on itself.
struct MemFiles;

impl FileReader for MemFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        match path {
            "/ws/a.txt" => Ok(b"hello\n".to_vec()),
            "/ws/t.tpl" => {
                Ok(b"${x} %{ for i in range(3) }${i}%{ endfor } ${templatefile(\"t.tpl\", {x = 1})}".to_vec())
            }
            "/ws/j.json" => Ok(br#"{"a": [1, 2, {"b": null}]}"#.to_vec()),
            _ => Err("no such file".into()),
        }
    }
    fn is_file(&self, path: &str) -> bool {
        self.read(path).is_ok()
    }
    fn walk(&self, dir: &str) -> Result<Vec<String>, String> {
        if dir == "/ws" { Ok(vec!["a.txt".into(), "j.json".into(), "t.tpl".into()]) } else { Ok(Vec::new()) }
    }
}

fn module_scope() -> ModuleScope {
    let parse = parse(MODULE, FileKind::Tf);
    assert!(parse.errors.is_empty());
    let mut variables = Vec::new();
    let mut locals = Vec::new();
    for block in parse.body.blocks() {
        match block.ident.name.as_str() {
            "variable" => variables.push(VariableDecl {
                name: block.label(0).unwrap_or_default().into(),
                decl: FileRange::new(MODULE_FILE, block.labels[0].range),
                type_expr: block.body.attribute("type").map(|a| (MODULE_FILE, a.value.clone())),
                default: block.body.attribute("default").map(|a| (MODULE_FILE, a.value.clone())),
                nullable: true,
                sensitive: false,
                non_static: None,
                supplied: None,
                provisional: None,
                default_not_final: None,
            }),
            _ => {
                for a in block.body.attributes() {
                    locals.push(LocalDecl {
                        name: a.key.name.clone(),
                        file: MODULE_FILE,
                        range: FileRange::new(MODULE_FILE, a.range),
                        expr: a.value.clone(),
                    });
                }
            }
        }
    }
    ModuleScope::new(ModuleStaticInputs {
        module_label: String::new(),
        variables,
        locals,
        path_module: "/ws".into(),
        path_root: "/ws".into(),
        path_cwd: "/ws".into(),
        workspace: Some("default".into()),
        workspace_root: "/ws".into(),
        files: Some(Arc::new(MemFiles)),
        // Small budgets: the same code paths as the defaults, reached in microseconds.
        budget: Budget { max_collection: 2_000, max_string: 20_000, max_steps: 20_000, ..Budget::default() },
    })
}

/// The evaluator: `parse_expr` and evaluation in a small module scope, then rendering the value.
pub fn eval(data: &[u8]) {
    let src = text(data);
    let Ok(expr) = parse_expr(src) else { return };
    let scope = module_scope();
    let ctx = EvalContext { origin: "fuzz".into(), ..EvalContext::default() };
    let v = scope.eval(EXPR_FILE, &expr, &ctx);
    let _ = foreach_analysis::eval::render::console(&v);
    let _ = foreach_analysis::eval::render::compact(&v);
    for d in scope.take_diagnostics() {
        if d.location.file == EXPR_FILE {
            assert!(usize::from(d.location.range.end()) <= src.len(), "diagnostic outside the expression: {d:?}");
        }
    }
}

/// The RFC's too-similar comparison: two expressions separated by a NUL byte. It must not panic and must be
/// symmetric; an expression with a reference is always too similar to an identical copy of itself when the
/// comparison accepts it once.
pub fn similar(data: &[u8]) {
    let src = text(data);
    let (a, b) = src.split_once('\0').unwrap_or((src, src));
    let (Ok(a), Ok(b)) = (parse_expr(a), parse_expr(b)) else { return };
    let ab = foreach_analysis::similar::too_similar(&a, &b);
    let ba = foreach_analysis::similar::too_similar(&b, &a);
    assert_eq!(ab, ba, "too_similar is not symmetric");
    if ab {
        assert!(foreach_analysis::similar::too_similar(&a, &a), "a is similar to b but not to itself");
    }
}

pub use lsp::lsp;
