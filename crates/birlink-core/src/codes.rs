//! The registry of diagnostic codes: every code, its severity, pass, meaning and fix.
//!
//! Codes are stable and never reused. Numeric codes are the compiler's own (the
//! LncVerifier checks 1187–1203 and the VNC `ErrorCode`s 1509–1514 from the seeds);
//! `BLxxxx` codes are birlink's: `BL00xx` reading input, `BL01xx` module identity,
//! `BL02xx` references inside a module, `BL03xx` bir_linker, `BL04xx` the VNC passes.
//! `docs/diagnostics.md` is generated from this file (`birlink explain --markdown`) and a
//! test keeps the two equal.

use crate::diag::Severity;

/// A diagnostic code. Matched exhaustively wherever codes are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// BL0001
    UnreadableFile,
    /// BL0002
    InvalidJson,
    /// BL0003
    WrongType,
    /// BL0004
    MissingKey,
    /// BL0005
    NotAModule,
    /// BL0006
    EmptyLinkSet,
    /// BL0007
    TooDeep,
    /// BL0008
    NumberOutOfRange,
    /// BL0009
    UnsupportedVersion,
    /// BL0010
    InputTooLarge,
    /// BL0011
    ExtraNetlist,
    /// BL0101
    DuplicateCore,
    /// BL0102
    CoreOutOfRange,
    /// BL0103
    DuplicateName,
    /// BL0104
    DuplicateModuleName,
    /// BL0105
    NoFunctions,
    /// BL0201
    UnknownQueue,
    /// BL0202
    UnknownQueueInstance,
    /// BL0203
    UnknownBlock,
    /// BL0204
    UnknownMemloc,
    /// BL0205
    UnknownCallTarget,
    /// BL0206
    UnknownDependency,
    /// BL0301
    MissingRemoteTarget,
    /// BL0302
    NetlistEndpointMissing,
    /// BL0303
    NonDramAlias,
    /// BL0304
    SelfTarget,
    /// BL0305
    BarrierSkipped,
    /// BL0306
    AttributesReplaced,
    /// BL0307
    NotLinked,
    /// BL0308
    AlreadyLinked,
    /// BL0401
    ConflictingAddrSpace,
    /// BL0402
    StrayRemoteUpdate,
    /// BL0403
    NothingToRelink,
    /// BL0404
    ViewOfView,
    /// 1187
    BarrierCountMismatch,
    /// 1188
    BarrierIdsNotDense,
    /// 1189
    BarrierNameMismatch,
    /// 1191
    FunctionMissing,
    /// 1192
    BlockCountMismatch,
    /// 1193
    FunctionCountMismatch,
    /// 1194
    BlockOrderMismatch,
    /// 1195
    SharedAddressMismatch,
    /// 1196
    SharedAddressSetMismatch,
    /// 1197
    SharedWithoutRemoteTarget,
    /// 1198
    Sb2SbCountMismatch,
    /// 1203
    MissingCoreId,
    /// 1509
    VncLinkCoreCount,
    /// 1511
    PeerUpdateMissing,
    /// 1512
    RemoteBlockCountMismatch,
    /// 1513
    VncAddrMapCoreCount,
    /// 1514
    RemoteMemlocMissing,
}

/// Everything documented about one code.
#[derive(Clone, Copy, Debug)]
pub struct CodeInfo {
    /// The code string as it appears in diagnostics.
    pub code: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// The pass (or `read`) that reports it.
    pub pass: &'static str,
    /// One-line title.
    pub title: &'static str,
    /// What it means and why it matters.
    pub explanation: &'static str,
    /// A minimal input that triggers it (a fragment of BIR JSON or a description).
    pub example: &'static str,
    /// What to do: the default `help` of its diagnostics.
    pub fix: &'static str,
}

impl Code {
    /// Every code, in documentation order.
    pub const ALL: &'static [Code] = &[
        Code::UnreadableFile,
        Code::InvalidJson,
        Code::WrongType,
        Code::MissingKey,
        Code::NotAModule,
        Code::EmptyLinkSet,
        Code::TooDeep,
        Code::NumberOutOfRange,
        Code::UnsupportedVersion,
        Code::InputTooLarge,
        Code::ExtraNetlist,
        Code::DuplicateCore,
        Code::CoreOutOfRange,
        Code::DuplicateName,
        Code::DuplicateModuleName,
        Code::NoFunctions,
        Code::UnknownQueue,
        Code::UnknownQueueInstance,
        Code::UnknownBlock,
        Code::UnknownMemloc,
        Code::UnknownCallTarget,
        Code::UnknownDependency,
        Code::MissingRemoteTarget,
        Code::NetlistEndpointMissing,
        Code::NonDramAlias,
        Code::SelfTarget,
        Code::BarrierSkipped,
        Code::AttributesReplaced,
        Code::NotLinked,
        Code::AlreadyLinked,
        Code::ConflictingAddrSpace,
        Code::StrayRemoteUpdate,
        Code::NothingToRelink,
        Code::ViewOfView,
        Code::BarrierCountMismatch,
        Code::BarrierIdsNotDense,
        Code::BarrierNameMismatch,
        Code::FunctionMissing,
        Code::BlockCountMismatch,
        Code::FunctionCountMismatch,
        Code::BlockOrderMismatch,
        Code::SharedAddressMismatch,
        Code::SharedAddressSetMismatch,
        Code::SharedWithoutRemoteTarget,
        Code::Sb2SbCountMismatch,
        Code::MissingCoreId,
        Code::VncLinkCoreCount,
        Code::PeerUpdateMissing,
        Code::RemoteBlockCountMismatch,
        Code::VncAddrMapCoreCount,
        Code::RemoteMemlocMissing,
    ];

    /// The code string (`BL0002`, `1514`).
    pub fn as_str(self) -> &'static str {
        self.info().code
    }

    /// Default severity.
    pub fn severity(self) -> Severity {
        self.info().severity
    }

    /// Default help.
    pub fn help(self) -> &'static str {
        self.info().fix
    }

    /// Looks a code up by its string.
    pub fn parse(code: &str) -> Option<Code> {
        let wanted = code.trim().to_ascii_uppercase();
        Code::ALL.iter().copied().find(|c| c.as_str() == wanted)
    }

    /// Everything documented about this code.
    pub fn info(self) -> CodeInfo {
        use Severity::{Error, Note, Warning};
        let (code, severity, pass, title, explanation, example, fix) = match self {
            Code::UnreadableFile => (
                "BL0001", Error, "read", "unreadable input file",
                "The file could not be read: it does not exist, is not readable, or is not UTF-8 text. Nothing else in the link set is hidden by it: every other file is still read and checked.",
                "birlink link nc01.json   # nc01.json does not exist",
                "check the path and permissions, and that the file is UTF-8 JSON text",
            ),
            Code::InvalidJson => (
                "BL0002", Error, "read", "invalid JSON",
                "The file is not well-formed JSON. The diagnostic gives the line and column where the parser stopped; a truncated dump usually stops at its last line.",
                "{\"functions\": [ {\"name\": \"sg0000\", ",
                "fix the JSON at the given line and column; a truncated dump must be regenerated",
            ),
            Code::WrongType => (
                "BL0003", Error, "read", "a key has the wrong type",
                "A key the passes rely on has a JSON type other than the one BIR uses (contract §1), for example `blocks` that is not an array or `name` that is not a string. The value is kept as it is, but linking does not go on, since the result would be wrong.",
                "{\"name\": \"sg0000\", \"blocks\": {\"name\": \"Block1\"}}",
                "give the key the type BIR uses (see the message); regenerate the dump if it was edited by hand",
            ),
            Code::MissingKey => (
                "BL0004", Error, "read", "a required key is missing",
                "Most keys take a default when missing, as the compiler's own loader does, but names cannot: functions, blocks, instructions, memory locations and queues are referred to by name. An instruction also needs its `opcode`.",
                "{\"opcode\": \"Matmult\"}   // an instruction without \"name\"",
                "add the missing key; names must be unique in their container",
            ),
            Code::NotAModule => (
                "BL0005", Error, "read", "not a BIR module, bundle or netlist",
                "The JSON document is none of the inputs birlink reads: a per-core module has `functions`, a bundle has `modules` (and no `functions`), a netlist (`hlo_netlist.json`) has only `lnc`, `name`, `aliases` and `outputs`.",
                "[1, 2, 3]",
                "pass per-core module JSON (as written by `neuronx-cc --internal-print-after=…`), a bundle, or a folder of them",
            ),
            Code::EmptyLinkSet => (
                "BL0006", Error, "read", "empty link set",
                "No module was given, or a bundle's `modules` is empty, so there is nothing to link.",
                "{\"modules\": []}",
                "give at least one per-core module",
            ),
            Code::TooDeep => (
                "BL0007", Error, "read", "nesting too deep",
                "The JSON nests deeper than birlink reads (128 levels of JSON, or 24 nested `Loop` instructions). Real BIR is far shallower; such input is almost always generated by mistake.",
                "a Loop inside a Loop inside a Loop … 25 times",
                "flatten the nesting; if a real compiler dump hits this limit, report it",
            ),
            Code::NumberOutOfRange => (
                "BL0008", Error, "read", "number out of range",
                "A number the passes use does not fit its field: a negative or fractional core id, an address above 2^64-1, a number JSON cannot represent.",
                "\"attributes\": {\"neuron_core_id\": -1}",
                "use a non-negative integer in range for the field",
            ),
            Code::UnsupportedVersion => (
                "BL0009", Warning, "read", "unsupported BIR JSON version",
                "The module's `version` is neither 1 nor 2, the versions the compiler's loader accepts. birlink reads it anyway, with the version 2 layout.",
                "{\"version\": 7, \"functions\": []}",
                "check that the dump comes from a supported neuronx-cc release",
            ),
            Code::InputTooLarge => (
                "BL0010", Error, "read", "input too large",
                "The link set is larger than this build can hold in memory (the browser build has a 4 GiB address space; birlink needs several times the input size). Nothing was linked rather than running out of memory half-way.",
                "8 modules of 600 MB each, opened in the browser",
                "link it with the `birlink` CLI, which has no such limit, or link fewer/smaller modules",
            ),
            Code::ExtraNetlist => (
                "BL0011", Warning, "read", "more than one netlist",
                "Several netlists were given (a `--netlist`, a bundle's `netlist`, `hlo_netlist.json` files). The first in that order is used; the others are ignored.",
                "birlink link --netlist a.json bundle-with-netlist.json",
                "give one netlist",
            ),
            Code::DuplicateCore => (
                "BL0101", Error, "verify", "two modules have the same core id",
                "Each module's `attributes.neuron_core_id` must be distinct: the linker makes one function per core.",
                "nc00.json and nc01.json both with \"neuron_core_id\": 0",
                "give each module its own core id `0..N-1`; check that the same file was not given twice",
            ),
            Code::CoreOutOfRange => (
                "BL0102", Error, "verify", "core id out of range",
                "With N modules the core ids must be exactly `0..N-1`. A core id of N or more means a module is missing or the id is wrong.",
                "two modules with core ids 0 and 2",
                "give the missing core's module, or fix the core id",
            ),
            Code::DuplicateName => (
                "BL0103", Error, "verify", "duplicate name in one container",
                "Two functions of a module, two blocks of a function, two sets of a function, two memory locations of a function, or two instances of a queue share a name. BIR refers to everything by name, so the reference would be ambiguous.",
                "two memory locations named `a` in one function",
                "rename one of them",
            ),
            Code::DuplicateModuleName => (
                "BL0104", Error, "verify", "two modules have the same name",
                "Each core's function in the linked module is named after its module, so module names must differ. Names come from the `name` key, the file path (`nc01.json`, `nc01/sg00/x.json`), or `nc<core>`.",
                "two modules both with \"name\": \"nc00\"",
                "rename one module (its `name` key or its file)",
            ),
            Code::NoFunctions => (
                "BL0105", Error, "verify", "module has no functions",
                "The linker clones each module's entry function (`main`, else the first). A module without functions has nothing to clone.",
                "{\"functions\": [], \"attributes\": {\"neuron_core_id\": 1}}",
                "give the module its functions; an empty `functions` usually means a failed dump",
            ),
            Code::UnknownQueue => (
                "BL0201", Warning, "verify", "reference to an unknown queue",
                "An instruction's `queue` names a DMA queue the module does not have (the compiler's loader reports `Queue does not exist!`).",
                "{\"opcode\": \"DMACopy\", \"queue\": \"qMissing\"}",
                "add the queue to the module's `queues`, or fix the name",
            ),
            Code::UnknownQueueInstance => (
                "BL0202", Warning, "verify", "reference to an unknown queue instance",
                "A `SwitchQueueInstance` names an `instance` that its queue does not have.",
                "{\"opcode\": \"SwitchQueueInstance\", \"queue\": \"q\", \"instance\": \"q_7\"}",
                "fix the instance name",
            ),
            Code::UnknownBlock => (
                "BL0203", Warning, "verify", "reference to an unknown block",
                "A branch (`on_true`, `on_false`, `target` of a branch) names a block the function does not have (the loader reports `Block does not exist!`).",
                "{\"opcode\": \"UnconditionalBranch\", \"target\": \"Block9\"}",
                "fix the block name",
            ),
            Code::UnknownMemloc => (
                "BL0204", Warning, "verify", "operand refers to an unknown memory location",
                "An operand's `memref` names a memory location that no set of the module has.",
                "\"ins\": [{\"kind\": \"physical_ap\", \"memref\": \"nowhere\"}]",
                "fix the `memref`, or add the allocation",
            ),
            Code::UnknownCallTarget => (
                "BL0205", Warning, "verify", "call of an unknown function",
                "A `Call` instruction's `target` names a function the module does not have.",
                "{\"opcode\": \"Call\", \"target\": \"missing_fn\"}",
                "fix the target name",
            ),
            Code::UnknownDependency => (
                "BL0206", Warning, "verify", "dependency on an unknown instruction",
                "An entry of `dependencies` names an instruction the function does not have (the loader reports `Unknown dependency`).",
                "\"dependencies\": [[\"no_such_inst\", \"Flow\"]]",
                "fix the dependency name",
            ),
            Code::MissingRemoteTarget => (
                "BL0301", Warning, "bir_linker", "remote target not found while linking",
                "A memory location's `remote_local_target` names a core or a memory location that does not exist, so no alias edge is made for it. The same problem is the error 1514 in `vnc_remote_addr_map`.",
                "\"remote_local_target\": [\"out_tile\", 3]   // with 2 cores",
                "rename the view's target or the owner's memory location so they match; left as it is, `vnc_remote_addr_map` fails with 1514",
            ),
            Code::NetlistEndpointMissing => (
                "BL0302", Error, "bir_linker", "netlist alias names a missing memory location",
                "An alias in the link netlist (`hlo_netlist.json`) names a core or a memory location that does not exist.",
                "{\"aliases\": [{\"producer\": {\"core\": 0, \"memloc\": \"nope\"}, \"consumer\": {\"core\": 1, \"memloc\": \"x\"}}]}",
                "fix the netlist alias, or give the module that holds the memory location",
            ),
            Code::NonDramAlias => (
                "BL0303", Error, "bir_linker", "cross-core alias on a location that is not DRAM",
                "Cross-core handoffs go through shared HBM only; BIR aliases are DRAM-only (the loader says `Aliasing only permitted for DRAM locations.`). A memory location without `type` is `Unallocated`, not DRAM.",
                "a `remote_local_target` on a location with \"type\": \"SB\"",
                "place both sides of the handoff in DRAM (`\"type\": \"DRAM\"`)",
            ),
            Code::SelfTarget => (
                "BL0304", Error, "bir_linker", "remote target on its own core",
                "A `remote_local_target` names the core the location is on. A remote view must point at another core's location.",
                "on core 1: \"remote_local_target\": [\"x\", 1]",
                "point the target at the owner core, or remove `remote_local_target` from a local tensor",
            ),
            Code::BarrierSkipped => (
                "BL0305", Note, "bir_linker", "`CoreBarrier` without an integer id skipped",
                "The renumbering gives every `CoreBarrier` with an integer `id` the next global id. A barrier whose `id` is missing or not an integer (an affine expression, say) is left as it is, like the compiler's valueless barriers.",
                "{\"opcode\": \"CoreBarrier\", \"name\": \"cb\", \"cores\": [0, 1]}",
                "nothing to do if this is intended; otherwise give the barrier an integer `id`",
            ),
            Code::AttributesReplaced => (
                "BL0306", Warning, "bir_linker", "`attributes` is not an object",
                "To tag a function or queue instance with its core, `attributes` must be an object. An older dump's list form is moved to `source_attributes` and `attributes` becomes an object.",
                "\"attributes\": [\"need_unroll\"]",
                "nothing to do; the old value is kept in `source_attributes`",
            ),
            Code::NotLinked => (
                "BL0307", Error, "read", "the VNC passes need one linked module",
                "When the selected passes leave out `bir_linker`, the input must be one already-linked module (a `linked.json`): functions tagged with `attributes.neuron_core_id`.",
                "passes [\"vnc_link\"] with two per-core modules",
                "give one `linked.json`, or include `bir_linker` in the passes",
            ),
            Code::AlreadyLinked => (
                "BL0308", Error, "verify", "module is already linked",
                "bir_linker links per-core modules. This one already has functions tagged with `attributes.neuron_core_id` (a `linked.json`), so linking it again would treat every core's function as core 0's.",
                "birlink link out/linked.json",
                "to re-run the VNC passes on a linked module, select them: `--passes vnc_remote_addr_map,vnc_link`",
            ),
            Code::ConflictingAddrSpace => (
                "BL0401", Error, "vnc_remote_addr_map", "one set gets two address spaces",
                "Two memory locations of one set have owners whose sets are in different address spaces, so the set's `addr_space` cannot be copied from both.",
                "a set with views of a `Shared` and of a `Local` owner",
                "split the set, or allocate both owners in the same address space",
            ),
            Code::StrayRemoteUpdate => (
                "BL0402", Warning, "vnc_link", "remote update that `vnc_link` never relinks",
                "An `on_update` entry has `target_core`, but it is not on a `DMABlock` with non-empty `remote_notifications`, so vnc_link does not collect it and its id stays the local core's.",
                "a Matmult with \"on_update\": [{\"id\": 3, \"target_core\": 1}]",
                "move the remote update onto a DMA block with `remote_notifications`",
            ),
            Code::NothingToRelink => (
                "BL0403", Note, "vnc_remote_addr_map", "one core: nothing to relink",
                "With lnc = 1 there is no other core, so the VNC passes have no remote addresses or semaphores to relink.",
                "a link set of one module",
                "nothing to do",
            ),
            Code::ViewOfView => (
                "BL0404", Warning, "vnc_remote_addr_map", "remote view of a remote view",
                "A memory location's `remote_local_target` names a memory location on the owner core that is itself a remote view of a third one. vnc_remote_addr_map copies in partition order, each copy reading the tuple as it stands at that moment: when the middle view is copied later, the first one keeps the middle one's tuple from before the pass, and running the pass again gives another result.",
                "`buf` on core 0 targets `buf_c1` on core 1, whose `remote_local_target` is [`buf_c2`, 2]",
                "point `remote_local_target` at the memory location that owns the buffer",
            ),
            Code::BarrierCountMismatch => (
                "1187", Warning, "verify", "cores have different numbers of `CoreBarrier`s",
                "LncVerifier: every core must execute the same CoreBarriers, or a core waits forever. The count per core differs from core 0's.",
                "core 0 has 3 CoreBarriers, core 1 has 2",
                "make every core reach the same barriers; check the kernel's grid/LNC launch",
            ),
            Code::BarrierIdsNotDense => (
                "1188", Warning, "verify", "`CoreBarrier` ids are not `0..k` in order",
                "LncVerifier: before linking, the i-th CoreBarrier of a core must have id i.",
                "ids 0, 2, 1",
                "renumber the core's barriers 0..k in program order",
            ),
            Code::BarrierNameMismatch => (
                "1189", Warning, "verify", "`CoreBarrier` name differs from core 0's",
                "LncVerifier: the i-th CoreBarrier must have the same name on every core (the public `NCC_IXLV002 Expected core barriers to have name …` failure).",
                "core 0 `LocalSendRecv-0_476_sr_cb_begin`, core 1 `LocalSendRecv-1_480_sr_cb_begin`",
                "make the cores' barrier sequences match; sendrecv called twice in one traced graph is a known cause",
            ),
            Code::FunctionMissing => (
                "1191", Warning, "verify", "a core lacks a function core 0 has",
                "LncVerifier: every function of core 0 must exist, by name, on every core.",
                "core 0 has `sg0001`, core 1 does not",
                "compile every core from the same program",
            ),
            Code::BlockCountMismatch => (
                "1192", Warning, "verify", "a function has a different number of blocks",
                "LncVerifier: a function must have the same number of blocks on every core.",
                "`sg0000` has 4 blocks on core 0 and 3 on core 1",
                "compile every core from the same program",
            ),
            Code::FunctionCountMismatch => (
                "1193", Warning, "verify", "cores have different numbers of functions",
                "LncVerifier: every core must have the same number of functions.",
                "core 0 has 2 functions, core 1 has 1",
                "compile every core from the same program",
            ),
            Code::BlockOrderMismatch => (
                "1194", Warning, "verify", "block names or order differ from core 0's",
                "LncVerifier: the blocks of a function must have the same names in the same order on every core.",
                "core 0 `Block1, Block2`, core 1 `Block2, Block1`",
                "compile every core from the same program",
            ),
            Code::SharedAddressMismatch => (
                "1195", Warning, "verify", "shared tensor's remote target missing or at another address",
                "LncVerifier: a shared post-DRAM-allocation location (`is_shared_post_dram_alloc`) with a `remote_local_target` must find its target by name on the owner core, at the same address (sync_shared_allocations copied it).",
                "view at addr 4096, owner at addr 8192",
                "re-run the shared allocation passes; check that both cores were compiled together",
            ),
            Code::SharedAddressSetMismatch => (
                "1196", Warning, "verify", "shared tensor addresses differ between cores",
                "LncVerifier: the addresses of shared post-DRAM-allocation locations must be the same set on every core.",
                "core 0 shares {0x1000, 0x2000}, core 1 {0x1000}",
                "re-run the shared allocation passes; check that both cores were compiled together",
            ),
            Code::SharedWithoutRemoteTarget => (
                "1197", Warning, "verify", "shared tensor without a remote target on core > 0",
                "LncVerifier: on every core but 0, a shared post-DRAM-allocation location must be a remote view (`remote_local_target`).",
                "core 1: {\"is_shared_post_dram_alloc\": true} without remote_local_target",
                "mark the view remote (DRAM_Allocator::mark_remote does this)",
            ),
            Code::Sb2SbCountMismatch => (
                "1198", Warning, "verify", "cores have different numbers of `GPSIMDSB2SB`",
                "LncVerifier: every core must execute the same number of GPSIMDSB2SB copies.",
                "core 0 has 2 GPSIMDSB2SB, core 1 has 1",
                "compile every core from the same program",
            ),
            Code::MissingCoreId => (
                "1203", Error, "verify", "module has no `neuron_core_id`",
                "LncVerifier: with more than one module, each must carry `attributes.neuron_core_id` (\"NeuronCoreId must be set when the LNC count is greater than 1\").",
                "{\"functions\": [...], \"attributes\": {}}",
                "add `\"attributes\": {\"neuron_core_id\": <core>}` to the module",
            ),
            Code::VncLinkCoreCount => (
                "1509", Error, "vnc_link", "partitions differ from `vnc_nc_count` (vnc_link)",
                "vnc_link needs one partition per virtual core (`modules.size() == options.vnc_nc_count`). In the full pipeline 1513 fires first; 1509 appears when vnc_link runs on its own.",
                "vnc_link alone on a 2-core linked module with --lnc 3",
                "give one module per core, or set --lnc to the number of modules",
            ),
            Code::PeerUpdateMissing => (
                "1511", Error, "vnc_link", "peer DMA block has no local update",
                "vnc_link relinks a remote update of core c's k-th remote DMA block from the first local (no `target_core`) `on_update` entry of core t's k-th remote DMA block. That peer block has none, or `target_core` names no core.",
                "peer block with \"on_update\": [{\"id\": 4, \"target_core\": 0}] only",
                "give the peer DMA block its local semaphore update, or fix `target_core`",
            ),
            Code::RemoteBlockCountMismatch => (
                "1512", Error, "vnc_link", "cores have different numbers of remote DMA blocks",
                "vnc_link pairs the k-th remote-notifying DMA block of one core with the k-th of its peer (`allEqual`): the SPMD cores must have the same number. The table gives the count per core.",
                "core 0: 3 DMA blocks with remote_notifications, core 1: 2",
                "make the cores' remote DMA blocks match one to one",
            ),
            Code::VncAddrMapCoreCount => (
                "1513", Error, "vnc_remote_addr_map", "partitions differ from `vnc_nc_count`",
                "vnc_remote_addr_map needs one partition per virtual core (`modules.size() == options.vnc_nc_count`). `vnc_nc_count` comes from --lnc, the bundle's `options.lnc`, the netlist's `lnc`, or the number of modules, in that order.",
                "2 modules linked with --lnc 4",
                "give one module per core, or fix the LNC setting",
            ),
            Code::RemoteMemlocMissing => (
                "1514", Error, "vnc_remote_addr_map", "remote memory location not found on its owner core",
                "A remote view's `remote_local_target [R, o]` names memory location R on core o, and core o has no location named R (`remote_mloc != nullptr`; the public `Could not find MemoryLocation named … on core 1`). The diagnostic lists the closest names on core o and the cores where R exists.",
                "on core 1: \"remote_local_target\": [\"out_tile_0\", 0] and core 0 calls it `out_tile`",
                "rename the view's target or the owner's location so they match; a kernel launched without its LNC grid never materialises the buffer on the other core",
            ),
        };
        CodeInfo { code, severity, pass, title, explanation, example, fix }
    }
}

/// The Markdown reference of every code (the content of `docs/diagnostics.md`).
pub fn markdown_reference() -> String {
    let mut out = String::new();
    out.push_str("# Diagnostic codes\n\n");
    out.push_str("<!-- Generated by `birlink explain --markdown` from crates/birlink-core/src/codes.rs; a test keeps it in sync. -->\n\n");
    out.push_str("Every problem birlink reports has a stable code. Numeric codes are the compiler's own\n");
    out.push_str("(LncVerifier 1187–1203, the VNC passes' 1509–1514); `BL` codes are birlink's:\n");
    out.push_str("`BL00xx` reading input, `BL01xx` module identity, `BL02xx` references, `BL03xx` bir_linker,\n");
    out.push_str("`BL04xx` the VNC passes. `birlink explain CODE` prints one entry. Each failing sample in\n");
    out.push_str("`www/samples/` is named after the code it shows.\n\n");
    out.push_str("| code | severity | pass | title |\n|---|---|---|---|\n");
    for code in Code::ALL {
        let info = code.info();
        out.push_str(&format!(
            "| [{}](#{}) | {} | `{}` | {} |\n",
            info.code,
            info.code.to_ascii_lowercase(),
            info.severity.as_str(),
            info.pass,
            info.title
        ));
    }
    for code in Code::ALL {
        let info = code.info();
        out.push_str(&format!("\n## {}\n\n", info.code));
        out.push_str(&format!("**{}** — {} in `{}`.\n\n", info.title, info.severity.as_str(), info.pass));
        out.push_str(info.explanation);
        out.push_str("\n\nExample:\n\n```text\n");
        out.push_str(info.example);
        out.push_str("\n```\n\nFix: ");
        out.push_str(info.fix);
        out.push_str(".\n");
    }
    out
}

/// Whether a message starts like a sentence (`Could …`) rather than lowercase or with
/// an acronym (`DMA block …`) or an identifier in backticks.
pub fn starts_capitalized(text: &str) -> bool {
    let mut chars = text.chars();
    matches!((chars.next(), chars.next()), (Some(a), Some(b)) if a.is_uppercase() && b.is_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_parse_back() {
        let mut seen = std::collections::BTreeSet::new();
        for &code in Code::ALL {
            assert!(seen.insert(code.as_str()), "duplicate code {}", code.as_str());
            assert_eq!(Code::parse(code.as_str()), Some(code));
        }
        assert_eq!(Code::parse("bl0002"), Some(Code::InvalidJson));
        assert_eq!(Code::parse("9999"), None);
    }

    #[test]
    fn help_texts_are_lowercase_without_full_stop() {
        for &code in Code::ALL {
            let info = code.info();
            assert!(!info.fix.ends_with('.'), "{}", info.code);
            assert!(!info.title.ends_with('.'), "{}", info.code);
            assert!(!starts_capitalized(info.title), "{} title starts with a capitalized word", info.code);
        }
    }
}
