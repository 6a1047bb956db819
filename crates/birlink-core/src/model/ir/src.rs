//! Where an entity came from ([`Src`]: a file and a JSON pointer, a container's path
//! shared by its elements), so diagnostics raised after linking still point into the
//! user's file.

use std::borrow::Cow;
use std::sync::Arc;

/// A file's text, shared by its `input::FileEntry` and the instructions kept as spans
/// of it (see [`Inst`]).
pub type FileText = Arc<String>;

/// Index of an input file in a link set (see `input::LinkSet::files`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// Where an input entity came from: its file and the JSON pointer of its object there.
///
/// 16 bytes (a test keeps it there): every instruction holds one.
#[derive(Clone, Debug)]
pub struct Src(Pointer);

/// A JSON pointer and its file: the pointer's text, or the `index`-th element of a
/// container whose place all its elements share. An instruction of a compact dump is the
/// latter, so a million of them hold no pointer text of their own.
#[derive(Clone, Debug)]
enum Pointer {
    Text(Box<(FileId, Box<str>)>),
    Element(Container, u32),
}

/// The place of a container (a block's `instructions`, say) that its elements' sources
/// share: made once per container, counted by each element's [`Src`].
#[derive(Clone, Debug)]
pub struct Container(Arc<(FileId, Box<str>)>);

impl Container {
    /// The container at `pointer` in `file`.
    pub fn new(file: FileId, pointer: impl Into<Box<str>>) -> Container {
        Container(Arc::new((file, pointer.into())))
    }

    /// Its pointer.
    pub fn pointer(&self) -> &str {
        &self.0 .1
    }
}

impl std::fmt::Display for Container {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.pointer())
    }
}

impl Src {
    /// A source at `pointer` in `file`.
    pub fn new(file: FileId, pointer: impl Into<Box<str>>) -> Src {
        Src(Pointer::Text(Box::new((file, pointer.into()))))
    }

    /// The `index`-th element of `container`.
    pub fn element(container: &Container, index: usize) -> Src {
        match u32::try_from(index) {
            Ok(index) => Src(Pointer::Element(container.clone(), index)),
            Err(_) => Src::new(container.0 .0, format!("{}/{index}", container.pointer())),
        }
    }

    /// The input file.
    pub fn file(&self) -> FileId {
        match &self.0 {
            Pointer::Text(text) => text.0,
            Pointer::Element(container, _) => container.0 .0,
        }
    }

    /// The RFC 6901 pointer.
    pub fn pointer(&self) -> Cow<'_, str> {
        match &self.0 {
            Pointer::Text(text) => Cow::Borrowed(&text.1),
            Pointer::Element(container, index) => Cow::Owned(format!("{}/{index}", container.pointer())),
        }
    }
}

impl PartialEq for Src {
    fn eq(&self, other: &Src) -> bool {
        if self.file() != other.file() {
            return false;
        }
        match (&self.0, &other.0) {
            (Pointer::Text(a), Pointer::Text(b)) => a.1 == b.1,
            (Pointer::Element(a, i), Pointer::Element(b, j)) => {
                i == j && (Arc::ptr_eq(&a.0, &b.0) || a.pointer() == b.pointer())
            }
            // The same pointer written both ways (rare): compare the text.
            _ => self.pointer() == other.pointer(),
        }
    }
}

impl Eq for Src {}

/// Escapes one RFC 6901 pointer segment.
pub fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}
