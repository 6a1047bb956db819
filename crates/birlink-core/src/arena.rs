//! Typed arenas: `Arena<T>` stores entities, `Handle<T>` names one, `HandleMap<T>` remaps.
//!
//! The IR never uses raw indices or pointers between entities: a block holds
//! `Handle<Inst>`s, a function `Handle<Block>`s. When `bir_linker` moves N per-core
//! modules into one, every handle of core `c` is rewritten through that core's
//! explicit `HandleMap` (old handle → new handle), in the style of naga's `compact`.
//!
//! Invariant: a handle is only ever used with the arena that issued it, or with the
//! arena it was remapped into through a `HandleMap`.

use std::fmt;
use std::marker::PhantomData;

/// An index into an [`Arena<T>`]; `Copy`, 4 bytes, typed so handles of different
/// entity kinds cannot be mixed up.
pub struct Handle<T> {
    index: u32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    fn new(index: usize) -> Self {
        // An arena never nears `u32::MAX` entities: inputs are bounded by
        // `limits::MAX_INPUT_BYTES`, and every entity takes several bytes of JSON.
        Handle { index: index as u32, marker: PhantomData }
    }

    /// The position of this entity in its arena.
    pub fn index(self) -> usize {
        self.index as usize
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}
impl<T> Eq for Handle<T> {}
impl<T> PartialOrd for Handle<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Handle<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.index.cmp(&other.index)
    }
}
impl<T> std::hash::Hash for Handle<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.index.hash(state)
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.index)
    }
}

/// Storage for entities of one kind, addressed by [`Handle<T>`].
///
/// Entities are never removed; order of insertion is storage order, not program
/// order (program order lives in the containers that hold handles).
#[derive(Clone, Debug)]
pub struct Arena<T> {
    items: Vec<T>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { items: Vec::new() }
    }
}

impl<T> Arena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an entity and returns its handle.
    pub fn push(&mut self, item: T) -> Handle<T> {
        let handle = Handle::new(self.items.len());
        self.items.push(item);
        handle
    }

    /// The handle the next `push` will return.
    pub fn next_handle(&self) -> Handle<T> {
        Handle::new(self.items.len())
    }

    /// Number of entities.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the arena holds nothing.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Iterates `(handle, entity)` in storage order.
    pub fn iter(&self) -> impl Iterator<Item = (Handle<T>, &T)> {
        self.items.iter().enumerate().map(|(i, item)| (Handle::new(i), item))
    }

    /// Makes room for exactly `additional` more entities.
    pub fn reserve_exact(&mut self, additional: usize) {
        self.items.reserve_exact(additional);
    }

    /// Gives back spare capacity.
    pub fn shrink_to_fit(&mut self) {
        self.items.shrink_to_fit();
    }

    /// Moves every entity of `other` into `self` and returns the old → new map.
    pub fn append(&mut self, other: Arena<T>) -> HandleMap<T> {
        let offset = self.items.len();
        let n = other.items.len();
        self.items.extend(other.items);
        HandleMap { new: (0..n).map(|i| Handle::new(offset + i)).collect() }
    }
}

impl<T> std::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    fn index(&self, handle: Handle<T>) -> &T {
        &self.items[handle.index()]
    }
}

impl<T> std::ops::IndexMut<Handle<T>> for Arena<T> {
    fn index_mut(&mut self, handle: Handle<T>) -> &mut T {
        &mut self.items[handle.index()]
    }
}

/// An explicit old → new handle map, produced when one arena is moved into another.
#[derive(Clone, Debug)]
pub struct HandleMap<T> {
    new: Vec<Handle<T>>,
}

impl<T> HandleMap<T> {
    /// The map of `len` entities that stay where they are.
    pub fn identity(len: usize) -> HandleMap<T> {
        HandleMap { new: (0..len).map(Handle::new).collect() }
    }

    /// The new handle of an old one.
    pub fn get(&self, old: Handle<T>) -> Handle<T> {
        self.new[old.index()]
    }

    /// Rewrites `handle` in place.
    pub fn adjust(&self, handle: &mut Handle<T>) {
        *handle = self.get(*handle);
    }

    /// The new handles, in the old order.
    pub fn new_handles(&self) -> impl Iterator<Item = Handle<T>> + '_ {
        self.new.iter().copied()
    }

    /// Rewrites every handle of a list in place.
    pub fn adjust_all(&self, handles: &mut [Handle<T>]) {
        for handle in handles {
            self.adjust(handle);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn append_remaps_by_offset() {
        let mut a: Arena<&str> = Arena::new();
        a.push("x");
        let mut b: Arena<&str> = Arena::new();
        let y = b.push("y");
        let z = b.push("z");
        let map = a.append(b);
        assert_eq!(a[map.get(y)], "y");
        assert_eq!(a[map.get(z)], "z");
        assert_eq!(map.get(z).index(), 2);
    }
}
