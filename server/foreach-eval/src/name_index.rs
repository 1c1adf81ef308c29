//! Declarations found by name without copying the names: a hash table of positions in the declaration list,
//! hashed by the name at each position.
//!
//! A module scope is built for every instance after every change; with a map keyed by `String`, a generated
//! module of 6,000 variables copied (and later freed) 6,000 names per keystroke just to index them.

use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;

pub struct NameIndex(hashbrown::HashTable<usize>);

fn hash(name: &str) -> u64 {
    FxBuildHasher.hash_one(name)
}

impl NameIndex {
    /// Indexes `names` by position; of equal names the later one is found.
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> NameIndex {
        let all: Vec<&str> = names.into_iter().collect();
        let mut table = hashbrown::HashTable::with_capacity(all.len());
        for (i, name) in all.iter().enumerate() {
            match table.entry(hash(name), |&j: &usize| all[j] == *name, |&j: &usize| hash(all[j])) {
                hashbrown::hash_table::Entry::Occupied(mut e) => *e.get_mut() = i,
                hashbrown::hash_table::Entry::Vacant(e) => {
                    e.insert(i);
                }
            }
        }
        NameIndex(table)
    }

    /// The position of `name`; `name_at` gives the name at a position of the list this index was built from.
    pub fn get<'a>(&self, name: &str, name_at: impl Fn(usize) -> &'a str) -> Option<usize> {
        self.0.find(hash(name), |&i| name_at(i) == name).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::NameIndex;

    #[test]
    fn finds_each_name_and_the_later_of_equal_ones() {
        let names: Vec<String> = (0..500).map(|i| format!("name_{}", i % 400)).collect();
        let index = NameIndex::new(names.iter().map(String::as_str));
        let at = |i: usize| names[i].as_str();
        for i in 0..400 {
            let expected = if i < 100 { i + 400 } else { i };
            assert_eq!(index.get(&format!("name_{i}"), at), Some(expected));
        }
        assert_eq!(index.get("name_400", at), None);
        assert_eq!(index.get("", at), None);
    }
}
