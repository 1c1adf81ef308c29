//! Re-parsing an edited file without re-parsing what the edit did not touch.
//!
//! A keystroke in a 6,000-line file changes one top-level block; parsing the whole text again with hcl-edit (about
//! 30 MB/s) is most of what an edit costs. [`parse_reusing`] splits the new text into its top-level items with the
//! same lexical scanner error recovery uses ([`split_items`]), takes every item whose text is unchanged from the
//! previous parse of the file (moved to its new offset), and parses only the others, each on its own, exactly as
//! recovery parses items. The result must equal [`crate::parse`] of the same text, spans included: anything this
//! path is not sure of (JSON, an item the scanner flags, an item that does not parse alone) falls back to it.
//!
//! The cache is the parse itself (shared with the caller) plus where each item's structures sit in it, so a
//! reused item is cloned (and shifted) once per edit, and parsing the same text again costs nothing.
//!
//! A file being typed is broken most of the time (`name =` before its value). An item that does not parse alone
//! is recovered as the ordinary parse recovers it in a broken file (`recovery::recover_item`), and the other
//! items are still reused: typing a half-written attribute at the end of a 6,000-line file parses that line,
//! not the file twice (once whole, failing, then item by item). A broken item is never reused or edited inside;
//! it is recovered again on each parse.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::{Arc, Mutex};

use crate::ast::{Body, Structure};
use crate::convert::Converter;
use crate::recovery::{MAX_NESTING, heredoc_at_end_of_file, recover_item};
use crate::reuse_inside::{Edit, Splice, reparse_inside, splice_inside};
use crate::scan::split_items;
use crate::shift::{Shift, shifted};
use crate::{FileKind, Parse, strip_bom};

/// The last parse of one file and its items, for the next [`parse_reusing`] of the same file.
#[derive(Debug, Clone)]
pub struct ItemCache {
    /// The text the items were read from (shared with the caller, not copied).
    text: Arc<str>,
    /// The parse of `text` (shared with the caller).
    parse: Arc<Parse>,
    items: Vec<CachedItem>,
    /// Item indices by the hash of their text.
    by_hash: HashMap<u64, Vec<usize>>,
    /// How many items of this parse were rebuilt from their previous tree by re-parsing only the node around the
    /// edit (`reuse_inside.rs`), for tests.
    rebuilt_inside: usize,
    /// How many items of this parse were parsed (or recovered) whole, neither reused nor rebuilt, for tests.
    parsed_whole: usize,
    /// Whether this parse scanned the text for its items (`false`: it kept the previous items' boundaries).
    scanned: bool,
    /// The parse before this one, when this one came from it by an edit inside one item: the next edit takes it
    /// (shared by the cache's clones, so only one does) and edits it in place twice, first as this parse was made
    /// from it, then with its own edit. Copying the edited item instead is most of a keystroke in a 1.3 MB
    /// generated file that is one item (the copy, then freeing the old tree). By then nothing else holds the
    /// spare: salsa frees a query's replaced result when the next revision starts, and if something still does,
    /// the in-place edit copies only what it changes (`Arc::make_mut`).
    spare: Arc<Mutex<Option<Spare>>>,
    /// Whether this parse edited the spare of the previous one in place, for tests.
    in_place: bool,
}

#[derive(Debug)]
struct Spare {
    text: Arc<str>,
    parse: Arc<Parse>,
    items: Vec<CachedItem>,
}

#[derive(Debug, Clone)]
struct CachedItem {
    /// The item's byte range in `text` (BOM included in the offsets).
    range: Range<usize>,
    /// Its structures: indices into `parse.body.structures`.
    structures: Range<usize>,
    /// Whether the item does not parse alone: its structures are what recovery kept of it, and its errors are in
    /// the parse's, so it is recovered again rather than reused.
    broken: bool,
}

impl ItemCache {
    fn find(&self, item_text: &str, hash: u64) -> Option<&CachedItem> {
        let candidates = self.by_hash.get(&hash)?;
        candidates.iter().map(|&i| &self.items[i]).find(|c| &self.text[c.range.clone()] == item_text)
    }

    fn structures(&self, item: &CachedItem) -> &[Structure] {
        &self.parse.body.structures[item.structures.clone()]
    }

    /// The item that became `range` of the new text through `edit`: it started at the same offset, ended where
    /// `range` ends less what the edit added, and held the edit.
    fn edited_into(&self, range: &Range<usize>, edit: &Edit) -> Option<&CachedItem> {
        let end = usize::try_from(range.end as i64 - edit.delta()).ok()?;
        let i = self.items.binary_search_by_key(&range.start, |c| c.range.start).ok()?;
        let item = &self.items[i];
        (!item.broken && item.range.end == end && item.range.start <= edit.old.start && edit.old.end <= end)
            .then_some(item)
    }

    /// Whether some item of this parse does not parse alone (the text has syntax errors).
    fn has_broken(&self) -> bool {
        self.items.iter().any(|i| i.broken)
    }

    /// How many items of the parse that made this cache were rebuilt around an edit instead of parsed whole.
    #[doc(hidden)]
    pub fn rebuilt_inside(&self) -> usize {
        self.rebuilt_inside
    }

    /// How many items of the parse that made this cache were parsed (or recovered) whole, for tests.
    #[doc(hidden)]
    pub fn parsed_whole(&self) -> usize {
        self.parsed_whole
    }

    /// Whether the parse that made this cache scanned the whole text for its items, for tests.
    #[doc(hidden)]
    pub fn scanned(&self) -> bool {
        self.scanned
    }

    /// Whether the parse that made this cache edited the tree before the previous one in place, for tests.
    #[doc(hidden)]
    pub fn edited_in_place(&self) -> bool {
        self.in_place
    }

    /// Gives this cache a spare made now: a copy of its parse that shares nothing with it, so that already the
    /// first edit inside one item edits a tree in place, instead of copying the edited item as the first two
    /// keystrokes otherwise do. For a file about to be edited (an editor opened it); costs one copy of the tree.
    /// Nothing changes when it has one already (the parse before it, which the next edit replays onto).
    pub fn ensure_spare(&self) {
        // A broken parse is never edited in place: its errors are not kept per item.
        if self.has_broken() {
            return;
        }
        let Ok(mut slot) = self.spare.lock() else { return };
        if slot.is_none() {
            *slot = Some(Spare {
                text: self.text.clone(),
                parse: Arc::new(unshared(&self.parse)),
                items: self.items.clone(),
            });
        }
    }

    /// The text this cache was read from.
    pub fn text(&self) -> &Arc<str> {
        &self.text
    }

    /// This parse, to be kept as the next cache's spare.
    fn as_spare(&self) -> Spare {
        Spare { text: self.text.clone(), parse: self.parse.clone(), items: self.items.clone() }
    }
}

/// Parses `text` like [`crate::parse`], reusing the unchanged top-level items of `previous` (the cache of an
/// earlier parse of the same file). Returns the cache for the next call, `None` when this text went the ordinary
/// way (JSON, an item the scanner is unsure of that still parses, text between items that is not only white space
/// and comments).
pub fn parse_reusing(text: &Arc<str>, kind: FileKind, previous: Option<&ItemCache>) -> (Arc<Parse>, Option<ItemCache>) {
    if let Some(p) = previous
        && *p.text == **text
    {
        return (p.parse.clone(), Some(p.clone()));
    }
    let edit = previous.map(|p| Edit::between(&p.text, text));
    if let Some(done) = previous.zip(edit.as_ref()).and_then(|(p, edit)| parse_in_place(p, text, kind, edit)) {
        return done;
    }
    match parse_items(text, kind, previous.zip(edit.as_ref())) {
        Some(done) => done,
        None => (Arc::new(crate::parse(text, kind)), None),
    }
}

fn parse_items(
    text: &Arc<str>,
    kind: FileKind,
    previous: Option<(&ItemCache, &Edit)>,
) -> Option<(Arc<Parse>, Option<ItemCache>)> {
    if kind.is_json() {
        return None;
    }
    let (src, base) = strip_bom(text);
    let edit = previous.map(|(_, edit)| edit);
    let previous = previous.map(|(p, _)| p);
    // An edit that re-parses inside one item leaves every item boundary where it was (moved by the edit's length
    // after it): the re-parsed node is complete on its own and ends at an unchanged separator. Then the file is
    // not scanned again, which for a 1.3 MB generated file that is one item is most of a keystroke.
    let inside_one_item = previous.zip(edit).filter(|(p, _)| !p.has_broken()).and_then(|(p, e)| {
        let (at, splice) = edit_inside_one_item(&p.items, &p.parse.body.structures, &p.text, text, e)?;
        let mut rebuilt = p.structures(&p.items[at]).to_vec();
        splice.apply(&mut rebuilt);
        let ranges = moved_items(&p.items, at, e.delta()).into_iter().map(|c| c.range.start - base..c.range.end - base);
        Some((ranges.collect::<Vec<_>>(), at, rebuilt))
    });
    // The scanned items (`None` when the boundaries were kept): what recovering a broken item needs.
    let (items, mut edited_item, scan) = match inside_one_item {
        Some((ranges, at, rebuilt)) => (ranges, Some((at, rebuilt)), None),
        None => {
            let scan = split_items(src, 0..src.len(), MAX_NESTING);
            (scan.iter().map(|i| i.range.clone()).collect::<Vec<_>>(), None, Some(scan))
        }
    };
    let scanned = scan.is_some();
    let mut structures = Vec::new();
    let mut cached = Vec::with_capacity(items.len());
    let mut by_hash: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut rebuilt_inside = 0;
    let mut parsed_whole = 0;
    let mut gap_start = 0;
    // Recovery's errors, when an item does not parse alone; then the text as a whole does not parse either, and
    // the result is what recovery makes of it item by item (gaps between items play no part in that).
    let mut errors: Vec<crate::SyntaxError> = Vec::new();
    let mut broken_items = false;
    let mut gaps_are_trivia = true;
    for (index, item) in items.iter().enumerate() {
        gaps_are_trivia = gaps_are_trivia && gap_is_trivia(&src[gap_start..item.start]);
        gap_start = item.end;
        let item_text = &src[item.clone()];
        let start = base + item.start;
        let range = start..start + item_text.len();
        let first = structures.len();
        let hash = hash_of(item_text);
        let edited_here = edited_item.take_if(|(at, _)| *at == index).map(|(_, rebuilt)| rebuilt);
        let scanned_item = scan.as_ref().map(|s| &s[index]);
        let mut broken = false;
        match previous.filter(|_| edited_here.is_none()).and_then(|p| Some((p, p.find(item_text, hash)?))) {
            Some((p, old)) => {
                let delta = start as i64 - old.range.start as i64;
                structures.extend(p.structures(old).iter().map(|s| shifted(s, delta)));
            }
            None => {
                let rebuilt = edited_here.or_else(|| {
                    let (p, edit) = previous.zip(edit)?;
                    let old = p.edited_into(&range, edit)?;
                    reparse_inside(p.structures(old), &p.text, text, edit)
                });
                if let Some(rebuilt) = rebuilt {
                    rebuilt_inside += 1;
                    structures.extend(rebuilt);
                } else {
                    parsed_whole += 1;
                    // As recovery does: an item nested too deeply is reported without being parsed.
                    let parsed = scanned_item
                        .is_none_or(|i| i.too_deep.is_none())
                        .then(|| hcl_edit::parser::parse_body_spanned(item_text));
                    match parsed {
                        Some(Ok(body)) => structures.extend(Converter::new(item_text, start).body(body).structures),
                        failed => {
                            // Boundaries kept from the last parse come with no scan to recover from; that parse
                            // had no broken item, so scan this text the ordinary way.
                            let scanned_item = scanned_item?;
                            let err = failed.as_ref().and_then(|r| r.as_ref().err());
                            let (block, item_errors) = recover_item(src, base, scanned_item, err);
                            structures.extend(block.map(Structure::Block));
                            errors.extend(item_errors);
                            broken = true;
                        }
                    }
                }
            }
        }
        if !broken {
            by_hash.entry(hash).or_default().push(cached.len());
        }
        broken_items |= broken;
        cached.push(CachedItem { range, structures: first..structures.len(), broken });
    }
    let errors = if broken_items {
        errors.sort_by_key(|e| (e.range.start(), e.range.end()));
        errors.dedup();
        errors
    } else {
        // Every item parses alone: the text parses as a whole unless the scanner was unsure of an item, something
        // other than white space and comments sits between items, or a name is set twice; those go the ordinary
        // way.
        let unsure = scan.as_ref().is_some_and(|s| s.iter().any(|i| i.problem.is_some() || i.too_deep.is_some()));
        if unsure || !gaps_are_trivia || !gap_is_trivia(&src[gap_start..]) || sets_an_attribute_twice(&structures) {
            return None;
        }
        heredoc_at_end_of_file(src, base).into_iter().collect()
    };
    let parse = Arc::new(Parse { body: Body { structures }, errors });
    let cache = ItemCache {
        text: text.clone(),
        parse: parse.clone(),
        items: cached,
        by_hash,
        rebuilt_inside,
        parsed_whole,
        scanned,
        // Only a parse that came from the previous one by an edit inside one item can be replayed.
        spare: Arc::new(Mutex::new(previous.filter(|_| !scanned && !broken_items).map(ItemCache::as_spare))),
        in_place: false,
    };
    Some((parse, Some(cache)))
}

/// When `edit` (from `old_text` to `new_text`) falls inside one of `items`, whose trees are in `structures`, and
/// that item can be rebuilt by re-parsing a node inside it: the item's index and how to rebuild it.
fn edit_inside_one_item(
    items: &[CachedItem],
    structures: &[Structure],
    old_text: &str,
    new_text: &str,
    edit: &Edit,
) -> Option<(usize, Splice)> {
    if bom_len(old_text) != bom_len(new_text) {
        return None;
    }
    let at = items.partition_point(|c| c.range.end < edit.old.end);
    let old = items.get(at).filter(|c| !c.broken && c.range.start <= edit.old.start && edit.old.end <= c.range.end)?;
    let splice = splice_inside(&structures[old.structures.clone()], old_text, new_text, edit)?;
    Some((at, splice))
}

/// The items after an edit of `delta` bytes inside item `at`: it ends that much later, and the items after it
/// move. Their trees stay where they were among the structures.
fn moved_items(items: &[CachedItem], at: usize, delta: i64) -> Vec<CachedItem> {
    let moved = |offset: usize| (offset as i64 + delta) as usize;
    let item = |(i, c): (usize, &CachedItem)| {
        let start = if i > at { moved(c.range.start) } else { c.range.start };
        let end = if i >= at { moved(c.range.end) } else { c.range.end };
        CachedItem { range: start..end, structures: c.structures.clone(), broken: c.broken }
    };
    items.iter().enumerate().map(item).collect()
}

fn bom_len(text: &str) -> usize {
    text.len() - strip_bom(text).0.len()
}

/// Parses `text` by editing the spare of `previous` in place (see [`ItemCache::spare`]); `None` when it has no
/// spare, something else still holds it, or an edit does not fall inside one item.
fn parse_in_place(
    previous: &ItemCache,
    text: &Arc<str>,
    kind: FileKind,
    edit: &Edit,
) -> Option<(Arc<Parse>, Option<ItemCache>)> {
    if kind.is_json() || previous.has_broken() {
        return None;
    }
    let Spare { text: spare_text, parse: mut tree, items } = previous.spare.lock().ok()?.take()?;
    let parse = Arc::get_mut(&mut tree)?;
    // A spare made from the last parse ([`ItemCache::ensure_spare`]) has no edit to replay.
    let items = if Arc::ptr_eq(&spare_text, &previous.text) {
        items
    } else {
        let replay = Edit::between(&spare_text, &previous.text);
        edit_in_place(parse, &items, &spare_text, &previous.text, &replay)?
    };
    debug_assert!(*parse == *previous.parse, "replaying the last edit on the spare gives the last parse");
    let items = edit_in_place(parse, &items, &previous.text, text, edit)?;
    let (src, base) = strip_bom(text);
    parse.errors = heredoc_at_end_of_file(src, base).into_iter().collect();
    let mut by_hash: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        by_hash.entry(hash_of(&text[item.range.clone()])).or_default().push(i);
    }
    let cache = ItemCache {
        text: text.clone(),
        parse: tree.clone(),
        items,
        by_hash,
        rebuilt_inside: 1,
        parsed_whole: 0,
        scanned: false,
        spare: Arc::new(Mutex::new(Some(previous.as_spare()))),
        in_place: true,
    };
    Some((tree, Some(cache)))
}

/// A copy of `parse` that shares no attribute value with it: editing either in place leaves the other as it was.
fn unshared(parse: &Parse) -> Parse {
    fn unshare(body: &mut Body) {
        for structure in &mut body.structures {
            match structure {
                Structure::Attribute(a) => a.value = Arc::new((*a.value).clone()),
                Structure::Block(b) => unshare(&mut b.body),
            }
        }
    }
    let mut copy = parse.clone();
    unshare(&mut copy.body);
    copy
}

/// Applies `edit` to `parse`, the tree of `old_text` whose items are `items`, in place, when it falls inside
/// one item ([`edit_inside_one_item`]); returns the items of `new_text`. Nothing changes when it returns `None`.
fn edit_in_place(
    parse: &mut Parse,
    items: &[CachedItem],
    old_text: &str,
    new_text: &str,
    edit: &Edit,
) -> Option<Vec<CachedItem>> {
    let (at, splice) = edit_inside_one_item(items, &parse.body.structures, old_text, new_text, edit)?;
    let structures = &mut parse.body.structures;
    let edited = items[at].structures.clone();
    let after = Shift::uniform(edit.delta());
    structures[edited.end..].iter_mut().for_each(|s| after.structure(s));
    splice.apply(&mut structures[edited]);
    Some(moved_items(items, at, edit.delta()))
}

/// Whether a body sets an attribute twice, an error (a `.tfvars` file's top level is a body of attributes) that
/// items parsed one by one cannot see: the ordinary parse reports it.
fn sets_an_attribute_twice(structures: &[Structure]) -> bool {
    let mut seen = std::collections::HashSet::new();
    structures.iter().any(|s| matches!(s, Structure::Attribute(a) if !seen.insert(a.key.name.as_str())))
}

/// Whether the text between two items is only what a body may hold there: HCL's white space (spaces, tabs and
/// line breaks, not `str::trim`'s Unicode white space) and complete comments. A carriage return must start a line
/// break: a lone one right after an item is an error hcl-edit reports only in context. The scanner skips comments
/// without judging them (an unclosed `/*` at the end of a file is no item), so a gap with comments is parsed to be
/// sure.
fn gap_is_trivia(gap: &str) -> bool {
    let bytes = gap.as_bytes();
    let lone_cr = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if (0..bytes.len()).any(lone_cr) {
        return false;
    }
    bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        || hcl_edit::parser::parse_body_spanned_if_valid(gap).is_some_and(|b| b.is_empty())
}

/// Fx rather than SipHash: an item can be a whole 1.3 MB generated file, hashed on every keystroke, and its text
/// is compared in full before it is reused anyway.
fn hash_of(text: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    text.hash(&mut h);
    h.finish()
}
