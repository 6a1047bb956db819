//! The two link sets a page can hold: the one its views show (A) and the one it is
//! compared against (B). One [`Side`] names either; [`Sides`] holds one thing per side,
//! indexed by it, so that each rule about a link set is written once and applies to
//! both, and swapping them is a swap.

use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// Which of the two link sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// The link set the views show (A).
    #[default]
    Shown,
    /// The link set it is compared against (B).
    Against,
}

impl Side {
    /// Both sides, A first.
    pub const BOTH: [Side; 2] = [Side::Shown, Side::Against];

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Shown => Side::Against,
            Side::Against => Side::Shown,
        }
    }

    /// Its letter in the Compare view: `A` or `B`.
    pub fn letter(self) -> &'static str {
        match self {
            Side::Shown => "A",
            Side::Against => "B",
        }
    }

    /// How notices name it: `the link set`, `the link set compared against`.
    pub fn noun(self) -> &'static str {
        match self {
            Side::Shown => "the link set",
            Side::Against => "the link set compared against",
        }
    }

    /// Its name on the wire of a host's messages: `shown`, `against` (embed spec §4.1).
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Shown => "shown",
            Side::Against => "against",
        }
    }

    /// The prefix of the element ids of its controls (`""`, `"against-"`): the header's
    /// picker is `#samples`, the Compare panel's `#against-samples`.
    pub fn id_prefix(self) -> &'static str {
        match self {
            Side::Shown => "",
            Side::Against => "against-",
        }
    }

    fn index(self) -> usize {
        match self {
            Side::Shown => 0,
            Side::Against => 1,
        }
    }
}

/// One `T` per side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sides<T>([T; 2]);

impl<T> Sides<T> {
    /// A's and B's.
    pub fn new(shown: T, against: T) -> Self {
        Sides([shown, against])
    }

    /// A becomes B and B becomes A.
    pub fn swap(&mut self) {
        self.0.swap(0, 1);
    }

    /// Each side with its own, A first.
    pub fn iter(&self) -> impl Iterator<Item = (Side, &T)> {
        Side::BOTH.into_iter().zip(self.0.iter())
    }
}

impl<T> Index<Side> for Sides<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        &self.0[side.index()]
    }
}

impl<T> IndexMut<Side> for Sides<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        &mut self.0[side.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_indexes_its_own_and_a_swap_exchanges_them() {
        let mut sides = Sides::new("a", "b");
        assert_eq!((sides[Side::Shown], sides[Side::Against]), ("a", "b"));
        sides[Side::Against] = "c";
        sides.swap();
        assert_eq!(sides.iter().collect::<Vec<_>>(), vec![(Side::Shown, &"c"), (Side::Against, &"a")]);
        assert_eq!(Side::Shown.other(), Side::Against);
        assert_eq!(Side::Against.other().other(), Side::Against);
    }
}
