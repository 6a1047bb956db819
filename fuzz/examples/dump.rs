//! Writes the files a fuzz input stands for, to turn a finding into a regression case:
//!
//!     cargo run --example dump -- <target> <input> <out-dir>
//!
//! `<target>` is `read_bytes`, `link_set` or `mutate_generated`. The files land in
//! `<out-dir>` (in their folders) with `options.json` (`lnc`, `passes`, `flow`) next to
//! them.

use std::{env, fs, path::Path, process::ExitCode};

use arbitrary::{Arbitrary, Unstructured};

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let [target, input, out] = args.as_slice() else {
        eprintln!("usage: dump <read_bytes|link_set|mutate_generated> <input> <out-dir>");
        return ExitCode::from(2);
    };
    let data = match fs::read(input) {
        Ok(data) => data,
        Err(e) => {
            eprintln!("{input}: {e}");
            return ExitCode::from(2);
        }
    };
    let (files, options) = match target.as_str() {
        "read_bytes" => (birlink_fuzz::split_files(&data), birlink_core::LinkOptions::default()),
        "link_set" => match birlink_fuzz::FuzzSet::arbitrary_take_rest(Unstructured::new(&data)) {
            Ok(set) => set.sources(),
            Err(e) => {
                eprintln!("not a link_set input: {e}");
                return ExitCode::from(2);
            }
        },
        "mutate_generated" => match birlink_fuzz::Mutated::arbitrary_take_rest(Unstructured::new(&data)) {
            Ok(m) => m.sources(),
            Err(e) => {
                eprintln!("not a mutate_generated input: {e}");
                return ExitCode::from(2);
            }
        },
        other => {
            eprintln!("unknown target `{other}`");
            return ExitCode::from(2);
        }
    };
    let out = Path::new(out);
    if let Err(e) = fs::create_dir_all(out) {
        eprintln!("{}: {e}", out.display());
        return ExitCode::from(2);
    }
    for file in &files {
        let bytes = file.content.clone().read().unwrap_or_default();
        let at = out.join(&file.path);
        if let Some(dir) = at.parent() {
            let _ = fs::create_dir_all(dir);
        }
        if let Err(e) = fs::write(&at, bytes) {
            eprintln!("{}: {e}", file.path);
            return ExitCode::from(2);
        }
    }
    let options =
        serde_json::json!({"lnc": options.lnc, "passes": options.passes, "flow": options.flow.map(|f| f.as_str())});
    let _ = fs::write(out.join("options.json"), format!("{options:#}\n"));
    println!("wrote {} file(s) to {}", files.len(), out.display());
    match birlink_core::tools::selfcheck::check_run(files, &options_of(&options)) {
        Ok(()) => println!("the invariants hold"),
        Err(problem) => println!("invariant broken: {problem}"),
    }
    ExitCode::SUCCESS
}

fn options_of(value: &serde_json::Value) -> birlink_core::LinkOptions {
    birlink_core::LinkOptions {
        flow: value["flow"].as_str().and_then(birlink_core::Flow::parse),
        lnc: value["lnc"].as_u64(),
        passes: value["passes"].as_array().map(|a| a.iter().filter_map(|p| p.as_str().map(str::to_owned)).collect()),
        ..birlink_core::LinkOptions::default()
    }
}
