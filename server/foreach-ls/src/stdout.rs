//! A command's report on standard output. A reader that stops early (`foreach-ls check | head -1`) is not an
//! error: the command stops quietly with status 0, as `cat` or `grep` do in a pipeline; any other failure to write
//! is one, said on standard error (exit 2).

use std::io::{ErrorKind, IsTerminal, Write};

use crate::exit::ExitStatus;

/// Writes `text` to standard output; `Err` is the status the command ends with now.
pub fn print(text: &str) -> Result<(), ExitStatus> {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    match lock.write_all(text.as_bytes()).and_then(|_| lock.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Err(ExitStatus::Clean),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "foreach-ls: cannot write to standard output: {e}");
            Err(ExitStatus::Usage)
        }
    }
}

/// Whether a report on standard output may be coloured: not with `--no-color` (`no_color`), not into a pipe or a
/// file, not when `NO_COLOR` is set (no-color.org).
pub fn color_wanted(no_color: bool) -> bool {
    !no_color && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}
