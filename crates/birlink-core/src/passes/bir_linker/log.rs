//! `bir_linker`'s own log, in the compiler's words (docs/spec/link.md §3.7):
//! `bir_linker.log`, line for line what the compiler's `BirLinker` prints for the same
//! input, so a user can hold the two side by side.
//!
//! Each core's block is framed by the `CoreForkPass` lines (`Running bir_linker`,
//! `Inputs to bir_linker: modules=… allocs=…`, `Output has 1 module(s), …`) and holds
//! the `BirLinker` lines in the compiler's order and spelling: the number of
//! intermediates, one block of def lines per definition (its first partition's names),
//! `Num Module Definitions`, the call-graph lines, and per definition the
//! `moving sgNNNN` … `copyTensorMapForFunc2 sgNNNN done` lines with its `Inp[k]` and
//! `Out[k]`. Lines birlink cannot know are left out, never invented: the modules'
//! unique ids (`Module.getUniqueId() N`), `PostLink Stats`, `Max writers`, times.
//! **birlink's reading**: the `Output has` line carries the `CoreForkPass` prefix; a
//! failed link ends its block with `bir_linker failed` (the compiler's
//! `<pass> failed after S seconds`, less the time); the tensor-map lines say what the
//! run did (no collisions and a successful check when no map was merged).
//!
//! The VNC passes' lines that end the file are [`vnc_lines`].

use super::bindings::{function_name, Bindings, Formal};
use crate::model::ir::Module;
use crate::model::place::{CoreId, Scope};
use crate::output::log::{LogLine, Logger};

/// What the compiler's `Inputs to <pass>:` and `Output has …` lines count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Modules.
    pub modules: u64,
    /// Functions.
    pub functions: u64,
    /// Memory locations (the compiler's `allocs`).
    pub allocs: u64,
    /// Blocks.
    pub blocks: u64,
    /// Instructions.
    pub instructions: u64,
}

impl Counts {
    /// The sums over some modules.
    pub fn of<'m>(modules: impl IntoIterator<Item = &'m Module>) -> Counts {
        let mut counts = Counts::default();
        for module in modules {
            counts.modules += 1;
            counts.functions += module.store.functions.len() as u64;
            counts.allocs += module.store.memlocs.len() as u64;
            counts.blocks += module.store.blocks.len() as u64;
            counts.instructions += module.store.insts.len() as u64;
        }
        counts
    }

    /// `modules=S functions=F allocs=A blocks=B instructions=I`.
    pub fn inputs_line(&self) -> String {
        format!(
            "modules={} functions={} allocs={} blocks={} instructions={}",
            self.modules, self.functions, self.allocs, self.blocks, self.instructions
        )
    }
}

/// What the link directory and tensor-map steps did, for the `Symlinking …` and
/// tensor-map lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkDirLines {
    /// `# Internal tensor-map collisions: K`.
    pub collisions: usize,
    /// Whether the merged map holds (`tensor_map verification successful.`); birlink's
    /// reading: no entry names nothing, none is laid out two ways, every map was read.
    pub verified: bool,
    /// The core's folder (`WORK/nc00`).
    pub core_dir: String,
    /// The linked module's folder (`WORK/nc00/sgLnk`).
    pub link_dir: String,
    /// Where the merged tensor map was written, when it was.
    pub tensor_map: Option<String>,
}

/// One core's block.
pub fn core_block(
    core: u64,
    before: &Counts,
    bindings: &Bindings,
    linked: &Module,
    link_dir: Option<&LinkDirLines>,
    failed: bool,
) -> Vec<LogLine> {
    let core = CoreId(core);
    let fork = |message: String| LogLine::on(Scope::Core(core), Logger::CoreForkPass, message);
    let mut lines =
        vec![fork("Running bir_linker".to_owned()), fork(format!("Inputs to bir_linker: {}", before.inputs_line()))];
    let say = |lines: &mut Vec<LogLine>, text: String| {
        lines.push(LogLine::on(Scope::Module(core.linked()), Logger::BirLinker, text));
    };
    say(&mut lines, format!("Num intermediates {}", bindings.intermediates));
    for definition in &bindings.definitions {
        let d = definition.def;
        for formal in definition.formals.iter().filter(|f| f.role.is_input()) {
            let name = tensor(formal);
            say(
                &mut lines,
                if formal.role.is_intermediate() {
                    format!("def[{d}] InternalOnlyInps \"{name}\"")
                } else {
                    format!("def[{d}] \"{name}\" not-internalOnly instInp \"{name}\"")
                },
            );
        }
        for formal in definition.formals.iter().filter(|f| !f.role.is_input()) {
            let name = tensor(formal);
            say(
                &mut lines,
                if formal.role.is_intermediate() {
                    format!("def[{d}] InternalOnlyOuts \"{name}\"")
                } else {
                    format!("def[{d}] \"{name}\" not-internalOnly instout \"{name}\"")
                },
            );
        }
    }
    say(&mut lines, format!("Num Module Definitions {}", bindings.definitions.len()));
    say(&mut lines, "Linking to a call-graph structure".to_owned());
    if let Some(dir) = link_dir {
        say(&mut lines, format!("Symlinking npy files to {}/sg00", dir.link_dir));
        say(&mut lines, format!("Symlinking debug_info files from {} to {}", dir.core_dir, dir.link_dir));
        say(&mut lines, format!("Symlinking .so files from {} to {}", dir.core_dir, dir.link_dir));
    }
    say(&mut lines, "moveModulesAsFunctions...".to_owned());
    for definition in &bindings.definitions {
        let function = function_name(definition.subgraph);
        say(&mut lines, format!("moving {function}"));
        say(&mut lines, format!("moving {function} done"));
        for (k, formal) in definition.formals.iter().filter(|f| f.role.is_input()).enumerate() {
            say(&mut lines, format!(" Inp[{k}] {}", tensor(formal)));
        }
        for (k, formal) in definition.formals.iter().filter(|f| !f.role.is_input()).enumerate() {
            say(&mut lines, format!(" Out[{k}] {}", tensor(formal)));
        }
        say(&mut lines, format!("mark funcArgs {function} done"));
        say(&mut lines, "update queues done".to_owned());
        say(&mut lines, format!("copyTensorMapForFunc2 {function} done"));
    }
    if failed {
        lines.push(fork("bir_linker failed".to_owned()));
        return lines;
    }
    let collisions = link_dir.map_or(0, |d| d.collisions);
    say(&mut lines, format!("moveModulesAsFunctions #1... Done. # Internal tensor-map collisions: {collisions}"));
    if link_dir.is_none_or(|d| d.verified) {
        say(&mut lines, "tensor_map verification successful.".to_owned());
    } else {
        say(&mut lines, "tensor_map verification failed after linking".to_owned());
    }
    if let Some(path) = link_dir.and_then(|d| d.tensor_map.as_deref()) {
        say(&mut lines, format!("Writing updated tensor_map {path}"));
    }
    say(&mut lines, "releasing pre-link modules".to_owned());
    say(&mut lines, "linking Done.".to_owned());
    let after = Counts::of([linked]);
    lines.push(fork(format!(
        "Output has 1 module(s), {} function(s), {} memory location(s), {} block(s), and {} instruction(s).",
        after.functions, after.allocs, after.blocks, after.instructions
    )));
    lines
}

/// The name a formal's `Inp[k]`/`Out[k]` line prints: its first partition's tensor,
/// else its set's name.
fn tensor(formal: &Formal) -> &str {
    formal.tensor.as_deref().unwrap_or(&formal.set)
}

/// The VNC passes' lines (`[BackendPassManager]`, `[VncLink]`): `before` counts the
/// modules `vnc_remote_addr_map` is given; `remote_updates` is what `vnc_link` found,
/// when it ran.
pub fn vnc_lines(before: &Counts, address_map_ran: bool, remote_updates: Option<usize>) -> Vec<LogLine> {
    let manager = |message: String| LogLine::across(Logger::BackendPassManager, message);
    let mut lines = Vec::new();
    if address_map_ran {
        lines.push(manager("Running vnc_remote_addr_map".to_owned()));
        lines.push(manager(format!("Inputs to vnc_remote_addr_map: {}", before.inputs_line())));
    }
    if let Some(found) = remote_updates {
        lines.push(manager("Running vnc_link".to_owned()));
        lines.push(LogLine::across(Logger::VncLink, format!("Found {found} remote updates")));
    }
    lines
}
