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
        // An arena never nears `u32::MAX` entities: inputs are bounded (3.6 GB held in the
        // browser), and every entity takes several bytes of JSON.
        debug_assert!(u32::try_from(index).is_ok(), "an arena of more than u32::MAX entities");
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
///
/// The entities are kept in chunks of [`CHUNK`] (each grown like a `Vec` until full),
/// not in one vector: a million instructions never need one contiguous block that
/// doubles (and is briefly held twice) as it grows, and appending one arena to another
/// (`bir_linker` moving N modules into one) frees each chunk as soon as it is moved, so
/// no entity is ever held twice. In wasm, where memory never shrinks, that is the
/// difference between holding the instructions once and holding them three times.
#[derive(Clone, Debug)]
pub struct Arena<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

/// log2 of the entities per chunk.
const CHUNK_BITS: u32 = 12;
/// Entities per chunk.
pub const CHUNK: usize = 1 << CHUNK_BITS;

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { chunks: Vec::new(), len: 0 }
    }
}

impl<T> Arena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an entity and returns its handle.
    pub fn push(&mut self, item: T) -> Handle<T> {
        let handle = Handle::new(self.len);
        match self.chunks.last_mut() {
            Some(chunk) if chunk.len() < CHUNK => chunk.push(item),
            _ => self.chunks.push(vec![item]),
        }
        self.len += 1;
        handle
    }

    /// The handle the next `push` will return.
    pub fn next_handle(&self) -> Handle<T> {
        Handle::new(self.len)
    }

    /// Number of entities.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the arena holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Iterates `(handle, entity)` in storage order.
    pub fn iter(&self) -> impl Iterator<Item = (Handle<T>, &T)> {
        self.chunks.iter().flatten().enumerate().map(|(i, item)| (Handle::new(i), item))
    }

    /// Each entity, to change it, in storage order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.chunks.iter_mut().flatten()
    }

    /// Gives back the last chunk's spare capacity.
    pub fn shrink_to_fit(&mut self) {
        if let Some(chunk) = self.chunks.last_mut() {
            chunk.shrink_to_fit();
        }
    }

    /// Moves every entity of `other` into `self` and returns the old → new map. Each of
    /// `other`'s chunks is freed once moved.
    pub fn append(&mut self, other: Arena<T>) -> HandleMap<T> {
        let offset = self.len;
        let n = other.len;
        for chunk in other.chunks {
            for item in chunk {
                self.push(item);
            }
        }
        HandleMap { new: (0..n).map(|i| Handle::new(offset + i)).collect() }
    }

    fn slot(handle: Handle<T>) -> (usize, usize) {
        let index = handle.index();
        (index >> CHUNK_BITS, index & (CHUNK - 1))
    }
}

impl<T> std::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    fn index(&self, handle: Handle<T>) -> &T {
        let (chunk, at) = Self::slot(handle);
        &self.chunks[chunk][at]
    }
}

impl<T> std::ops::IndexMut<Handle<T>> for Arena<T> {
    fn index_mut(&mut self, handle: Handle<T>) -> &mut T {
        let (chunk, at) = Self::slot(handle);
        &mut self.chunks[chunk][at]
    }
}

/// An explicit old → new handle map, produced when one arena is moved into another.
#[derive(Clone, Debug)]
pub struct HandleMap<T> {
    new: Vec<Handle<T>>,
}

impl<T> HandleMap<T> {
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
    fn entities_cross_chunks_in_order() {
        let mut a: Arena<usize> = Arena::new();
        let handles: Vec<Handle<usize>> = (0..3 * CHUNK + 5).map(|i| a.push(i)).collect();
        assert_eq!(a.len(), 3 * CHUNK + 5);
        for (i, &h) in handles.iter().enumerate() {
            assert_eq!(a[h], i);
        }
        assert!(a.iter().all(|(h, &v)| h.index() == v));
        // Appending across a partly filled chunk keeps every entity where its map says.
        let mut b: Arena<usize> = Arena::new();
        let bh: Vec<Handle<usize>> = (0..CHUNK + 7).map(|i| b.push(10_000_000 + i)).collect();
        let map = a.append(b);
        assert_eq!(a.len(), 4 * CHUNK + 12);
        for (i, &h) in bh.iter().enumerate() {
            assert_eq!(a[map.get(h)], 10_000_000 + i);
        }
        a[handles[7]] = 70;
        assert_eq!(a[handles[7]], 70);
    }

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
