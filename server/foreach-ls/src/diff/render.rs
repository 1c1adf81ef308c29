//! The output formats of `diff`: a human summary and the changes grouped by provider instance, JSON (the schema in
//! `docs/diff.md`), a Markdown pull-request comment and GitHub workflow annotations.

use std::collections::{BTreeMap, HashMap};

use foreach_analysis::base::{FileId, FileRange};
use foreach_analysis::diff::{Action, Change, Side, UnknownSet};
use foreach_analysis::instances::moves::InstanceAddress;
use foreach_analysis::instances::providers::ProviderInstance;
use foreach_analysis::paths::parent;
use serde_json::{Value, json};

use super::lines::LineMap;
use super::report::{Against, Report, RootReport};
use crate::report::Locator;

/// How many instances inside a module instance, or of an unknown set, the text formats list.
const LISTED: usize = 10;

/// A location as the formats print it.
struct At {
    path: String,
    line: u32,
    column: u32,
    side: Side,
}

impl At {
    fn short(&self) -> String {
        match self.side {
            Side::Current => format!("{}:{}", self.path, self.line),
            Side::Base => format!("{}:{} (base)", self.path, self.line),
        }
    }
}

/// Locations of both sides.
struct Locate<'a> {
    current: Locator<'a>,
    base: Locator<'a>,
}

impl<'a> Locate<'a> {
    fn new(report: &'a Report) -> Locate<'a> {
        Locate {
            current: Locator::without_texts(&report.current_files, &report.cwd),
            base: Locator::without_texts(&report.base_files, &report.cwd),
        }
    }

    fn at(&mut self, location: Option<(Side, FileRange)>) -> Option<At> {
        let (side, range) = location?;
        let locator = match side {
            Side::Current => &mut self.current,
            Side::Base => &mut self.base,
        };
        let span = locator.span(range);
        Some(At { path: span.path, line: span.start.line, column: span.start.column, side })
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("{n} {word}") } else { format!("{n} {word}s") }
}

/// `2 roots · 3 destroy · 1 create · 4 move · 0 rebind · 1 unknown`.
fn summary(report: &Report) -> String {
    let roots = report.roots.iter().filter(|r| r.compared).map(|r| &r.root).collect::<std::collections::BTreeSet<_>>();
    let mut parts = vec![plural(roots.len(), "root")];
    for a in [Action::Destroy, Action::Create, Action::Move, Action::Rebind] {
        parts.push(format!("{} {}", report.count(a), a.as_str()));
    }
    // Only when there is one: most changes have no `removed` or `import` block.
    for a in [Action::Forget, Action::Import] {
        let n = report.count(a);
        if n > 0 {
            parts.push(format!("{n} {}", a.as_str()));
        }
    }
    parts.push(format!("{} unknown", report.unknown()));
    let blocking = report.blocking();
    if blocking > 0 {
        parts.push(format!("{blocking} blocking"));
    }
    parts.join(" · ")
}

fn against(report: &Report) -> String {
    match &report.against {
        Against::State => "against the state".to_string(),
        Against::Revision { spec, commit } => format!("against {spec} ({})", &commit[..commit.len().min(12)]),
        Against::Dir(dir) => format!("against the checkout {dir}"),
    }
}

fn root_title(r: &RootReport) -> String {
    match &r.environment {
        Some(env) => format!("{} (environment {env})", r.root),
        None => r.root.clone(),
    }
}

/// `aws.by_region["eu-west-1"] (region eu-west-1)`, or why there is none.
fn provider_title(r: &RootReport, p: &Option<ProviderInstance>) -> String {
    match p {
        Some(p) => {
            let name = p.name();
            match r.regions.get(&name) {
                Some(region) => format!("{name} (region {region})"),
                None => name,
            }
        }
        None => "provider instance not known statically (or several)".to_string(),
    }
}

/// `tofu apply -destroy -target='A'`, single-quoted for the shell.
fn destroy_command(address: &InstanceAddress) -> String {
    format!("tofu apply -destroy -target='{}'", address.to_string().replace('\'', r"'\''"))
}

/// The changes of a root grouped by provider instance, in order.
fn groups(r: &RootReport) -> BTreeMap<&Option<ProviderInstance>, Vec<&Change>> {
    let mut out: BTreeMap<&Option<ProviderInstance>, Vec<&Change>> = BTreeMap::new();
    for c in &r.diff.changes {
        out.entry(&c.provider).or_default().push(c);
    }
    out
}

fn kind(c: &Change) -> &'static str {
    if c.address.resource.is_some() { "resource" } else { "module" }
}

/// One change in a line: `destroy  module.site["eu"] (and its 3 resource instances)`.
fn describe(c: &Change) -> String {
    if c.is_blocks() {
        let module = c.address.to_string();
        let place = if module.is_empty() { "the root module".to_string() } else { module };
        return format!("{} of {place} that the state lacks", plural(c.weight(), "resource instance"));
    }
    let mut out = c.address.to_string();
    if let Some(to) = &c.to {
        out.push_str(&format!(" → {to}"));
    }
    if c.address.resource.is_none() && c.action != Action::Move {
        out.push_str(&format!(" (and {} inside it)", plural(c.inside_count(), "resource instance")));
    }
    if let Some(p) = &c.new_provider {
        let from = c.provider.as_ref().map(ProviderInstance::name).unwrap_or_else(|| "?".into());
        out.push_str(&format!(" ({from} → {})", p.name()));
    }
    out
}

/// The instances the text formats list under a change (the first [`LISTED`]), and how many there are.
fn listed(c: &Change) -> (Vec<InstanceAddress>, usize) {
    if c.is_blocks() {
        let set = c.declared.as_ref().map(|s| (s.first(LISTED), s.len()));
        return set.unwrap_or_default();
    }
    (c.inside_first(LISTED), c.inside_count())
}

/// How much of the human format is built before it is handed on: a large report (a million creates against a
/// small state) is printed as it is made, not held whole.
const CHUNK: usize = 1 << 16;

/// The human format, handed to `emit` in pieces; stops at the first error `emit` returns.
pub fn human_to<E>(report: &Report, color: bool, emit: &mut dyn FnMut(&str) -> Result<(), E>) -> Result<(), E> {
    let paint = |code: &str, text: &str| if color { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() };
    let mut locate = Locate::new(report);
    let mut out = format!("foreach-ls diff: {} ({})\n", summary(report), against(report));
    for r in &report.roots {
        out.push('\n');
        if !r.compared {
            out.push_str(&format!("{}: no state, not compared\n", root_title(r)));
            continue;
        }
        if r.diff.changes.is_empty() && r.diff.unknown.is_empty() {
            out.push_str(&format!("{}: no change\n", root_title(r)));
            continue;
        }
        out.push_str(&format!("{}:\n", paint("1", &root_title(r))));
        for (provider, changes) in groups(r) {
            out.push_str(&format!("  {}\n", provider_title(r, provider)));
            for c in changes {
                let action = match c.action {
                    Action::Destroy => paint("31", "destroy"),
                    Action::Create => paint("32", "create "),
                    Action::Move => paint("36", "move   "),
                    Action::Rebind => paint("33", "rebind "),
                    Action::Forget => paint("34", "forget "),
                    Action::Import => paint("32", "import "),
                };
                let mut line = format!("    {action}  {}", describe(c));
                if let Some(at) = locate.at(c.location) {
                    line.push_str(&format!("  {}", at.short()));
                }
                if let Some(at) = locate.at(c.moved_by.map(|l| (Side::Current, l))) {
                    line.push_str(&format!("  (moved block {})", at.short()));
                }
                if let Some(at) = locate.at(c.removed_by.map(|l| (Side::Current, l))) {
                    line.push_str(&format!(
                        "  (removed block {}: leaves the state, the real object stays)",
                        at.short()
                    ));
                }
                if c.blocking {
                    line.push_str(&format!("  {}", paint("1;31", "BLOCKING")));
                }
                out.push_str(&line);
                out.push('\n');
                let (listed, total) = listed(c);
                for a in &listed {
                    out.push_str(&format!("               {a}\n"));
                }
                if total > listed.len() {
                    out.push_str(&format!("               and {} more\n", total - listed.len()));
                }
                if c.blocking {
                    out.push_str(&format!(
                        "             its provider instance is gone too, so `tofu plan` fails; first, with the provider \
                         instance still there: {}\n",
                        destroy_command(&c.address)
                    ));
                }
                if out.len() > CHUNK {
                    emit(&out)?;
                    out.clear();
                }
            }
        }
        for u in &r.diff.unknown {
            let mut line = format!("  {}  {}: {}", paint("35", "unknown"), u.address, u.why);
            if let Some(at) = locate.at(u.location) {
                line.push_str(&format!("  {}", at.short()));
            }
            out.push_str(&line);
            out.push('\n');
            if !u.instances.is_empty() {
                let listed: Vec<String> = u.instances.iter().take(LISTED).map(|a| a.to_string()).collect();
                let more = if u.instances.len() > LISTED {
                    format!(", and {} more", u.instances.len() - LISTED)
                } else {
                    String::new()
                };
                out.push_str(&format!(
                    "             whether these are kept is not known: {}{more}\n",
                    listed.join(", ")
                ));
            }
        }
    }
    emit(&out)
}

fn location_json(at: Option<At>) -> Value {
    match at {
        Some(at) => json!({
            "file": at.path,
            "line": at.line,
            "column": at.column,
            "side": match at.side { Side::Current => "current", Side::Base => "base" },
        }),
        None => Value::Null,
    }
}

fn provider_json(r: &RootReport, p: &Option<ProviderInstance>) -> Value {
    match p {
        Some(p) => {
            let name = p.name();
            let mut source = p.config.ty.clone();
            if source.matches('/').count() == 1 {
                source = format!("registry.opentofu.org/{source}");
            }
            let mut address: String = p.config.module.iter().map(|m| format!("module.{m}.")).collect();
            address.push_str(&format!("provider[{}]", foreach_syntax::quote(&source)));
            if let Some(a) = &p.config.alias {
                address.push_str(&format!(".{a}"));
            }
            if let Some(k) = &p.key {
                address.push_str(&k.bracketed());
            }
            json!({"name": name, "address": address, "region": r.regions.get(&p.name())})
        }
        None => Value::Null,
    }
}

fn change_json(r: &RootReport, c: &Change, locate: &mut Locate<'_>) -> Value {
    json!({
        "action": c.action.as_str(),
        "kind": kind(c),
        "address": c.address.to_string(),
        "to": c.to.as_ref().map(|a| a.to_string()),
        "provider": provider_json(r, &c.provider),
        "new_provider": provider_json(r, &c.new_provider),
        "blocking": c.blocking,
        "destroy_command": c.blocking.then(|| destroy_command(&c.address)),
        "location": location_json(locate.at(c.location)),
        "moved_by": location_json(locate.at(c.moved_by.map(|l| (Side::Current, l)))),
        "removed_by": location_json(locate.at(c.removed_by.map(|l| (Side::Current, l)))),
        "inside": c.inside_all().iter().map(|a| a.to_string()).collect::<Vec<_>>(),
    })
}

/// The JSON changes of one provider instance's group. A change that stands for the instances of some blocks
/// (`Change::is_blocks`) is one entry of kind `resources` that lists them (`docs/diff.md`).
fn group_json(r: &RootReport, changes: Vec<&Change>, locate: &mut Locate<'_>) -> Vec<Value> {
    changes
        .into_iter()
        .map(|c| {
            let mut v = change_json(r, c, locate);
            if let Some(set) = c.declared.as_ref().filter(|_| c.is_blocks()) {
                v["kind"] = json!("resources");
                v["instances"] = json!(set.addresses().iter().map(|a| a.to_string()).collect::<Vec<_>>());
            }
            v
        })
        .collect()
}

fn unknown_json(u: &UnknownSet, locate: &mut Locate<'_>) -> Value {
    json!({
        "address": u.address,
        "why": &*u.why,
        "location": location_json(locate.at(u.location)),
        "instances": u.instances.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
    })
}

fn counts_json<'c>(changes: impl Iterator<Item = &'c Change> + Clone, unknown: usize) -> Value {
    let n = |a: Action| changes.clone().filter(|c| c.action == a).map(Change::weight).sum::<usize>();
    json!({
        "destroy": n(Action::Destroy),
        "create": n(Action::Create),
        "move": n(Action::Move),
        "rebind": n(Action::Rebind),
        "forget": n(Action::Forget),
        "import": n(Action::Import),
        "unknown": unknown,
        "blocking": changes.clone().filter(|c| c.blocking).count(),
    })
}

pub fn json(report: &Report) -> String {
    let mut locate = Locate::new(report);
    let roots: Vec<Value> = report
        .roots
        .iter()
        .map(|r| {
            let providers: Vec<Value> = groups(r)
                .into_iter()
                .map(|(p, changes)| {
                    json!({
                        "provider": provider_json(r, p),
                        "changes": group_json(r, changes, &mut locate),
                    })
                })
                .collect();
            json!({
                "root": r.root,
                "environment": r.environment,
                "compared": r.compared,
                "summary": counts_json(r.diff.changes.iter(), r.diff.unknown.len()),
                "providers": providers,
                "unknown": r.diff.unknown.iter().map(|u| unknown_json(u, &mut locate)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let (kind, base) = match &report.against {
        Against::State => ("state", Value::Null),
        Against::Revision { spec, commit } => ("base", json!({"ref": spec, "commit": commit})),
        Against::Dir(dir) => ("base", json!({"dir": dir})),
    };
    let mut summary = counts_json(report.roots.iter().flat_map(|r| r.diff.changes.iter()), report.unknown());
    summary["roots"] = json!(
        report.roots.iter().filter(|r| r.compared).map(|r| &r.root).collect::<std::collections::BTreeSet<_>>().len()
    );
    let doc = json!({
        "version": 1,
        "against": kind,
        "base": base,
        "summary": summary,
        "roots": roots,
    });
    format!("{}\n", serde_json::to_string_pretty(&doc).unwrap_or_default())
}

/// Markdown for a pull-request comment: the summary, a table per root (one row per provider instance), and every
/// instance in a collapsed list.
pub fn markdown(report: &Report) -> String {
    let mut locate = Locate::new(report);
    let mut out = format!("### foreach-ls diff: {}\n\n{}.\n", summary(report), capitalise(&against(report)));
    for r in report.roots.iter().filter(|r| r.compared) {
        out.push_str(&format!(
            "\n#### `{}`{}\n\n",
            r.root,
            r.environment.as_ref().map(|e| format!(" ({e})")).unwrap_or_default()
        ));
        if r.diff.changes.is_empty() && r.diff.unknown.is_empty() {
            out.push_str("No change.\n");
            continue;
        }
        if !r.diff.changes.is_empty() {
            // The import column only for a root with `import` blocks that adopt something.
            let imports = r.diff.count(Action::Import) > 0;
            out.push_str(if imports {
                "| provider instance | destroy | create | move | rebind | forget | import |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
            } else {
                "| provider instance | destroy | create | move | rebind | forget |\n| --- | ---: | ---: | ---: | ---: | ---: |\n"
            });
            for (p, changes) in groups(r) {
                let n = |a: Action| changes.iter().filter(|c| c.action == a).map(|c| c.weight()).sum::<usize>();
                let blocking = changes.iter().any(|c| c.blocking);
                let destroy = match (n(Action::Destroy), blocking) {
                    (d, true) => format!("**{d}** (blocking)"),
                    (d, false) => d.to_string(),
                };
                let import = if imports { format!(" {} |", n(Action::Import)) } else { String::new() };
                out.push_str(&format!(
                    "| `{}` | {destroy} | {} | {} | {} | {} |{import}\n",
                    provider_title(r, p).replace('|', "\\|"),
                    n(Action::Create),
                    n(Action::Move),
                    n(Action::Rebind),
                    n(Action::Forget)
                ));
            }
        }
        let blocking: Vec<&Change> = r.diff.changes.iter().filter(|c| c.blocking).collect();
        if !blocking.is_empty() {
            out.push_str(
                "\n> [!CAUTION]\n> The provider instance of these destroys is gone too, so `tofu plan` fails. \
                          Destroy them first, with the provider instance still in the configuration:\n",
            );
            for c in blocking {
                out.push_str(&format!("> `{}`\n", destroy_command(&c.address)));
            }
        }
        out.push_str(&format!(
            "\n<details><summary>{}</summary>\n\n",
            plural(r.diff.changes.iter().map(Change::weight).sum::<usize>() + r.diff.unknown.len(), "instance change")
        ));
        for c in &r.diff.changes {
            let at = locate.at(c.location).map(|a| format!(" ({})", a.short())).unwrap_or_default();
            out.push_str(&format!("- **{}** `{}`{at}\n", c.action.as_str(), describe(c)));
            let (listed, total) = listed(c);
            for a in &listed {
                out.push_str(&format!("  - `{a}`\n"));
            }
            if total > listed.len() {
                out.push_str(&format!("  - and {} more\n", total - listed.len()));
            }
        }
        for u in &r.diff.unknown {
            out.push_str(&format!("- **unknown** `{}`: {}\n", u.address, u.why));
        }
        out.push_str("\n</details>\n");
    }
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// GitHub workflow commands: an annotation on the line that decides each destroyed instance (an error when it
/// blocks or `--deny-destroy` is given, else a warning), a notice for each forgotten instance and each unknown set,
/// and the summary.
pub fn github(report: &Report) -> String {
    let mut places = Places::new(report);
    let mut out = String::new();
    for r in &report.roots {
        for c in r.diff.changes.iter().filter(|c| c.action == Action::Destroy) {
            let level = if c.blocking || report.deny_destroy { "error" } else { "warning" };
            let through = c.provider.as_ref().map(|p| format!(" through {}", p.name())).unwrap_or_default();
            let place = places.of(c.location);
            let mut message = format!("{}: destroys {}{through}{}", r.root, describe(c), place.note());
            if c.blocking {
                message.push_str(&format!(
                    "; its provider instance is gone too, so `tofu plan` fails: first run {}",
                    destroy_command(&c.address)
                ));
            }
            out.push_str(&command(level, place, &message));
        }
        for c in r.diff.changes.iter().filter(|c| c.action == Action::Forget) {
            // A block the configuration no longer has: the `removed` block is the line to annotate.
            let at = match c.location {
                Some((Side::Current, _)) => c.location,
                _ => c.removed_by.map(|l| (Side::Current, l)).or(c.location),
            };
            let place = places.of(at);
            let message = format!(
                "{}: forgets {}{} (a removed block takes it out of the state; the real object stays)",
                r.root,
                describe(c),
                place.note()
            );
            out.push_str(&command("notice", place, &message));
        }
        for u in &r.diff.unknown {
            let place = places.of(u.location);
            let message =
                format!("{}: the instances of {} are not known: {}{}", r.root, u.address, u.why, place.note());
            out.push_str(&command("notice", place, &message));
        }
    }
    out.push_str(&format!(
        "::notice title=foreach-ls diff::{}\n",
        escape(&format!("{} ({})", summary(report), against(report)))
    ));
    out
}

/// Where an annotation goes in the checked-out files (GitHub shows annotations on those only).
#[derive(Default)]
struct Place {
    /// The file, relative to the current directory, and the line and column in it when known.
    file: Option<(String, Option<u32>, Option<u32>)>,
    /// Where the block was, when the annotation cannot be on its file: the file the change deletes.
    deleted_file: Option<String>,
}

impl Place {
    /// ` (it was in old.tf, a file the change deletes)`, or nothing.
    fn note(&self) -> String {
        self.deleted_file.as_ref().map(|f| format!(" (it was in {f}, a file the change deletes)")).unwrap_or_default()
    }
}

/// Places of both sides' locations in the checked-out files.
struct Places<'a> {
    report: &'a Report,
    locate: Locate<'a>,
    /// The current files by absolute path: the base's files have the paths they would have in the checkout.
    current: HashMap<&'a str, FileId>,
    /// By base file: its lines matched with the current file of the same path.
    maps: HashMap<FileId, LineMap>,
}

impl<'a> Places<'a> {
    fn new(report: &'a Report) -> Places<'a> {
        let current = report.current_files.iter().map(|(id, (path, _))| (path.as_str(), *id)).collect();
        Places { report, locate: Locate::new(report), current, maps: HashMap::new() }
    }

    fn of(&mut self, location: Option<(Side, FileRange)>) -> Place {
        let Some(at) = self.locate.at(location) else { return Place::default() };
        let Some((Side::Base, range)) = location else {
            return Place { file: Some((at.path, Some(at.line), Some(at.column))), deleted_file: None };
        };
        let Some((base_path, base_text)) = self.report.base_files.get(&range.file) else { return Place::default() };
        // A block the change deleted from a file that is still there: the line where it was.
        if let Some(current) = self.current.get(base_path.as_str()) {
            let current_text = self.report.current_files[current].1.text();
            let map = self.maps.entry(range.file).or_insert_with(|| LineMap::new(&base_text.text(), &current_text));
            return Place { file: Some((at.path, Some(map.current_line(at.line)), None)), deleted_file: None };
        }
        // The file is gone too: the first file left in its directory, without a line, saying where it was.
        let dir = parent(base_path);
        let left = self.current.keys().filter(|p| parent(p) == dir).min();
        Place {
            file: left.map(|p| (crate::report::relative(p, &self.report.cwd), None, None)),
            deleted_file: Some(at.path),
        }
    }
}

fn command(level: &str, place: Place, message: &str) -> String {
    let mut properties = String::new();
    if let Some((path, line, column)) = &place.file {
        properties.push_str(&format!("file={},", escape_property(path)));
        if let Some(line) = line {
            properties.push_str(&format!("line={line},"));
        }
        if let Some(column) = column {
            properties.push_str(&format!("col={column},"));
        }
    }
    format!("::{level} {properties}title=foreach-ls diff::{}\n", escape(message))
}

/// GitHub's escaping of a workflow command's message.
fn escape(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// GitHub's escaping of a workflow command's property value.
fn escape_property(s: &str) -> String {
    escape(s).replace(':', "%3A").replace(',', "%2C")
}
