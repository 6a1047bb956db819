//! Two lines compared word by word: what `birlink diff` and the page both mark, so the
//! same words are marked in both (the first divergence, a changed entity, a pass step's
//! before and after).
//!
//! The words are `similar`'s (runs of non-space and of space). A run of changed words
//! and the spaces between them is one change, marked once: `CoreBarrier a id=3` against
//! `CoreBarrier b id=3` is `CoreBarrier ` then `a`/`b` then ` id=3`, and `x = A[DMA] q=1
//! out` against `x = B[SP] id=0 out` changes `A[DMA] q=1` into `B[SP] id=0` as one.
//! Renderers only map the pieces: [`marked`] writes them as `git diff --word-diff` does
//! (`[-old-]{+new+}`); the page draws A's line with `<del>` and B's with `<ins>`.

use similar::{ChangeTag, TextDiff};

/// One piece of a compared pair of lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text both lines have here.
    Same(String),
    /// Text that differs: A's and B's (either may be empty).
    Changed {
        /// A's text.
        a: String,
        /// B's text.
        b: String,
    },
}

/// The pieces of `a` against `b`, in order; adjacent pieces of one kind are one.
pub fn word_diff(a: &str, b: &str) -> Vec<Piece> {
    let diff = TextDiff::from_words(a, b);
    let mut pieces: Vec<Piece> = Vec::new();
    let (mut del, mut ins, mut gap) = (String::new(), String::new(), String::new());
    let same = |pieces: &mut Vec<Piece>, text: &str| {
        if text.is_empty() {
            return;
        }
        match pieces.last_mut() {
            Some(Piece::Same(last)) => last.push_str(text),
            _ => pieces.push(Piece::Same(text.to_owned())),
        }
    };
    let changed = |pieces: &mut Vec<Piece>, del: &mut String, ins: &mut String| {
        if !del.is_empty() || !ins.is_empty() {
            pieces.push(Piece::Changed { a: std::mem::take(del), b: std::mem::take(ins) });
        }
    };
    for change in diff.iter_all_changes() {
        let value = change.value();
        match change.tag() {
            // Spaces after a change wait: the next word says whether they are inside it.
            ChangeTag::Equal if value.trim().is_empty() && !(del.is_empty() && ins.is_empty()) => gap.push_str(value),
            ChangeTag::Equal => {
                changed(&mut pieces, &mut del, &mut ins);
                same(&mut pieces, &gap);
                gap.clear();
                same(&mut pieces, value);
            }
            tag => {
                // Spaces inside a run of changes belong to both sides of it.
                if !gap.is_empty() {
                    if !del.is_empty() {
                        del.push_str(&gap);
                    }
                    if !ins.is_empty() {
                        ins.push_str(&gap);
                    }
                    gap.clear();
                }
                if tag == ChangeTag::Delete {
                    del.push_str(value);
                } else {
                    ins.push_str(value);
                }
            }
        }
    }
    changed(&mut pieces, &mut del, &mut ins);
    same(&mut pieces, &gap);
    pieces
}

/// The pieces as one line, marked as `git diff --word-diff` marks them: `[-old-]{+new+}`.
pub fn marked(pieces: &[Piece]) -> String {
    let mut out = String::new();
    for piece in pieces {
        match piece {
            Piece::Same(text) => out.push_str(text),
            Piece::Changed { a, b } => {
                if !a.is_empty() {
                    out.push_str("[-");
                    out.push_str(a);
                    out.push_str("-]");
                }
                if !b.is_empty() {
                    out.push_str("{+");
                    out.push_str(b);
                    out.push_str("+}");
                }
            }
        }
    }
    out
}

/// One side's line from the pieces: its own text, each piece with whether it changed.
pub fn side(pieces: &[Piece], b: bool) -> Vec<(bool, &str)> {
    pieces
        .iter()
        .filter_map(|piece| match piece {
            Piece::Same(text) => Some((false, text.as_str())),
            Piece::Changed { a, b: text_b } => {
                let text = if b { text_b } else { a };
                (!text.is_empty()).then_some((true, text.as_str()))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_changes_and_the_spaces_in_it_is_marked_once() {
        let mark = |a: &str, b: &str| marked(&word_diff(a, b));
        assert_eq!(mark("CoreBarrier a id=3", "CoreBarrier b id=3"), "CoreBarrier [-a-]{+b+} id=3");
        assert_eq!(mark("x = A[DMA] q=1 out", "x = B[SP] id=0 out"), "x = [-A[DMA] q=1-]{+B[SP] id=0+} out");
        assert_eq!(mark("same line", "same line"), "same line");
        assert_eq!(mark("a b", "a"), "a[- b-]");
        assert_eq!(mark("", "new"), "{+new+}");
    }

    #[test]
    fn each_side_reads_back_as_its_own_line() {
        for (a, b) in [
            ("x = A[DMA] q=1 out", "x = B[SP] id=0 out"),
            ("CoreBarrier a id=3", "CoreBarrier b id=3"),
            ("one two  three", "one  three four"),
            ("", "only b"),
        ] {
            let pieces = word_diff(a, b);
            let line = |b: bool| side(&pieces, b).into_iter().map(|(_, t)| t).collect::<String>();
            assert_eq!((line(false), line(true)), (a.to_owned(), b.to_owned()));
            // What is marked on A's side is what the CLI strikes out.
            let struck: Vec<&str> = side(&pieces, false).into_iter().filter(|(c, _)| *c).map(|(_, t)| t).collect();
            let marked = marked(&pieces);
            for word in struck {
                assert!(marked.contains(&format!("[-{word}-]")), "{marked}");
            }
        }
    }
}
