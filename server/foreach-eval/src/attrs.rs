//! Attributes of objects and elements of maps, ordered by name (bytewise, as cty orders them).
//!
//! Two shapes behind one interface:
//! - **sorted**: a sorted vector, one allocation, found by binary search. Objects are nearly always built whole
//!   and then only read (`{ quota_code = "L-1", service_code = "ec2", desired_quota = var.x }`, an object
//!   constructor of 6,000 entries, a `for` result, a decoded JSON document): collecting them ([`FromIterator`],
//!   [`SortedBuilder`]) gives this shape at any size, as do single inserts up to [`SMALL`] entries.
//! - **persistent**: an ordered map (`imbl`) once single inserts grow an object past [`SMALL`] entries, so that
//!   `merge(local.big, {k = v})` chains share the big map instead of copying it and stay linear.
//!
//! `imbl` alone made every small object a B-tree leaf of 16 slots behind two allocations, and built big ones one
//! insert at a time; in the 6,000-entry generated module of the dev corpus, building and reading those objects
//! was a third of re-evaluating it after a keystroke.

use smol_str::SmolStr;

/// Past this many entries a single insert turns a sorted vector into a persistent map. `imbl`'s own node size:
/// below it a B-tree is one leaf anyway, so the vector gives up no sharing the map would have had.
const SMALL: usize = 16;

/// Generic in the value so that this module does not import the values that hold it (`value.rs` names
/// `Attrs<Value>`).
#[derive(Debug, Clone)]
pub struct Attrs<V>(Shape<V>);

#[derive(Debug, Clone)]
enum Shape<V> {
    /// Sorted by key, no duplicates.
    Sorted(Vec<(SmolStr, V)>),
    Persistent(imbl::OrdMap<SmolStr, V>),
}

impl<V> Default for Attrs<V> {
    fn default() -> Self {
        Attrs(Shape::Sorted(Vec::new()))
    }
}

impl<V: Clone> Attrs<V> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        match &self.0 {
            Shape::Sorted(v) => v.len(),
            Shape::Persistent(m) => m.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        match &self.0 {
            Shape::Sorted(v) => position(v, key).ok().map(|i| &v[i].1),
            Shape::Persistent(m) => m.get(key),
        }
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key`, returning the value it replaces.
    pub fn insert(&mut self, key: SmolStr, value: V) -> Option<V> {
        match &mut self.0 {
            Shape::Sorted(v) => match position(v, &key) {
                Ok(i) => Some(std::mem::replace(&mut v[i].1, value)),
                Err(i) if v.len() < SMALL => {
                    v.insert(i, (key, value));
                    None
                }
                Err(_) => {
                    let mut m: imbl::OrdMap<SmolStr, V> = std::mem::take(v).into_iter().collect();
                    m.insert(key, value);
                    self.0 = Shape::Persistent(m);
                    None
                }
            },
            Shape::Persistent(m) => m.insert(key, value),
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<V> {
        match &mut self.0 {
            Shape::Sorted(v) => position(v, key).ok().map(|i| v.remove(i).1),
            Shape::Persistent(m) => m.remove(key),
        }
    }

    /// Entries in key order.
    pub fn iter(&self) -> Iter<'_, V> {
        match &self.0 {
            Shape::Sorted(v) => Iter::Sorted(v.iter()),
            Shape::Persistent(m) => Iter::Persistent(m.iter()),
        }
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &SmolStr> + '_ {
        self.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + '_ {
        self.iter().map(|(_, v)| v)
    }
}

/// Later entries win over earlier ones with the same key, as inserting them one by one would.
impl<K: Into<SmolStr>, V: Clone> FromIterator<(K, V)> for Attrs<V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut entries: Vec<(SmolStr, V)> = iter.into_iter().map(|(k, v)| (k.into(), v)).collect();
        // Stable, so equal keys stay in order and the last of each run is the one inserted last.
        entries.sort_by(|(a, _), (b, _)| a.cmp(b));
        // `dedup_by` keeps the first of a run and drops the later one: swapping them first keeps the later entry
        // in the kept place, without building a second vector.
        entries.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(later, kept);
            }
            same
        });
        Attrs(Shape::Sorted(entries))
    }
}

/// Where `key` is in a sorted vector of entries, or where it would go.
fn position<V>(entries: &[(SmolStr, V)], key: &str) -> Result<usize, usize> {
    entries.binary_search_by(|(k, _)| (**k).cmp(key))
}

/// Builds attributes from entries that usually come in key order (a `for` over a map or object, keyed by its
/// keys), refusing duplicates: in order they are appended, and only the first entry out of order falls back to
/// inserting.
pub struct SortedBuilder<V>(Attrs<V>);

impl<V: Clone> SortedBuilder<V> {
    pub fn new() -> Self {
        SortedBuilder(Attrs::new())
    }

    /// Adds an entry, or gives it back if the key is already there.
    pub fn insert_new(&mut self, key: SmolStr, value: V) -> Result<(), (SmolStr, V)> {
        if let Shape::Sorted(v) = &mut (self.0).0
            && v.last().is_none_or(|(last, _)| *last < key)
        {
            v.push((key, value));
            return Ok(());
        }
        if self.0.contains_key(&key) {
            return Err((key, value));
        }
        // Out of order: a long vector becomes a persistent map here (inserting into the middle of a vector over
        // and over would be quadratic).
        self.0.insert(key, value);
        Ok(())
    }

    pub fn finish(self) -> Attrs<V> {
        self.0
    }
}

impl<V: Clone> Default for SortedBuilder<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Clone> Extend<(SmolStr, V)> for Attrs<V> {
    fn extend<I: IntoIterator<Item = (SmolStr, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<'a, V: Clone> IntoIterator for &'a Attrs<V> {
    type Item = (&'a SmolStr, &'a V);
    type IntoIter = Iter<'a, V>;

    fn into_iter(self) -> Iter<'a, V> {
        self.iter()
    }
}

impl<V: Clone> std::ops::Index<&str> for Attrs<V> {
    type Output = V;

    fn index(&self, key: &str) -> &V {
        self.get(key).unwrap_or_else(|| panic!("no attribute `{key}`"))
    }
}

/// Entries of [`Attrs`] in key order.
pub enum Iter<'a, V> {
    Sorted(std::slice::Iter<'a, (SmolStr, V)>),
    Persistent(imbl::ordmap::Iter<'a, SmolStr, V, imbl::shared_ptr::DefaultSharedPtr>),
}

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a SmolStr, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Sorted(i) => i.next().map(|(k, v)| (k, v)),
            Iter::Persistent(i) => i.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Iter::Sorted(i) => i.size_hint(),
            Iter::Persistent(i) => i.size_hint(),
        }
    }
}

impl<V> DoubleEndedIterator for Iter<'_, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Sorted(i) => i.next_back().map(|(k, v)| (k, v)),
            Iter::Persistent(i) => i.next_back(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> SmolStr {
        SmolStr::from(s)
    }

    /// The same operations on both shapes and on a plain ordered map give the same entries in the same order,
    /// across the size where a small object turns into a persistent map.
    #[test]
    fn behaves_like_an_ordered_map_across_the_change_of_shape() {
        let mut attrs: Attrs<String> = Attrs::new();
        let mut model = std::collections::BTreeMap::new();
        // A fixed pseudo-random order of keys, some inserted twice.
        for step in 0..60u32 {
            let k = format!("k{}", (step * 37) % 41);
            let v = format!("v{step}");
            let replaced = attrs.insert(key(&k), v.clone());
            let expected = model.insert(k.clone(), v);
            assert_eq!(replaced.is_some(), expected.is_some(), "{k}");
            if step % 7 == 3 {
                let gone = format!("k{}", (step * 11) % 41);
                assert_eq!(attrs.remove(&gone).is_some(), model.remove(&gone).is_some());
            }
            let got: Vec<String> = attrs.keys().map(|k| k.to_string()).collect();
            let want: Vec<String> = model.keys().cloned().collect();
            assert_eq!(got, want);
            assert_eq!(attrs.len(), model.len());
            for (k, v) in &model {
                assert_eq!(attrs.get(k), Some(v), "{k}");
            }
            assert!(attrs.get("absent").is_none());
        }
        assert!(matches!(attrs.0, Shape::Persistent(_)), "past {SMALL} entries the map is persistent");
    }

    #[test]
    fn collecting_keeps_the_last_of_equal_keys_in_either_shape() {
        for n in [3usize, 40] {
            let entries = (0..n).flat_map(|i| {
                let k = format!("k{:02}", (i * 7) % n);
                [(key(&k), "first".to_string()), (key(&k), format!("last{i}"))]
            });
            let attrs: Attrs<String> = entries.collect();
            assert_eq!(attrs.len(), n);
            let keys: Vec<&SmolStr> = attrs.keys().collect();
            assert!(keys.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
            assert!(attrs.values().all(|v| v != "first"), "the later value wins");
            assert_eq!(attrs.iter().rev().count(), n);
        }
    }

    /// Entries in order are appended; an entry out of order or a duplicate is handled like an insert, and the
    /// result is the same map whichever order the keys came in.
    #[test]
    fn the_builder_refuses_duplicates_and_accepts_any_order() {
        for keys in [(0..40).collect::<Vec<u32>>(), (0..40).rev().collect(), (0..40).map(|i| (i * 13) % 40).collect()] {
            let mut builder = SortedBuilder::new();
            for k in &keys {
                assert!(builder.insert_new(key(&format!("k{k:02}")), k.to_string()).is_ok());
            }
            let again = builder.insert_new(key("k07"), "again".to_string());
            assert_eq!(again.map_err(|(k, _)| k.to_string()), Err("k07".to_string()), "a duplicate is refused");
            let attrs = builder.finish();
            let got: Vec<String> = attrs.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let want: Vec<String> = (0..40).map(|i| format!("k{i:02}={i}")).collect();
            assert_eq!(got, want);
        }
    }
}
