//! `birlink`: link per-core BIR modules from the command line.
//!
//! The binary only parses arguments, reads and writes files, and prints; everything
//! else is `birlink-core`, the same code the browser runs. One module per subcommand
//! under `cmd/`, each an `Args` struct with a `run`. Exit status: 0 when no error
//! diagnostic was reported, 1 when one was, 2 when the command could not run at all.

#![forbid(unsafe_code)]

mod cmd;
mod files;
mod out;
mod render;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "birlink",
    version,
    about = "Link per-core Neuron BIR modules (bir_linker, vnc_remote_addr_map, vnc_link) and explain every failure",
    after_help = "Examples:\n  birlink link www/samples/matmul-2core.json --out out/\n  birlink link dump/ --lnc 2            # a folder of nc*/sg*/*.json\n  birlink link nc00.json nc01.json --netlist hlo_netlist.json\n  birlink gen --cores 8 --insts 100000 --out big/\n  birlink explain 1514\n\nExit status: 0 linked (warnings allowed), 1 an error diagnostic, 2 bad arguments."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Link per-core modules: writes DIR/report.json, and DIR/linked.json unless bir_linker failed.
    #[command(
        after_help = "Examples:\n  birlink link nc00.json nc01.json\n  birlink link www/samples/matmul-2core.json --out out/ --text\n  birlink link dump/ --lnc 2 --format json > report.json\n  birlink link out/linked.json --passes vnc_remote_addr_map,vnc_link\n\nExit status: 0 no error, 1 at least one error diagnostic (a missing INPUT is one), 2 bad arguments."
    )]
    Link(cmd::link::LinkArgs),
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
    /// Explain a diagnostic code, or list them all.
    Explain(cmd::explain::ExplainArgs),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Link(args) => args.run(),
        Command::Gen(args) => args.run(),
        Command::Print(args) => args.run(),
        Command::Share(args) => args.run(),
        Command::Reduce(args) => args.run(),
        Command::Explain(args) => args.run(),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("{}: {error}", render::paint("error", render::Style::Error, render::stderr_color()));
            ExitCode::from(2)
        }
    }
}
