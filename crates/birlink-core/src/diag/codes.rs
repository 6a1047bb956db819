//! The registry of diagnostic codes: every code, its severity, pass, meaning and fix,
//! declared once.
//!
//! Codes are stable and never reused. Numeric codes are the compiler's own (the
//! LncVerifier checks 1187–1203 and the VNC `ErrorCode`s 1509–1514 from the seeds);
//! `BLxxxx` codes are birlink's: `BL00xx` reading input, `BL01xx` module identity,
//! `BL02xx` references inside a module, `BL03xx` bir_linker, `BL04xx` the VNC passes,
//! `BL07xx` the sync check (not a pass: `pass: "sync"`).
//!
//! One table, [`codes!`], declares each code with everything documented about it; the
//! macro makes the [`Code`] enum, [`Code::ALL`] and [`Code::info`] from it, so a new
//! code cannot exist without its explanation, example and fix, and lands in `ALL` —
//! where the per-code test (`tests/it/codes.rs`, `every_code_has_a_test`), the fault
//! generator's exhaustive `match` (`gen::faults`) and the samples find it.
//! `docs/diagnostics.md` is generated from this file (`cargo xtask codegen`; `birlink
//! explain --markdown` prints the same) and
//! a tidy test keeps the two equal.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::diag::Severity;
use crate::model::pass::Pass;

/// Everything documented about one code.
#[derive(Clone, Copy, Debug)]
pub struct CodeInfo {
    /// The code string as it appears in diagnostics.
    pub code: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// The stage that reports it.
    pub pass: Pass,
    /// One-line title.
    pub title: &'static str,
    /// What it means and why it matters.
    pub explanation: &'static str,
    /// A minimal input that triggers it (a fragment of BIR JSON or a description).
    pub example: &'static str,
    /// What to do: the default `help` of its diagnostics.
    pub fix: &'static str,
}

/// Declares every code: `Variant = "code", Severity, Pass { title, explanation,
/// example, fix }`, in documentation order.
macro_rules! codes {
    ($(
        $variant:ident = $code:literal, $severity:ident, $pass:ident {
            title: $title:literal,
            explanation: $explanation:literal,
            example: $example:literal,
            fix: $fix:literal $(,)?
        }
    )*) => {
        /// A diagnostic code. Matched exhaustively wherever codes are listed; on the wire
        /// it is its code string (`"1514"`, `"BL0002"`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( #[doc = $code] $variant, )*
        }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// Everything documented about this code.
            pub fn info(self) -> CodeInfo {
                match self {
                    $( Code::$variant => CodeInfo {
                        code: $code,
                        severity: Severity::$severity,
                        pass: Pass::$pass,
                        title: $title,
                        explanation: $explanation,
                        example: $example,
                        fix: $fix,
                    }, )*
                }
            }
        }
    };
}

codes! {
    UnreadableFile = "BL0001", Error, Read {
        title: "unreadable input file",
        explanation: "The file could not be read: it does not exist, is not readable, or is not UTF-8 text. Nothing else in the link set is hidden by it: every other file is still read and checked.",
        example: "birlink link nc01.json   # nc01.json does not exist",
        fix: "check the path and permissions, and that the file is UTF-8 JSON text",
    }
    InvalidJson = "BL0002", Error, Read {
        title: "invalid JSON",
        explanation: "The file is not well-formed JSON. The diagnostic gives the line and column where the parser stopped; a truncated dump usually stops at its last line.",
        example: "{\"functions\": [ {\"name\": \"sg0000\", ",
        fix: "fix the JSON at the given line and column; a truncated dump must be regenerated",
    }
    WrongType = "BL0003", Error, Read {
        title: "a key has the wrong type",
        explanation: "A key the passes rely on has a JSON type other than the one BIR uses (spec §1), for example `blocks` that is not an array or `name` that is not a string. The value is kept as it is, but linking does not go on, since the result would be wrong.",
        example: "{\"name\": \"sg0000\", \"blocks\": {\"name\": \"Block1\"}}",
        fix: "give the key the type BIR uses (see the message); regenerate the dump if it was edited by hand",
    }
    MissingKey = "BL0004", Error, Read {
        title: "a required key is missing",
        explanation: "Most keys take a default when missing, as the compiler's own loader does, but names cannot: functions, blocks, instructions, memory locations and queues are referred to by name. An instruction also needs its `opcode`.",
        example: "{\"opcode\": \"Matmult\"}   // an instruction without \"name\"",
        fix: "add the missing key; names must be unique in their container",
    }
    NotAModule = "BL0005", Error, Read {
        title: "not a BIR module, bundle or netlist",
        explanation: "The JSON document is none of the inputs birlink reads: a per-core module has `functions`, a bundle has `modules` (and no `functions`), a netlist (`hlo_netlist.json`) has only `lnc`, `name`, `aliases` and `outputs`.",
        example: "[1, 2, 3]",
        fix: "pass per-core module JSON (as written by `neuronx-cc --internal-print-after=…`), a bundle, or a folder of them",
    }
    EmptyLinkSet = "BL0006", Error, Read {
        title: "empty link set",
        explanation: "No module was given, or a bundle's `modules` is empty, so there is nothing to link.",
        example: "{\"modules\": []}",
        fix: "give at least one per-core module",
    }
    TooDeep = "BL0007", Error, Read {
        title: "nesting too deep",
        explanation: "The JSON nests deeper than birlink reads (128 levels of JSON, or 24 nested `Loop` instructions). Real BIR is far shallower; such input is almost always generated by mistake.",
        example: "a Loop inside a Loop inside a Loop … 25 times",
        fix: "flatten the nesting; if a real compiler dump hits this limit, report it",
    }
    NumberOutOfRange = "BL0008", Error, Read {
        title: "number out of range",
        explanation: "A number the passes use does not fit its field: a negative or fractional core id, an address above 2^64-1, a number JSON cannot represent.",
        example: "\"attributes\": {\"neuron_core_id\": -1}",
        fix: "use a non-negative integer in range for the field",
    }
    UnsupportedVersion = "BL0009", Warning, Read {
        title: "unsupported BIR JSON version",
        explanation: "The module's `version` is neither 1 nor 2, the versions the compiler's loader accepts. birlink reads it anyway, with the version 2 layout.",
        example: "{\"version\": 7, \"functions\": []}",
        fix: "check that the dump comes from a supported neuronx-cc release",
    }
    InputTooLarge = "BL0010", Error, Read {
        title: "input too large",
        explanation: "The link set would take more memory than this build can hold (the browser build has a 4 GiB address space and lets a link set hold at most 3.6 GB once read; what a set would hold is estimated before a byte of it is parsed, from each file's size and first bytes: an indented dump is held as its compact text, about a third of its size, and each instruction holds about 240 bytes beside its text), or is larger than it reduces (the page reduces at most 64 MB: a reduction holds the link set as a tree and links it once per test). Nothing was done rather than running out of memory half-way.",
        example: "8 modules of 600 MB each, opened in the browser",
        fix: "link (or reduce) it with the `birlink` CLI, which has no such limit, or link fewer/smaller modules",
    }
    ExtraNetlist = "BL0011", Warning, Read {
        title: "more than one netlist",
        explanation: "Several netlists were given (a `--netlist`, a bundle's `netlist`, `hlo_netlist.json` files). The first in that order is used; the others are ignored.",
        example: "birlink link --netlist a.json bundle-with-netlist.json",
        fix: "give one netlist",
    }
    BadPassSelection = "BL0012", Error, Read {
        title: "invalid pass selection",
        explanation: "The passes asked for (`--passes`, or a bundle's `options.passes`) are not a run of `verify, bir_linker, vnc_remote_addr_map, vnc_link` in that order without gaps, name something that is not a pass, or ask for `bir_linker` without `verify` before it. birlink does not guess which passes were meant: nothing is linked.",
        example: "birlink link nc00.json nc01.json --passes verify,vnc_link",
        fix: "list passes in pipeline order without gaps; `bir_linker` needs `verify` before it",
    }
    DuplicateCore = "BL0101", Error, Verify {
        title: "two modules have the same core id",
        explanation: "Each module's place must be its own. In the seeds' reading each module is a core, so `attributes.neuron_core_id` must be distinct: the linker makes one function per core. In the compiler's flows a place is a core and a subgraph (`ncCC/sgKK`): two modules at one place — or two linked modules of one core — cannot both be linked.",
        example: "nc00.json and nc01.json both with \"neuron_core_id\": 0",
        fix: "give each module its own core id `0..N-1`; check that the same file was not given twice",
    }
    CoreOutOfRange = "BL0102", Error, Verify {
        title: "core id out of range",
        explanation: "With N modules the core ids must be exactly `0..N-1`. A core id of N or more means a module is missing or the id is wrong.",
        example: "two modules with core ids 0 and 2",
        fix: "give the missing core's module, or fix the core id",
    }
    DuplicateName = "BL0103", Error, Verify {
        title: "duplicate name in one container",
        explanation: "Two functions of a module, two blocks of a function, two sets of a function, two memory locations of a function, or two instances of a queue share a name. BIR refers to everything by name, so the reference would be ambiguous.",
        example: "two memory locations named `a` in one function",
        fix: "rename one of them",
    }
    DuplicateModuleName = "BL0104", Error, Verify {
        title: "two modules have the same name",
        explanation: "Each core's function in the linked module is named after its module, so module names must differ. Names come from the `name` key, the file path (`nc01.json`, `nc01/sg00/x.json`), or `nc<core>`.",
        example: "two modules both with \"name\": \"nc00\"",
        fix: "rename one module (its `name` key or its file)",
    }
    NoFunctions = "BL0105", Error, Verify {
        title: "module has no functions",
        explanation: "The linker clones each module's entry function (`main`, else the first). A module without functions has nothing to clone.",
        example: "{\"functions\": [], \"attributes\": {\"neuron_core_id\": 1}}",
        fix: "give the module its functions; an empty `functions` usually means a failed dump",
    }
    SubgraphMissing = "BL0107", Error, Verify {
        title: "a subgraph is missing on a core",
        explanation: "In the compiler's flows a link set is a grid of cores × subgraphs, and the compiler compiles every subgraph for every core (`Loading module from nc00/sg00/bir.json` … `nc01/sg02/bir.json`). One core has a subgraph another core lacks, so that core's `bir_linker` would link a different program: nothing is linked.",
        example: "nc00/sg00, nc00/sg01, nc01/sg00 — and no nc01/sg01",
        fix: "give the missing core's dump of that subgraph (`ncCC/sgKK/…`), or leave that subgraph out on every core",
    }
    DefinitionsMismatch = "BL0108", Error, Verify {
        title: "the netlist's definitions are not the subgraphs",
        explanation: "In the modular flow each netlist definition is one subgraph module (the k-th distinct definition id is subgraph k: birlink's reading of the compiler's `DefMap`). The netlist names more definitions than each core has subgraphs (a definition with no module), or fewer (a module with no definition): the seeds' `numDefs != modules.size()` check in `BirLinker::run`.",
        example: "a netlist whose DefMap is `0 1 1 2` (3 definitions) with subgraphs sg00 and sg01 only",
        fix: "give every subgraph's dumps, or the netlist of the compile these subgraphs come from",
    }
    MixedFlows = "BL0109", Error, Verify {
        title: "linked and unlinked modules mixed",
        explanation: "A link set is either every core's subgraph modules (`bir_linker`'s input) or every core's linked module (`ncCC/sgLnk`, the VNC passes' input). Some modules given are a core's linked module and others are not, so neither pass has its whole input.",
        example: "nc00/sgLnk (linked) with nc01/sg00 (a subgraph)",
        fix: "give every core's subgraph dumps from before `bir_linker`, or every core's linked module from after it",
    }
    UnknownQueue = "BL0201", Warning, Verify {
        title: "reference to an unknown queue",
        explanation: "An instruction's `queue` names a DMA queue the module does not have (the compiler's loader reports `Queue does not exist!`).",
        example: "{\"opcode\": \"DMACopy\", \"queue\": \"qMissing\"}",
        fix: "add the queue to the module's `queues`, or fix the name",
    }
    UnknownQueueInstance = "BL0202", Warning, Verify {
        title: "reference to an unknown queue instance",
        explanation: "A `SwitchQueueInstance` names an `instance` that its queue does not have.",
        example: "{\"opcode\": \"SwitchQueueInstance\", \"queue\": \"q\", \"instance\": \"q_7\"}",
        fix: "fix the instance name",
    }
    UnknownBlock = "BL0203", Warning, Verify {
        title: "reference to an unknown block",
        explanation: "A branch (`on_true`, `on_false`, `target` of a branch) names a block the function does not have (the loader reports `Block does not exist!`).",
        example: "{\"opcode\": \"UnconditionalBranch\", \"target\": \"Block9\"}",
        fix: "fix the block name",
    }
    UnknownMemloc = "BL0204", Warning, Verify {
        title: "operand refers to an unknown memory location",
        explanation: "An operand's `memref` names a memory location that no set of the module has.",
        example: "\"ins\": [{\"kind\": \"physical_ap\", \"memref\": \"nowhere\"}]",
        fix: "fix the `memref`, or add the allocation",
    }
    UnknownCallTarget = "BL0205", Warning, Verify {
        title: "call of an unknown function",
        explanation: "A `Call` instruction's `target` names a function the module does not have.",
        example: "{\"opcode\": \"Call\", \"target\": \"missing_fn\"}",
        fix: "fix the target name",
    }
    UnknownDependency = "BL0206", Warning, Verify {
        title: "dependency on an unknown instruction",
        explanation: "An entry of `dependencies` names an instruction the function does not have (the loader reports `Unknown dependency`).",
        example: "\"dependencies\": [[\"no_such_inst\", \"Flow\"]]",
        fix: "fix the dependency name",
    }
    LocalCollectiveNameMissing = "BL0207", Warning, Verify {
        title: "a local collective names a memory location another core of its subgraph lacks",
        explanation: "The compiler's `lower_local_collectives` (per subgraph, across the cores, before `bir_linker`) looks up, on each other core's module of the subgraph, every memory location a local collective names, by that name; a miss stops the compile with `[NCC_ILLC059] Could not find MemoryLocation named … on core 1` (`lower_local_collectives.cpp:78: Assertion failure: memlocOnOtherCore != nullptr`). birlink's reading: a local collective is a `CollectiveCompute` with `is_local: true` or a `cc_channel.kind` of 0–2 (SendRecv, SendRecvCCE, AllReduce), and the names it uses are its `ins` and `outs` memrefs; it checks dumps taken before that pass. The diagnostic lists the nearest names on the other core, and says when the nearest differs only in its numbers.",
        example: "core 0's all-reduce names `inst__I-5-0:send_k_buf.31`; core 1 has `inst__I-5-0:send_k_buf.72`",
        fix: "launch the NKI kernel with its LNC grid (`kernel[2]`, `wrap_nki(kernel)[lnc]`) so every core materialises its buffers under the same names; names that differ only in their numbers come from per-core numbering of the kernel's buffers",
    }
    MissingRemoteTarget = "BL0301", Warning, BirLinker {
        title: "remote target not found while linking",
        explanation: "A memory location's `remote_local_target` names a core or a memory location that does not exist, so no alias edge is made for it. The same problem is the error 1514 in `vnc_remote_addr_map`.",
        example: "\"remote_local_target\": [\"out_tile\", 3]   // with 2 cores",
        fix: "rename the view's target or the owner's memory location so they match; left as it is, `vnc_remote_addr_map` fails with 1514",
    }
    NetlistEndpointMissing = "BL0302", Error, BirLinker {
        title: "netlist alias names a missing memory location",
        explanation: "An alias in the link netlist (`hlo_netlist.json`) names a core or a memory location that does not exist.",
        example: "{\"aliases\": [{\"producer\": {\"core\": 0, \"memloc\": \"nope\"}, \"consumer\": {\"core\": 1, \"memloc\": \"x\"}}]}",
        fix: "fix the netlist alias, or give the module that holds the memory location",
    }
    NonDramAlias = "BL0303", Error, BirLinker {
        title: "cross-core alias on a location that is not DRAM",
        explanation: "Cross-core handoffs go through shared HBM only; BIR aliases are DRAM-only (the loader says `Aliasing only permitted for DRAM locations.`). A memory location without `type` is `Unallocated`, not DRAM.",
        example: "a `remote_local_target` on a location with \"type\": \"SB\"",
        fix: "place both sides of the handoff in DRAM (`\"type\": \"DRAM\"`)",
    }
    SelfTarget = "BL0304", Error, BirLinker {
        title: "remote target on its own core",
        explanation: "A `remote_local_target` names the core the location is on. A remote view must point at another core's location.",
        example: "on core 1: \"remote_local_target\": [\"x\", 1]",
        fix: "point the target at the owner core, or remove `remote_local_target` from a local tensor",
    }
    BarrierSkipped = "BL0305", Note, BirLinker {
        title: "`CoreBarrier` without an integer id skipped",
        explanation: "The renumbering gives every `CoreBarrier` with an integer `id` the next global id. A barrier whose `id` is missing or not an integer (an affine expression, say) is left as it is, like the compiler's valueless barriers.",
        example: "{\"opcode\": \"CoreBarrier\", \"name\": \"cb\", \"cores\": [0, 1]}",
        fix: "nothing to do if this is intended; otherwise give the barrier an integer `id`",
    }
    AttributesReplaced = "BL0306", Warning, BirLinker {
        title: "`attributes` is not an object",
        explanation: "To tag a function or queue instance with its core, `attributes` must be an object. An older dump's list form is moved to `source_attributes` and `attributes` becomes an object.",
        example: "\"attributes\": [\"need_unroll\"]",
        fix: "nothing to do; the old value is kept in `source_attributes`",
    }
    NotLinked = "BL0307", Error, Read {
        title: "the VNC passes need one linked module",
        explanation: "When the selected passes leave out `bir_linker`, the input must be one already-linked module (a `linked.json`): functions tagged with `attributes.neuron_core_id`.",
        example: "passes [\"vnc_link\"] with two per-core modules",
        fix: "give one `linked.json`, or include `bir_linker` in the passes",
    }
    AlreadyLinked = "BL0308", Error, Verify {
        title: "module is already linked",
        explanation: "bir_linker links per-core modules. This one already has functions tagged with `attributes.neuron_core_id` (a `linked.json`), so linking it again would treat every core's function as core 0's.",
        example: "birlink link out/linked.json",
        fix: "to re-run the VNC passes on a linked module, select them: `--passes vnc_remote_addr_map,vnc_link`",
    }
    TensorMapUnreadable = "BL0309", Warning, BirLinker {
        title: "a core's tensor map cannot be read",
        explanation: "A core's `tensor_map.json` in the work directory is not JSON, or holds nothing birlink reads as entries: an object keyed by tensor name, a list of objects naming their tensor (`name`, `tensor_name`, …), or groups of either. The tensor map's structure is not public (docs/spec/link.md §3.11): this is birlink's reading, not the compiler's check. The link goes on without that core's map.",
        example: "`nc01/sg00/tensor_map.json` holding `[1, 2]`",
        fix: "check the file the backend wrote; if its structure is one birlink does not know, report it with the file",
    }
    TensorMapStale = "BL0310", Warning, BirLinker {
        title: "a tensor-map entry names no tensor of the linked module",
        explanation: "An entry of a core's tensor map names a tensor (a memory-location set or location) that the linked module does not have on that core. The compiler's `verifyTensorMap` checks the merged map after linking and stops with `[NCC_ILNK020] tensor_map verification failed after linking`; its exact checks are not public, so this is birlink's reading of it, a warning, not a claim that the compiler fails here.",
        example: "`tensor_map.json` of core 0 lists `out_7`, and core 0's module has no `out_7`",
        fix: "find where the tensor went: an earlier pass renamed or removed it, or the tensor map is from another compile (compare the dump's and the map's times)",
    }
    TensorMapDemoted = "BL0311", Note, BirLinker {
        title: "a tensor-map entry of a cross-core intermediate is left out",
        explanation: "bir_linker makes a cross-core intermediate internal (`fixOutputKind`: an `ExternalOutput` only another core reads, or the `ExternalInput` that reads it), and the merged tensor map, the host's binding of the linked program's inputs and outputs, leaves its entry out (the linker's \"Intermediate Output\" and \"outs2Erase\"). birlink's reading of `buildMainTensorMap` (not public): said once per core, naming the entries, so none is thought lost.",
        example: "core 0's `ExternalOutput` `h` is read by core 1 and becomes `Internal`; core 0's tensor map lists `h`",
        fix: "nothing to do, unless the host must read the tensor: then make it a real output (name it among the netlist's `outputs`)",
    }
    TensorMapConflict = "BL0312", Warning, BirLinker {
        title: "two cores map the same tensor differently",
        explanation: "Two cores' tensor maps have an entry of the same name with different fields; the merged map can hold one. birlink keeps the lowest core's and says which fields differ. birlink's reading of the merge (not public).",
        example: "`x` has `sim_shape` [128, 64] on core 0 and [64, 64] on core 1",
        fix: "check that both cores were compiled from the same graph; a tensor each core binds on its own needs a name of its own",
    }
    TensorMapUnbound = "BL0313", Warning, BirLinker {
        title: "a linked input or output has no tensor-map entry",
        explanation: "A memory-location set that is an input or output of the linked program (`ExternalInput`, `ExternalOutput` after the link) has no entry in its core's tensor map, so nothing binds it to a host tensor. birlink's reading of `verifyTensorMap` (not public).",
        example: "core 1's `ExternalOutput` `y` and no `y` in `nc01/sg00/tensor_map.json`",
        fix: "check that the tensor map is the one written with this dump; a tensor only the link uses should be `Internal`",
    }
    TensorMapMissing = "BL0314", Warning, BirLinker {
        title: "a core has no tensor map",
        explanation: "Another core of the work directory has a `tensor_map.json` and this one has none in its subgraph folder, so its inputs and outputs are bound by nothing in the merged map. Whether the compiler needs every core's map is not public: birlink's reading.",
        example: "`nc00/sg00/tensor_map.json` and no `nc01/sg00/tensor_map.json`",
        fix: "open the whole work directory, or re-run the compile that wrote it",
    }
    ArtifactCollision = "BL0315", Warning, BirLinker {
        title: "two cores offer different files of the same name for the link directory",
        explanation: "`setupLinkDir` puts every core's weights, debug info and custom-op files into one folder, `sgLnk/`, under their names: two cores offering the same name with different content cannot both be there. birlink keeps the lowest core's and names the others. What the compiler does then is not public (birlink's reading).",
        example: "`nc00/sg00/w.npy` and `nc01/sg00/w.npy` of different sizes",
        fix: "give each core's artifact a name of its own, or check that the cores were compiled from the same weights",
    }
    ArgumentCountMismatch = "BL0316", Error, BirLinker {
        title: "partitions of one definition have different argument counts",
        explanation: "Every partition of a definition calls the same function, whose formal arguments are its module's `ExternalInput` and `ExternalOutput` sets. A partition lists more or fewer model inputs, intermediates or outputs than the definition's first partition binds, so its call cannot bind them: the compiler's definitions are compiled once for all their instances.",
        example: "DefMap `0 1 1`; partition 1 has 2 inputs and partition 2 has 3",
        fix: "give the partitions of one definition the same numbers of inputs and outputs, or check that the netlist is the one this compile wrote",
    }
    UnboundTensor = "BL0317", Error, BirLinker {
        title: "a tensor no formal argument matches",
        explanation: "A definition's formal arguments are named after the tensors its first partition binds them to (the compiler's log prints them: `Inp[0] intermediate5`). birlink's reading: a formal set matches a tensor by its set name, that name less `_set`, or its first memory location's name. A formal set matches no tensor of the partition, or a tensor of the partition matches no formal set, so the call would leave it unbound.",
        example: "partition 0 lists `input0`, and sg00's ExternalInput set is `x_set` holding `x`",
        fix: "check that the subgraph's module and the netlist come from the same compile; a formal set is named after its tensor",
    }
    IntermediateNeverProduced = "BL0318", Error, BirLinker {
        title: "an intermediate nobody produces before it is read",
        explanation: "An intermediate is one partition's output and a later partition's input (`InternalOnlyOuts` of one definition, `InternalOnlyInps` of another). birlink's reading: it is produced by the first partition, in netlist order, that lists it. A partition reads an intermediate that no partition before it produces, so the handoff has no producer.",
        example: "partition 0 reads `intermediate9`, which no partition writes before it",
        fix: "check the netlist's `IntermediateIOs` and the order of `PartMap`: the producer must come first",
    }
    ConflictingAddrSpace = "BL0401", Error, VncRemoteAddrMap {
        title: "one set gets two address spaces",
        explanation: "Two memory locations of one set have owners whose sets are in different address spaces, so the set's `addr_space` cannot be copied from both.",
        example: "a set with views of a `Shared` and of a `Local` owner",
        fix: "split the set, or allocate both owners in the same address space",
    }
    StrayRemoteUpdate = "BL0402", Warning, VncLink {
        title: "remote update that `vnc_link` never relinks",
        explanation: "An `on_update` entry has `target_core`, but it is not on a `DMABlock` with non-empty `remote_notifications`, so vnc_link does not collect it and its id stays the local core's.",
        example: "a Matmult with \"on_update\": [{\"id\": 3, \"target_core\": 1}]",
        fix: "move the remote update onto a DMA block with `remote_notifications`",
    }
    NothingToRelink = "BL0403", Note, VncRemoteAddrMap {
        title: "one core: nothing to relink",
        explanation: "With lnc = 1 there is no other core, so the VNC passes have no remote addresses or semaphores to relink.",
        example: "a link set of one module",
        fix: "nothing to do",
    }
    ViewOfView = "BL0404", Warning, VncRemoteAddrMap {
        title: "remote view of a remote view",
        explanation: "A memory location's `remote_local_target` names a memory location on the owner core that is itself a remote view of a third one. vnc_remote_addr_map copies in partition order, each copy reading the tuple as it stands at that moment: when the middle view is copied later, the first one keeps the middle one's tuple from before the pass, and running the pass again gives another result.",
        example: "`buf` on core 0 targets `buf_c1` on core 1, whose `remote_local_target` is [`buf_c2`, 2]",
        fix: "point `remote_local_target` at the memory location that owns the buffer",
    }
    SyncBarrierCount = "BL0701", Warning, Sync {
        title: "a core issues another number of `CoreBarrier`s on an engine (sync: lockstep)",
        explanation: "The sync check (birlink's own, after vnc_link) counts each function's CoreBarriers per engine, lowered or not, on core 0 and on every other core. A barrier present on one core's path only is the public `NRT status 5` hang: the other core never reaches it, and the first waits until the execution timeout. It is reported where the two lists first part; `detail.counts` gives both counts. LncVerifier's 1187 counts the whole core before the link; this counts per function and engine after it.",
        example: "core 0's `sg0000` has 4 CoreBarriers on Pool, core 1's has 3",
        fix: "give every core the same CoreBarriers on that engine, in the same order: add the missing one on the core that lacks it, or remove it from the one that has it",
    }
    SyncBarrierName = "BL0702", Warning, Sync {
        title: "the k-th `CoreBarrier` is named (or numbered) otherwise than core 0's (sync: lockstep)",
        explanation: "Same count, but the k-th CoreBarrier of a function on an engine has another name than core 0's, else another id. The compiler names a barrier after the HLO instruction before it, so a drifted name (the public `NCC_IXLV002 Expected core barriers to have name …`) means the cores' programs differ before it: `detail.instructions_before_difference` says by how many instructions. Ids are compared only on a core with no BL0701, as a missing barrier shifts every later id.",
        example: "core 0 `CoreBarrier-0_480`, core 1 `CoreBarrier-0_180` (the sendrecv-called-twice sample)",
        fix: "make the cores' programs equal before this barrier: the instructions counted in `instructions_before_difference` came in on one core only",
    }
    SyncBlocks = "BL0703", Warning, Sync {
        title: "a function's basic blocks differ from core 0's (sync: control flow)",
        explanation: "The cores must run the same control flow (AWS: \"Programs with dynamic control flow that differs across cores may deadlock … not enforced at compile time\"). The function's blocks in walk order (a block, then its loops' bodies) differ in number or name from core 0's; `detail` gives both counts and the first difference. The compiler's NCC_IXGM002 and LncVerifier's 1192/1194 check the same before the link.",
        example: "`sg0000` has blocks `Block1, Block2` on core 0 and `Block1` on core 1",
        fix: "compile every core from the same program; a branch on a value that differs per core is the usual cause",
    }
    SyncTripCount = "BL0704", Warning, Sync {
        title: "a loop's trip count differs from core 0's (sync: control flow)",
        explanation: "The k-th `Loop` of a function runs another number of times on this core than on core 0 (an unknown count differs from a known one). Every barrier or semaphore inside it then pairs with the wrong iteration of the other core, or with nothing.",
        example: "`LoopAxis` `{ub: 8}` on core 0, `{ub: 4}` on core 1",
        fix: "give the loop the same bounds on every core; split per-core work with data, not with the loop's count",
    }
    SyncPipe = "BL0705", Warning, Sync {
        title: "a sendrecv has no partner on the rank it names (sync: sendrecv)",
        explanation: "A sendrecv (`pipe_id`, `send_to_rank`, `recv_from_rank`) pairs with the op of the same index on the same pipe of each rank it names (\"all operations in the group must complete before any can proceed\"). That op is missing, does not name this core back, or moves data another way (`detail.why`).",
        example: "core 0's 2nd op on pipe 3 names rank 1; core 1 has one op on pipe 3",
        fix: "issue the same sendrecv ops on every rank of the pipe, in the same order, with matching ranks and transport",
    }
    SyncDeadlock = "BL0706", Warning, Sync {
        title: "a lane never gets past its instruction: the cores hang (sync: deadlock)",
        explanation: "birlink's execution of the linked cores (round-robin over every engine and DMA queue of every core, birlink's reading) reached a state where no lane can issue and some are not done. At run time that is `NRT status 5` after the execution timeout. `detail` says what the lane waits for: a semaphore (its value, and every update of it in the set), or a rendezvous (the barrier or pipe, and the partners not arrived). When the verdict is not exact (`execution.not_exact`: a branch not followed, a loop bound assumed, an order the schedule chose, a barrier's write not in the dump), this is a note: the walk may have assumed its way into it.",
        example: "a CoreBarrier on core 0's Pool path only: core 0's Pool waits at it for core 1's Pool, which finished",
        fix: "start at the root lane (`execution.blocked[].root`): give its waited semaphore the update it lacks, or the missing barrier to its partner core",
    }
    SyncUnknownSemaphore = "BL0707", Warning, Sync {
        title: "a wait on a semaphore nothing updates (sync: input)",
        explanation: "A wait that does not hold at 0 on a semaphore no update in the whole set touches on that core: nothing can ever make it hold. Usually a remote update relinked to another id, or a semaphore id mistyped.",
        example: "\"on_wait\": [{\"id\": 9, \"wait_value\": 1}] and no `on_update` of semaphore 9 on that core",
        fix: "check which semaphore the producer updates (vnc_link's relocation for a remote one) and wait on that one",
    }
    SyncRace = "BL0708", Warning, Sync {
        title: "two cores touch shared memory with nothing ordering them (sync: race)",
        explanation: "Two accesses to one shared memory location (a `Shared` set, `is_shared_post_dram_alloc`, or a remote view's owner), on two cores, at least one a write, and no semaphore, rendezvous, DMA trigger or dependency orders the first before the second in birlink's execution (vector clocks, birlink's reading of the band model the compiler's `lnc_barriercheck` uses; off by default, `--enable-data-race-checker`). The result holds for this schedule.",
        example: "core 0 stores `buf`; core 1 loads its remote view of `buf` with no barrier between",
        fix: "put a CoreBarrier between the two on both cores, or have the writer's core signal a semaphore the reader waits for",
    }
    SyncLeftover = "BL0709", Note, Sync {
        title: "a semaphore ends at different values on the cores (sync: leftover)",
        explanation: "After an execution that completes, a semaphore's final value differs between cores. Left-over counts are how the next run's waits go wrong: a wait on a cumulative count starts higher on one core.",
        example: "semaphore 12 ends at 2 on core 0 and 0 on core 1",
        fix: "reset the semaphore at the end (GroupResetSemaphores), or update it equally often on every core",
    }
    SyncUnboundedLoop = "BL0710", Warning, Sync {
        title: "a loop without a static trip count (sync: input)",
        explanation: "A `Loop` whose `LoopAxis` has no integer bounds and no `iterations` or `trip_count`: the sync check takes it once, so its verdict holds only for this schedule.",
        example: "{\"opcode\": \"Loop\", \"LoopAxis\": {\"ub\": \"n\"}}",
        fix: "nothing to change in the program; give the dump integer bounds to have an exact verdict",
    }
    SyncBudget = "BL0711", Note, Sync {
        title: "the execution stopped at its budget of steps (sync: deadlock)",
        explanation: "birlink's execution issues at most max(10^6, 4 × the set's instructions) steps, so its work is bounded whatever the trip counts. It stopped there with some lane not done; `detail` names the unfinished loop with the largest trip count. Not a hang: the verdict is `stopped`, for this schedule.",
        example: "a Loop of 10^7 trips",
        fix: "nothing to fix in the program; check the loop's trip count if it is not what the kernel meant",
    }
    SyncNotModelled = "BL0712", Note, Sync {
        title: "something the sync check does not model (sync: input)",
        explanation: "A branch that is not a fall-through (issued, not followed), a call of an unknown or recursive function (not entered), a `sync_info` entry that cannot be read, or a DMA trigger naming no block. The check goes on without it, and its verdict holds only for this schedule. Real dumps after `lower_branch` loop through branches whose counts live in registers: there each body is walked once.",
        example: "{\"opcode\": \"CompareAndBranch\", \"on_true\": \"Block1\"}",
        fix: "nothing to change; a dump from before `lower_branch` has structured loops the check follows",
    }
    SyncLogBarriers = "BL0713", Warning, Sync {
        title: "the log's per-core barrier counts differ (sync: log)",
        explanation: "From a compiler log alone: each core's codegen `Instruction Stats` table counts its `PSEUDO_CORE_BARRIER`s (`UNKNOWN(0xd8)` in 2.24/2.25). The cores' totals differ, so one core will wait at a barrier the other never issues.",
        example: "nc00: PSEUDO_CORE_BARRIER 679, nc01: 678",
        fix: "dump the modules (`--internal-print-after=vnc_link`) and run `birlink check` on them to find the function and engine where the cores part",
    }
    BarrierCountMismatch = "1187", Warning, Verify {
        title: "cores have different numbers of `CoreBarrier`s",
        explanation: "LncVerifier: every core must execute the same CoreBarriers, or a core waits forever. The count per core differs from core 0's.",
        example: "core 0 has 3 CoreBarriers, core 1 has 2",
        fix: "make every core reach the same barriers; check the kernel's grid/LNC launch",
    }
    BarrierIdsNotDense = "1188", Warning, Verify {
        title: "`CoreBarrier` ids are not `0..k` in order",
        explanation: "LncVerifier: before linking, the i-th CoreBarrier of a core must have id i.",
        example: "ids 0, 2, 1",
        fix: "renumber the core's barriers 0..k in program order",
    }
    BarrierNameMismatch = "1189", Warning, Verify {
        title: "`CoreBarrier` name differs from core 0's",
        explanation: "LncVerifier: the i-th CoreBarrier must have the same name on every core (the public `NCC_IXLV002 Expected core barriers to have name …` failure).",
        example: "core 0 `LocalSendRecv-0_476_sr_cb_begin`, core 1 `LocalSendRecv-1_480_sr_cb_begin`",
        fix: "make the cores' barrier sequences match; sendrecv called twice in one traced graph is a known cause",
    }
    FunctionMissing = "1191", Warning, Verify {
        title: "a core lacks a function core 0 has",
        explanation: "LncVerifier: every function of core 0 must exist, by name, on every core.",
        example: "core 0 has `sg0001`, core 1 does not",
        fix: "compile every core from the same program",
    }
    BlockCountMismatch = "1192", Warning, Verify {
        title: "a function has a different number of blocks",
        explanation: "LncVerifier: a function must have the same number of blocks on every core.",
        example: "`sg0000` has 4 blocks on core 0 and 3 on core 1",
        fix: "compile every core from the same program",
    }
    FunctionCountMismatch = "1193", Warning, Verify {
        title: "cores have different numbers of functions",
        explanation: "LncVerifier: every core must have the same number of functions.",
        example: "core 0 has 2 functions, core 1 has 1",
        fix: "compile every core from the same program",
    }
    BlockOrderMismatch = "1194", Warning, Verify {
        title: "block names or order differ from core 0's",
        explanation: "LncVerifier: the blocks of a function must have the same names in the same order on every core.",
        example: "core 0 `Block1, Block2`, core 1 `Block2, Block1`",
        fix: "compile every core from the same program",
    }
    SharedAddressMismatch = "1195", Warning, Verify {
        title: "shared tensor's remote target missing or at another address",
        explanation: "LncVerifier: a shared post-DRAM-allocation location (`is_shared_post_dram_alloc`) with a `remote_local_target` must find its target by name on the owner core, at the same address (sync_shared_allocations copied it).",
        example: "view at addr 4096, owner at addr 8192",
        fix: "re-run the shared allocation passes; check that both cores were compiled together",
    }
    SharedAddressSetMismatch = "1196", Warning, Verify {
        title: "shared tensor addresses differ between cores",
        explanation: "LncVerifier: the addresses of shared post-DRAM-allocation locations must be the same set on every core.",
        example: "core 0 shares {0x1000, 0x2000}, core 1 {0x1000}",
        fix: "re-run the shared allocation passes; check that both cores were compiled together",
    }
    SharedWithoutRemoteTarget = "1197", Warning, Verify {
        title: "shared tensor without a remote target on core > 0",
        explanation: "LncVerifier: on every core but 0, a shared post-DRAM-allocation location must be a remote view (`remote_local_target`).",
        example: "core 1: {\"is_shared_post_dram_alloc\": true} without remote_local_target",
        fix: "mark the view remote (DRAM_Allocator::mark_remote does this)",
    }
    Sb2SbCountMismatch = "1198", Warning, Verify {
        title: "cores have different numbers of `GPSIMDSB2SB`",
        explanation: "LncVerifier: every core must execute the same number of GPSIMDSB2SB copies.",
        example: "core 0 has 2 GPSIMDSB2SB, core 1 has 1",
        fix: "compile every core from the same program",
    }
    MissingCoreId = "1203", Error, Verify {
        title: "module has no `neuron_core_id`",
        explanation: "LncVerifier: with more than one module, each must carry `attributes.neuron_core_id` (\"NeuronCoreId must be set when the LNC count is greater than 1\").",
        example: "{\"functions\": [...], \"attributes\": {}}",
        fix: "add `\"attributes\": {\"neuron_core_id\": <core>}` to the module",
    }
    VncLinkCoreCount = "1509", Error, VncLink {
        title: "partitions differ from `vnc_nc_count` (vnc_link)",
        explanation: "vnc_link needs one partition per virtual core (`modules.size() == options.vnc_nc_count`). In the full pipeline 1513 fires first; 1509 appears when vnc_link runs on its own.",
        example: "vnc_link alone on a 2-core linked module with --lnc 3",
        fix: "give one module per core, or set --lnc to the number of modules",
    }
    PeerUpdateMissing = "1511", Error, VncLink {
        title: "peer DMA block has no local update",
        explanation: "vnc_link relinks a remote update of core c's k-th remote DMA block from the first local (no `target_core`) `on_update` entry of core t's k-th remote DMA block. That peer block has none, or `target_core` names no core.",
        example: "peer block with \"on_update\": [{\"id\": 4, \"target_core\": 0}] only",
        fix: "give the peer DMA block its local semaphore update, or fix `target_core`",
    }
    RemoteBlockCountMismatch = "1512", Error, VncLink {
        title: "cores have different numbers of remote DMA blocks",
        explanation: "vnc_link pairs the k-th remote-notifying DMA block of one core with the k-th of its peer (`allEqual`): the SPMD cores must have the same number. The table gives the count per core.",
        example: "core 0: 3 DMA blocks with remote_notifications, core 1: 2",
        fix: "make the cores' remote DMA blocks match one to one",
    }
    VncAddrMapCoreCount = "1513", Error, VncRemoteAddrMap {
        title: "partitions differ from `vnc_nc_count`",
        explanation: "vnc_remote_addr_map needs one partition per virtual core (`modules.size() == options.vnc_nc_count`). `vnc_nc_count` comes from --lnc, the bundle's `options.lnc`, the netlist's `lnc`, or the number of modules, in that order.",
        example: "2 modules linked with --lnc 4",
        fix: "give one module per core, or fix the LNC setting",
    }
    RemoteMemlocMissing = "1514", Error, VncRemoteAddrMap {
        title: "remote memory location not found on its owner core",
        explanation: "A remote view's `remote_local_target [R, o]` names memory location R on core o, and core o has no location named R (`remote_mloc != nullptr`). The diagnostic lists the closest names on core o and the cores where R exists. The compiler makes the same look-up earlier, in `lower_local_collectives` (per subgraph, across the cores, before `bir_linker`), where a miss is the public `[NCC_ILLC059] Could not find MemoryLocation named … on core 1`: a compile that failed there never reaches this pass.",
        example: "on core 1: \"remote_local_target\": [\"out_tile_0\", 0] and core 0 calls it `out_tile`",
        fix: "rename the view's target or the owner's location so they match; a kernel launched without its LNC grid never materialises the buffer on the other core",
    }
}

impl Code {
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

    /// Looks a code up by its string, in any case (`bl0002`).
    pub fn parse(code: &str) -> Option<Code> {
        let wanted = code.trim().to_ascii_uppercase();
        Code::ALL.iter().copied().find(|c| c.as_str() == wanted)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Code {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        Code::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("unknown diagnostic code `{text}`")))
    }
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
