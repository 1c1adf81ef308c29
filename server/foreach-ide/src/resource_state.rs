//! Hover on a managed resource block's name: its instances in the state (`aws_s3_bucket.b["eu"]`, …), in every
//! module instance of every root whose tree holds the module and that has a readable state. Nothing when no state is
//! found, so that hover without a state stays as it was.

use foreach_analysis::db::{Db, SourceFile, Workspace, module};
use foreach_analysis::model::items::ResourceMode;
use foreach_analysis::state::RootState;
use foreach_analysis::tree::module_tree;

use super::instance_lens::nodes_under;
use super::results::HoverResult;
use super::{FilePosition, dir_of, touches};

/// At most this many instances are listed per root; the rest are counted.
const LISTED: usize = 20;

pub(crate) fn resource_hover(db: &dyn Db, ws: Workspace, file: SourceFile, pos: FilePosition) -> Option<HoverResult> {
    let states = ws.states(db);
    if states.is_empty() {
        return None;
    }
    let dir = dir_of(db, ws, file)?;
    let m = module(db, dir);
    let r = m.resources.iter().find(|r| {
        r.mode == ResourceMode::Managed && r.site.file == pos.file && touches(r.site.name_range, pos.offset)
    })?;
    let tree = module_tree(db, ws);
    let mut sections = Vec::new();
    for &root in &tree.roots {
        let root_dir = tree.node(root).dir.path(db);
        let Some(RootState::Bindings(b)) = states.get(root_dir) else { continue };
        // The call paths that load this module under the root.
        let paths: Vec<&[String]> = nodes_under(&tree, root)
            .into_iter()
            .filter(|id| tree.node(*id).dir == dir)
            .map(|id| tree.node(id).call_path.as_slice())
            .collect();
        if paths.is_empty() {
            continue;
        }
        let mut listed = Vec::new();
        let mut total = 0;
        for o in b.objects.iter().filter(|o| o.deposed.is_none()) {
            let sr = &b.resources[o.resource as usize];
            if sr.ty != r.ty || sr.name != r.name {
                continue;
            }
            let calls = sr.module.iter().map(|(c, _)| c.as_str());
            if !paths.iter().any(|p| p.iter().map(String::as_str).eq(calls.clone())) {
                continue;
            }
            total += 1;
            if listed.len() < LISTED {
                listed.push(format!("- `{}`\n", b.instance_address(o)));
            }
        }
        let mut md = match total {
            0 => "no instances in the state".to_string(),
            1 => "1 instance in the state:\n".to_string(),
            n => format!("{n} instances in the state:\n"),
        };
        md.extend(listed);
        if total > LISTED {
            md.push_str(&format!("- …and {} more\n", total - LISTED));
        }
        sections.push((root_dir.clone(), md));
    }
    if sections.is_empty() {
        return None;
    }
    let mut markdown = format!("```hcl\nresource \"{}\" \"{}\"\n```\n", r.ty, r.name);
    let several = sections.len() > 1;
    for (root, md) in sections {
        markdown.push('\n');
        if several {
            markdown.push_str(&format!("root `{root}`: "));
        }
        markdown.push_str(&md);
        if !markdown.ends_with('\n') {
            markdown.push('\n');
        }
    }
    Some(HoverResult { range: r.site.name_range, markdown })
}
