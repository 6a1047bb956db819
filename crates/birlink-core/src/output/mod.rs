//! What a run produces: `report.json`'s types ([`report`]), `linked.json` ([`json`]),
//! birlink's own `bir_linker.log` ([`log`]),
//! the canonical text every diff is made of ([`print`]), and any document printed in
//! another layout ([`layout`]), and the merged `tensor-map.json` ([`tensor_map`]).

pub mod json;
pub mod layout;
pub mod log;
pub mod print;
pub mod report;
pub mod sync;
pub mod tensor_map;
