//! What inspects or transforms a finished run, for the viewers, the CLI and the tests:
//! queries of entities and units ([`query`]), the aligned views ([`align`]), two link
//! sets compared ([`compare`]), a
//! compiler log's findings located ([`log`]), minimal repros ([`reduce`]), links and
//! bundles that carry a link set ([`share`]), and the invariants every run keeps
//! ([`selfcheck`]).

pub mod align;
pub mod compare;
pub mod history;
pub mod log;
pub mod query;
pub mod reduce;
pub mod selfcheck;
pub mod share;
