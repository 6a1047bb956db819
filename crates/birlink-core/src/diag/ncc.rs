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
    /// What it means and how the two relate (one sentence).
    pub note: &'static str,
    /// What to do, as Neuron's error-code pages say it: the change in the user's kernel,
    /// model, flags or machine.
    pub fix: &'static str,
}

/// Every shape birlink knows, in documentation order.
pub const TABLE: &[Ncc] = &[
    Ncc {
        code: "ILLC059",
        shape: "[NCC_ILLC059] Could not find MemoryLocation named {name} on core {core}",
        pass: "lower_local_collectives, per subgraph across the cores, before bir_linker",
        birlink: Some(Code::LocalCollectiveNameMissing),
        note: "the commonest public cause is a kernel traced for one core and compiled for two — `wrap_nki(kernel[lnc])` where `wrap_nki(kernel)[lnc]` was meant: silent at LNC=1, and at LNC=2 core 1 lacks a name of the form `inst__I-<n>-0:<buf>`; in general a local collective on one core names a memory location the other core's module of the same subgraph does not have (`lower_local_collectives.cpp:78: Assertion failure: memlocOnOtherCore != nullptr`); `vnc_remote_addr_map` repeats a look-up by name after the link (birlink's 1514), too late for such a compile",
        fix: "launch the NKI kernel on its LNC grid (`wrap_nki(kernel)[lnc]`, not `wrap_nki(kernel[lnc])`) so every core traces the same buffers; otherwise give the collective's buffers the same names on every core (`name=` on its `nl.ndarray`s)",
    },
    Ncc {
        code: "IXLV002",
        shape: "[NCC_IXLV002] Expected core barriers to have name {name}, but core barrier {index} in subgraph {subgraph} on core {core} has name {other}",
        pass: "lnc_verifier, per subgraph across the cores, before bir_linker",
        birlink: Some(Code::BarrierNameMismatch),
        note: "the LncVerifier's barrier-name check: a CoreBarrier's name carries the id of the instruction before it, so the names part when the cores' instruction counts before the barrier part (a drift of ~385 instructions over 64 layers was one public case); the compiler stops, birlink warns and links (spec §2), the Barriers view aligns them and the sync check counts the instructions that came in (BL0702)",
        fix: "make the cores issue the same instructions before each barrier: the same control flow and the same work per core (a sendrecv called twice in one traced graph is a known cause); AWS's own inference code works around it with a grid of 1, at a cost in throughput",
    },
    Ncc {
        code: "IXGM002",
        shape: "[NCC_IXGM002] Expected function {function} in subgraph {subgraph} to have {n} basic blocks, but on core {core} it has {m} basic blocks",
        pass: "the LNC verifier, per subgraph across the cores (2.27)",
        birlink: Some(Code::SyncBlocks),
        note: "a function's control flow differs per core: a loop whose trip count is a per-core value (`nl.fori_loop`, `nl.while_loop`, `nl.dynamic_range`) lowers to basic blocks on one core and not the other; the same rule as the LNC verifier's \"same number of basic blocks per function on every core\", under its own code",
        fix: "give every core the same loop bounds (a static trip count, or the same dynamic value on every core); a per-core amount of work goes in the loop body, not its bounds",
    },
    Ncc {
        code: "IBIR297",
        shape: "[NCC_IBIR297] bir::samePartitionsAll",
        pass: "ModuleForkPass, per module",
        birlink: None,
        note: "a check that every module of a fork has the same partitions, failed on an MLA and 256-expert MoE decode graph; the maintainers confirmed a compiler issue with no workaround",
        fix: "report it with the model and the compiler version (the maintainers track it as a compiler issue); a smaller expert count or another parallel layout may avoid the shape",
    },
    Ncc {
        code: "remote_mloc != nullptr",
        shape: "Assertion `remote_mloc != nullptr` failed",
        pass: "vnc_remote_addr_map, across the per-core modules, after bir_linker",
        birlink: Some(Code::RemoteMemlocMissing),
        note: "the assertion of `vnc_remote_addr_map` behind 1514",
        fix: "make every core's remote view name a memory location its owner core has (`birlink link` says which one is missing, BL1514)",
    },
    Ncc {
        code: "allEqual",
        shape: "Assertion `allEqual` failed",
        pass: "vnc_link, across the per-core modules",
        birlink: Some(Code::RemoteBlockCountMismatch),
        note: "`vnc_link`'s check that every core collects as many remote-notifying DMA blocks",
        fix: "make the cores issue the same remote-notifying DMA blocks: the same collectives, in the same order, on every core",
    },
    Ncc {
        code: "modules.size() == options.vnc_nc_count",
        shape: "Assertion `modules.size() == options.vnc_nc_count` failed",
        pass: "vnc_remote_addr_map and vnc_link, across the per-core modules",
        birlink: Some(Code::VncAddrMapCoreCount),
        note: "the VNC passes' core count check: 1513 in `vnc_remote_addr_map` (1509 when `vnc_link` runs alone)",
        fix: "give the link one module per logical core (`--lnc` and the modules' `neuron_core_id`s agree)",
    },
    Ncc {
        code: "ILNK020",
        shape: "[NCC_ILNK020] tensor_map verification failed after linking",
        pass: "bir_linker, per core",
        birlink: Some(Code::TensorMapStale),
        note: "the linker's `verifyTensorMap` after the merge of the cores' tensor maps; its checks are not public, and birlink's reading of them, on a work directory's `tensor_map.json` files, is BL0310 (an entry naming no tensor), BL0312 (one memory laid out twice) and BL0313 (an input or output without an entry), warnings",
        fix: "open the work directory in birlink: the tensor-map entry that names no tensor, or the memory laid out twice, is the one to change (usually a stale tensor map left by an earlier compile in the same directory: compile into a clean one)",
    },
    Ncc {
        code: "INLA001",
        shape: "[NCC_INLA001] BIR verification failed: {what}",
        pass: "birverifier, per module",
        birlink: None,
        note: "BIR verification of one core's module, before any link: not a link failure",
        fix: "the message names what BIR verification rejected; it is in one core's module, before any link, so look at the kernel or the pass that produced it",
    },
    Ncc {
        code: "IBIR440",
        shape: "[NCC_IBIR440] Expect all DRAM memory locations to be allocated after dram_allocator, violation: {name}",
        pass: "the DRAM allocators, per module, before any link",
        birlink: None,
        note: "DRAM allocation of one core's module: the set it names was never given an address (`inst_visitor.cpp: Assertion failure: mem.isAllocated() && memIsValid`), often a collective's buffer without a name; per-core set names differ by their numeric suffix",
        fix: "give the collective's source and destination `nl.ndarray`s a `name=`, so each core allocates the same buffer",
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
            Code::SyncBlocks => Some("NCC_IXGM002"),
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
