//! The compiler's own error codes (`NCC_…`) and assertion texts, tied to birlink's.
//!
//! A compiler engineer arrives with a line of neuronx-cc's log, not a link set. Each
//! entry here is a public error shape (quoted in `docs/spec/sources.md`, "Public
//! failures") with the birlink code that reports the same failure, or none when the
//! failure is outside the three passes birlink reimplements (then the entry says where
//! it is). `birlink explain NCC_ILLC059` and the log reader (`crate::tools::log`) use it;
//! `docs/diagnostics.md` prints it as a table.

use super::codes::Code;

/// One public error shape of the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ncc {
    /// The compiler's code without `NCC_` (`ILLC059`), or the assertion it prints.
    pub code: &'static str,
    /// The message, verbatim, with `{…}` for what varies.
    pub shape: &'static str,
    /// The compiler pass that raises it, and on what scope (from the compiler's logs,
    /// log spec §3; `birlink explain --log` reads it from a log).
    pub pass: &'static str,
    /// birlink's code for the same failure, if birlink reproduces it.
    pub birlink: Option<Code>,
    /// How the two relate (one sentence).
    pub note: &'static str,
}

/// Every shape birlink knows, in documentation order.
pub const TABLE: &[Ncc] = &[
    Ncc {
        code: "ILLC059",
        shape: "[NCC_ILLC059] Could not find MemoryLocation named {name} on core {core}",
        pass: "lower_local_collectives, per subgraph across the cores, before bir_linker",
        birlink: Some(Code::LocalCollectiveNameMissing),
        note: "a local collective on one core names a memory location the other core's module of the same subgraph does not have (`lower_local_collectives.cpp:78: Assertion failure: memlocOnOtherCore != nullptr`); `vnc_remote_addr_map` repeats a look-up by name after the link (birlink's 1514), too late for such a compile; usually an NKI kernel launched without its LNC grid",
    },
    Ncc {
        code: "IXLV002",
        shape: "[NCC_IXLV002] Expected core barriers to have name {name}, but core barrier {index} in subgraph {subgraph} on core {core} has name {other}",
        pass: "lnc_verifier, per subgraph across the cores, before bir_linker",
        birlink: Some(Code::BarrierNameMismatch),
        note: "the LncVerifier's barrier-name check: the i-th CoreBarrier of a core is not named as core 0's; the compiler stops, birlink warns and links (spec §2), and the Barriers view aligns them",
    },
    Ncc {
        code: "remote_mloc != nullptr",
        shape: "Assertion `remote_mloc != nullptr` failed",
        pass: "vnc_remote_addr_map, across the per-core modules, after bir_linker",
        birlink: Some(Code::RemoteMemlocMissing),
        note: "the assertion of `vnc_remote_addr_map` behind 1514",
    },
    Ncc {
        code: "allEqual",
        shape: "Assertion `allEqual` failed",
        pass: "vnc_link, across the per-core modules",
        birlink: Some(Code::RemoteBlockCountMismatch),
        note: "`vnc_link`'s check that every core collects as many remote-notifying DMA blocks",
    },
    Ncc {
        code: "modules.size() == options.vnc_nc_count",
        shape: "Assertion `modules.size() == options.vnc_nc_count` failed",
        pass: "vnc_remote_addr_map and vnc_link, across the per-core modules",
        birlink: Some(Code::VncAddrMapCoreCount),
        note: "the VNC passes' core count check: 1513 in `vnc_remote_addr_map` (1509 when `vnc_link` runs alone)",
    },
    Ncc {
        code: "ILNK020",
        shape: "[NCC_ILNK020] tensor_map verification failed after linking",
        pass: "bir_linker, per core",
        birlink: Some(Code::TensorMapStale),
        note: "the linker's `verifyTensorMap` after the merge of the cores' tensor maps; its checks are not public, and birlink's reading of them, on a work directory's `tensor_map.json` files, is BL0310 (an entry naming no tensor), BL0312 (one memory laid out twice) and BL0313 (an input or output without an entry), warnings",
    },
    Ncc {
        code: "INLA001",
        shape: "[NCC_INLA001] BIR verification failed: {what}",
        pass: "birverifier, per module",
        birlink: None,
        note: "BIR verification of one core's module, before any link: not a link failure",
    },
    Ncc {
        code: "IBIR440",
        shape: "[NCC_IBIR440] DRAM allocation failure",
        pass: "the DRAM allocators, per module, before any link",
        birlink: None,
        note: "DRAM allocation of one core's module (often a collective buffer without a name), before any link",
    },
];

/// Looks a compiler code up, in any case, with or without `NCC_` (`ncc_illc059`,
/// `ILLC059`), or by its assertion text.
pub fn find(code: &str) -> Option<&'static Ncc> {
    let trimmed = code.trim().trim_matches(['[', ']']);
    let bare = trimmed.get(..4).filter(|p| p.eq_ignore_ascii_case("NCC_")).map_or(trimmed, |_| &trimmed[4..]);
    TABLE.iter().find(|n| n.code.eq_ignore_ascii_case(bare))
}

impl Code {
    /// The compiler's `NCC_` code for the same failure, where one is public
    /// (`NCC_ILLC059` for BL0207): printed beside birlink's.
    pub fn ncc(self) -> Option<&'static str> {
        match self {
            Code::LocalCollectiveNameMissing => Some("NCC_ILLC059"),
            Code::BarrierNameMismatch => Some("NCC_IXLV002"),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_found_in_any_spelling() {
        for spelling in ["NCC_ILLC059", "ncc_illc059", "ILLC059", "illc059", "[NCC_ILLC059]"] {
            assert_eq!(find(spelling).and_then(|n| n.birlink), Some(Code::LocalCollectiveNameMissing), "{spelling}");
        }
        assert_eq!(find("IXLV002").and_then(|n| n.birlink), Some(Code::BarrierNameMismatch));
        assert_eq!(find("allEqual").and_then(|n| n.birlink), Some(Code::RemoteBlockCountMismatch));
        assert_eq!(find("ILNK020").and_then(|n| n.birlink), Some(Code::TensorMapStale));
        assert!(find("INLA001").is_some_and(|n| n.birlink.is_none()));
        assert_eq!(find("NCC_NOPE1"), None);
    }

    #[test]
    fn every_ncc_code_of_a_birlink_code_is_in_the_table() {
        for &code in Code::ALL {
            if let Some(ncc) = code.ncc() {
                assert_eq!(find(ncc).and_then(|n| n.birlink), Some(code), "{ncc}");
            }
        }
    }
}
