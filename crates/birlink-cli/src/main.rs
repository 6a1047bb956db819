//! The `birlink` binary: the command line of [`birlink_cli::run`].

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(birlink_cli::run(std::env::args_os()))
}
