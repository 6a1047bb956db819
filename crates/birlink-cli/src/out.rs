//! Standard output that a closed pipe ends quietly: `birlink … | head` stops when
//! `head` has what it wants, as Unix tools do, instead of panicking on the broken pipe
//! (`println!` would). Any other write error is said on standard error.

use std::io::Write as _;

/// Writes formatted text to standard output.
pub fn write(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(error) = out.write_fmt(args) {
        gone(&error);
    }
}

fn gone(error: &std::io::Error) -> ! {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("birlink: cannot write to standard output: {error}");
    std::process::exit(2);
}

/// `print!` to standard output, quiet on a closed pipe.
macro_rules! out {
    ($($arg:tt)*) => { $crate::out::write(format_args!($($arg)*)) };
}

/// `println!` to standard output, quiet on a closed pipe.
macro_rules! outln {
    () => { $crate::out::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::out::write(format_args!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {out, outln};
