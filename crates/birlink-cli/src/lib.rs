//! `birlink`: link per-core BIR modules from the command line.
//!
//! The CLI only parses arguments, reads and writes files, serves the inspector on
//! loopback (`birlink open`), and prints; everything else is `birlink-core`, the same
//! code the browser runs. One module per subcommand under `cmd/`, each an `Args` struct
//! with a `run`. Exit status: 0 when no error diagnostic was reported, 1 when one was,
//! 2 when the command could not run at all.
//!
//! A library as well as a binary: [`run`] is the whole command line, which the Python
//! package's `birlink` command calls in-process; [`files`] reads inputs as the CLI does.

#![forbid(unsafe_code)]

pub mod cmd;
pub mod files;
pub mod link_dir;
mod out;
pub mod render;
pub mod web;

use std::ffi::OsString;

use clap::{Parser, Subcommand};

/// The version and the commit this build came from (`birlink --version`).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("BIRLINK_COMMIT"), ")");

#[derive(Parser)]
#[command(
    name = "birlink",
    version = VERSION,
    about = "Link per-core Neuron BIR modules (bir_linker, vnc_remote_addr_map, vnc_link) and explain every failure",
    after_help = "Examples:\n  birlink link www/samples/matmul-2core.json --out out/\n  birlink link dump/ --lnc 2            # a folder of nc*/sg*/*.json\n  birlink link nc00.json nc01.json --netlist hlo_netlist.json\n  birlink gen --cores 8 --insts 100000 --out big/\n  birlink explain 1514\n  birlink check out/linked.json          # will the linked cores hang or race?\n\nExit status: 0 linked (warnings allowed), 1 an error diagnostic, 2 bad arguments."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Link per-core modules: writes DIR/report.json, and DIR/linked.json unless bir_linker failed.
    #[command(
        after_help = "Examples:\n  birlink link nc00.json nc01.json\n  birlink link www/samples/matmul-2core.json --out out/ --text\n  birlink link dump/ --lnc 2 --format json > report.json\n  birlink link out/linked.json --passes vnc_remote_addr_map,vnc_link\n\nExit status: 0 no error, 1 at least one error diagnostic (a missing INPUT is one), 2 bad arguments."
    )]
    Link(cmd::link::LinkArgs),
    /// Will these linked cores hang or race? The sync check alone, on a set already linked (or a compiler log).
    #[command(
        after_help = "Examples:\n  birlink check out/linked.json\n  birlink check workdir/nc00/sgLnk workdir/nc01/sgLnk --deny sync\n  birlink check out/linked.json --format json --out check/\n  birlink check --log log-neuron-cc.txt\n\nRuns no pass: remote ids are taken as they are. birlink's own check, not a compiler pass; its model of BIR's execution is birlink's reading (docs/sync.md).\n\nExit status: 0 no error (sync findings are warnings and notes), 1 an error (under --deny sync, any sync warning), 2 bad arguments."
    )]
    Check(cmd::check::CheckArgs),
    /// Generate a synthetic SPMD link set, optionally with one injected fault.
    #[command(
        after_help = "Examples:\n  birlink gen --out set/                               # 2 cores, nc00.json nc01.json\n  birlink gen --cores 8 --insts 100000 --layout bundle --out big.json\n  birlink gen --fault 1514 --out broken/                # fails with 1514\n  birlink gen --cores 4 --ring --unknown-keys --out ring/"
    )]
    Gen(cmd::gen::GenArgs),
    /// Print the canonical text of modules (per-core files, bundles, linked.json).
    Print(cmd::print::PrintArgs),
    /// Shrink a failing link set to a small bundle that fails the same way.
    #[command(
        after_help = "Examples:\n  birlink reduce dump/ --out repro.json\n  birlink reduce nc00.json nc01.json --code NCC_ILLC059 --out repro.json\n  birlink reduce big/ --keep-names --out repro.json\n\nExit status: 0 reduced, 1 the input does not fail (or does not report --code), 2 bad arguments."
    )]
    Reduce(cmd::reduce::ReduceArgs),
    /// Print a link that carries the link set (the page's Share, byte for byte).
    #[command(
        after_help = "Examples:\n  birlink share nc00.json nc01.json\n  birlink share dump/ --view diagnostics --base https://example.org/birlink/\n  birlink share big/ --bundle big-linkset.json    # too big for a link\n\nExit status: 0 the link is printed, 1 it would be over the budget, 2 bad arguments."
    )]
    Share(cmd::share::ShareArgs),
    /// Compare two link sets, each linked: rank 0 against rank 1, LNC 1 against LNC 2, before against after.
    #[command(
        after_help = "Examples:\n  birlink diff rank0/ --against rank1/\n  birlink diff lnc1/ --against lnc2/ --against-lnc 2\n  birlink diff one-call.json --against two-calls.json --normalize numbers\n  birlink diff a/ --against b/ --core-map 0:1,1:0 --format json\n\nExit status: 0 the two agree, 1 they differ, 2 bad arguments."
    )]
    Diff(cmd::diff::DiffArgs),
    /// Explain a diagnostic code, or list them all.
    Explain(cmd::explain::ExplainArgs),
    /// Where did the cores part? Every dumped pass of a work directory, per core, and one entity through them.
    #[command(
        after_help = "Examples:\n  birlink history workdir/\n  birlink history workdir/ --entity inst__I-3-0:src\n  birlink history workdir/ --subgraph 0 --format json\n\nReads the dumps one at a time (`bir_debug.<n>.after-<pass>…json` per module), in the log's order of passes when a log-neuron-cc.txt is there.\n\nExit status: 0 read, 2 bad arguments or no dump."
    )]
    History(cmd::history::HistoryArgs),
    /// Open the inspector on these files in the browser, served on this machine only.
    #[command(
        after_help = "Examples:\n  birlink open nc00.json nc01.json\n  birlink open workdir/ --view diagnostics\n  birlink open dump/ --no-browser --port 8731     # on a remote machine: ssh -L 8731:127.0.0.1:8731 host\n\nServes the inspector and exactly the files named (folders as `birlink link` reads them) on 127.0.0.1, under a path no one can guess, until Ctrl-C. Nothing leaves the machine."
    )]
    Open(cmd::open::OpenArgs),
}

/// Runs the command line `args` (the program's name first): its exit status.
pub fn run(args: impl IntoIterator<Item = impl Into<OsString> + Clone>) -> u8 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            // `--help` and `--version` are "errors" clap prints to standard output.
            let status = if error.use_stderr() { 2 } else { 0 };
            let _ = error.print();
            return status;
        }
    };
    let result = match cli.command {
        Command::Link(args) => args.run(),
        Command::Check(args) => args.run(),
        Command::Gen(args) => args.run(),
        Command::Print(args) => args.run(),
        Command::Share(args) => args.run(),
        Command::Reduce(args) => args.run(),
        Command::Diff(args) => args.run(),
        Command::Explain(args) => args.run(),
        Command::History(args) => args.run(),
        Command::Open(args) => args.run(),
    };
    match result {
        Ok(status) => status.0,
        Err(error) => {
            eprintln!("{}: {error}", render::paint("error", render::Style::Error, render::stderr_color()));
            2
        }
    }
}
