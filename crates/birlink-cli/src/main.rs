//! `birlink`: link per-core BIR modules from the command line.
//!
//! The binary only parses arguments, reads and writes files, and prints; everything
//! else is `birlink-core`, the same code the browser runs. Exit status: 0 when no error
//! diagnostic was reported, 1 when one was, 2 when the command could not run at all.

#![forbid(unsafe_code)]

mod files;
mod render;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use birlink_core::gen::{GenConfig, Layout};
use birlink_core::{Code, LinkOptions};

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
    Link(LinkArgs),
    /// Generate a synthetic SPMD link set, optionally with one injected fault.
    #[command(
        after_help = "Examples:\n  birlink gen --out set/                               # 2 cores, nc00.json nc01.json\n  birlink gen --cores 8 --insts 100000 --layout bundle --out big.json\n  birlink gen --fault 1514 --out broken/                # fails with 1514\n  birlink gen --cores 4 --ring --unknown-keys --out ring/"
    )]
    Gen(GenArgs),
    /// Print the canonical text of modules (per-core files, bundles, linked.json).
    Print {
        /// Files to print.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Explain a diagnostic code, or list them all.
    Explain {
        /// The code (`1514`, `BL0002`); all codes when omitted.
        code: Option<String>,
        /// Print the Markdown reference (`docs/diagnostics.md`).
        #[arg(long)]
        markdown: bool,
    },
    /// Write the sample link sets and their index (`www/samples/`).
    Samples {
        /// The folder to write.
        #[arg(long, default_value = "www/samples")]
        out: PathBuf,
    },
}

#[derive(Args)]
struct LinkArgs {
    /// Per-core module files, bundles, or folders of them.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Expected number of cores (vnc_nc_count); default: bundle, netlist, or the number of modules.
    #[arg(long)]
    lnc: Option<u64>,
    /// The link netlist (hlo_netlist.json).
    #[arg(long)]
    netlist: Option<PathBuf>,
    /// Where report.json and linked.json go.
    #[arg(long, default_value = ".")]
    out: PathBuf,
    /// Passes to run, comma-separated (a run of verify,bir_linker,vnc_remote_addr_map,vnc_link).
    #[arg(long, value_delimiter = ',')]
    passes: Option<Vec<String>>,
    /// Also write DIR/linked.txt, the canonical text of the linked module.
    #[arg(long)]
    text: bool,
    /// Refuse inputs larger than this many bytes in total (BL0010).
    #[arg(long)]
    max_input_bytes: Option<u64>,
    /// What to print: a readable summary, or report.json.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Print diagnostics only.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
}

#[derive(Args)]
struct GenArgs {
    /// Number of cores.
    #[arg(long, default_value_t = 2)]
    cores: u64,
    /// Instructions per core, approximately.
    #[arg(long, default_value_t = 200)]
    insts: usize,
    /// Shared HBM tensors handed from the other cores to core 0.
    #[arg(long, default_value_t = 2)]
    handoffs: usize,
    /// Remote-notifying DMA blocks per core.
    #[arg(long, default_value_t = 2)]
    remote_dma: usize,
    /// CoreBarriers per core.
    #[arg(long, default_value_t = 3)]
    barriers: usize,
    /// Depth of nested Loops.
    #[arg(long, default_value_t = 1)]
    loops: usize,
    /// Add unknown keys at every level.
    #[arg(long)]
    unknown_keys: bool,
    /// Add a netlist.
    #[arg(long)]
    netlist: bool,
    /// Add a ring of collective staging buffers.
    #[arg(long)]
    ring: bool,
    /// Write compact JSON (one line per file).
    #[arg(long)]
    compact: bool,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Inject one fault, by diagnostic code (see `birlink explain`).
    #[arg(long)]
    fault: Option<String>,
    /// One bundle file, or one file per core.
    #[arg(long, value_enum, default_value_t = LayoutArg::Files)]
    layout: LayoutArg,
    /// A folder (files layout) or a file (bundle layout).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Clone, Copy, ValueEnum)]
enum LayoutArg {
    Bundle,
    Files,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Link(args) => link(args),
        Command::Gen(args) => gen(args),
        Command::Print { inputs } => print(inputs),
        Command::Explain { code, markdown } => explain(code, markdown),
        Command::Samples { out } => samples(out),
    }
}

/// Reports a failure to run at all (exit 2).
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("{}: {message}", render::paint("error", render::Style::Error, render::stderr_color()));
    ExitCode::from(2)
}

fn link(args: LinkArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let mut sources = files::gather(&args.inputs);
    if let Some(netlist) = &args.netlist {
        sources.push(files::read_netlist(netlist));
    }
    if let Err(error) = std::fs::create_dir_all(&args.out) {
        return fail(format!("cannot create `{}`: {error}", args.out.display()));
    }
    let options = LinkOptions {
        lnc: args.lnc,
        passes: args.passes.clone(),
        max_input_bytes: args.max_input_bytes,
        input_bytes: None,
    };
    let outcome = birlink_core::run(sources, &options);
    let report_path = args.out.join("report.json");
    let linked_path = args.out.join("linked.json");
    let text_path = args.out.join("linked.txt");
    let mut written = Vec::new();
    if let Err(error) = std::fs::write(&report_path, birlink_core::report_json(&outcome)) {
        return fail(format!("cannot write `{}`: {error}", report_path.display()));
    }
    written.push(report_path.clone());
    match &outcome.linked {
        Some(module) => {
            let written_ok = std::fs::File::create(&linked_path).and_then(|file| {
                let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
                birlink_core::json::write::write_module(module, &mut out)?;
                std::io::Write::flush(&mut out)
            });
            if let Err(error) = written_ok {
                return fail(format!("cannot write `{}`: {error}", linked_path.display()));
            }
            written.push(linked_path.clone());
            if args.text {
                if let Some(module) = &outcome.linked {
                    if let Err(error) = std::fs::write(&text_path, birlink_core::print::module_text(module)) {
                        return fail(format!("cannot write `{}`: {error}", text_path.display()));
                    }
                    written.push(text_path.clone());
                }
            }
        }
        None => {
            // A stale linked module from an earlier run must not pass for this one's.
            for stale in [&linked_path, &text_path] {
                if stale.exists() {
                    if let Err(error) = std::fs::remove_file(stale) {
                        return fail(format!("cannot remove stale `{}`: {error}", stale.display()));
                    }
                }
            }
        }
    }
    match args.format {
        Format::Json => print!("{}", birlink_core::report_json(&outcome)),
        Format::Human => {
            if !args.quiet {
                print!("{}", render::summary(&outcome.report, &written, started.elapsed()));
            }
            eprint!("{}", render::diagnostics(&outcome, render::stderr_color()));
            if !args.quiet {
                eprint!("{}", render::verdict(&outcome.report, render::stderr_color()));
            }
        }
    }
    if birlink_core::diag::has_errors(&outcome.report.diagnostics) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn gen(args: GenArgs) -> ExitCode {
    let fault = match args.fault.as_deref().map(|c| (c, Code::parse(c))) {
        None => None,
        Some((_, Some(code))) if code != Code::InputTooLarge => Some(code),
        Some((text, _)) => {
            return fail(format!("`{text}` is not a code a fault can be injected for; see `birlink explain`"));
        }
    };
    let config = GenConfig {
        cores: args.cores.max(1),
        insts: args.insts,
        handoffs: args.handoffs,
        remote_dma: args.remote_dma,
        barriers: args.barriers,
        loop_depth: args.loops,
        unknown_keys: args.unknown_keys,
        netlist: args.netlist,
        ring: args.ring,
        compact: args.compact,
        seed: args.seed,
        fault,
    };
    let layout = match args.layout {
        LayoutArg::Bundle => Layout::Bundle,
        LayoutArg::Files => Layout::Files,
    };
    let generated = birlink_core::gen::generate(&config, layout);
    let mut total = 0usize;
    for file in &generated {
        let path = match layout {
            Layout::Bundle if file.path == "linkset.json" => args.out.clone(),
            Layout::Bundle => args.out.with_file_name(&file.path),
            Layout::Files => args.out.join(&file.path),
        };
        if let Some(parent) = path.parent() {
            if let Err(error) = std::fs::create_dir_all(parent) {
                return fail(format!("cannot create `{}`: {error}", parent.display()));
            }
        }
        if let Err(error) = std::fs::write(&path, &file.bytes) {
            return fail(format!("cannot write `{}`: {error}", path.display()));
        }
        total += file.bytes.len();
        println!("wrote {} ({})", path.display(), birlink_core::input::human_bytes(file.bytes.len() as u64));
    }
    println!(
        "{}, {} in all",
        birlink_core::diag::counted(generated.len(), "file"),
        birlink_core::input::human_bytes(total as u64)
    );
    ExitCode::SUCCESS
}

fn print(inputs: Vec<PathBuf>) -> ExitCode {
    let sources = files::gather(&inputs);
    let mut diags = Vec::new();
    let set = birlink_core::input::load(sources, None, None, &mut diags, &mut |_, _| {});
    let mut first = true;
    for module in &set.modules {
        if !first {
            println!();
        }
        first = false;
        if set.modules.len() > 1 {
            println!("; {} ({})", module.name, set.path(module.file));
        }
        print!("{}", birlink_core::print::module_text(&module.module));
    }
    let failed = birlink_core::diag::has_errors(&diags);
    for diagnostic in &diags {
        eprintln!("{}: [{}] {}", diagnostic.severity.as_str(), diagnostic.code, diagnostic.message);
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn explain(code: Option<String>, markdown: bool) -> ExitCode {
    if markdown {
        print!("{}", birlink_core::codes::markdown_reference());
        return ExitCode::SUCCESS;
    }
    match code {
        None => {
            for code in Code::ALL {
                let info = code.info();
                println!("{:<7} {:<8} {:<20} {}", info.code, info.severity.as_str(), info.pass, info.title);
            }
            ExitCode::SUCCESS
        }
        Some(text) => match Code::parse(&text) {
            Some(code) => {
                let info = code.info();
                println!("{} — {} ({} in `{}`)\n", info.code, info.title, info.severity.as_str(), info.pass);
                println!("{}\n", info.explanation);
                println!("Example:\n    {}\n", info.example.replace('\n', "\n    "));
                println!("Fix: {}.", info.fix);
                ExitCode::SUCCESS
            }
            None => fail(format!("unknown code `{text}`; `birlink explain` lists them")),
        },
    }
}

fn samples(out: PathBuf) -> ExitCode {
    if let Err(error) = std::fs::create_dir_all(&out) {
        return fail(format!("cannot create `{}`: {error}", out.display()));
    }
    let all = birlink_core::samples::all();
    for (info, bytes) in &all {
        if let Err(error) = std::fs::write(out.join(&info.file), bytes) {
            return fail(format!("cannot write `{}`: {error}", info.file));
        }
    }
    let index: Vec<_> = all.iter().map(|(info, _)| info).collect();
    let text = birlink_core::json::write::to_pretty_string(&index);
    if let Err(error) = std::fs::write(out.join("index.json"), text) {
        return fail(format!("cannot write index.json: {error}"));
    }
    println!("wrote {} samples and index.json to {}", all.len(), out.display());
    ExitCode::SUCCESS
}
