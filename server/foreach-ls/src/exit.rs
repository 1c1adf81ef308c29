//! Exit statuses, one meaning each, shared by every command.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// No error diagnostics (warnings allowed unless `--deny-warnings`).
    Clean = 0,
    /// Diagnostics of error severity (or warnings with `--deny-warnings`).
    Diagnostics = 1,
    /// Bad usage or an IO failure before analysis: the message is on stderr.
    Usage = 2,
    /// `serve` ended without the client's `shutdown` request (`exit` alone, or the client went away): 1, as the
    /// LSP `exit` notification asks.
    ServeWithoutShutdown = 3,
    /// `fmt --check` found a file that needs formatting: 3, as `tofu fmt -check`.
    NeedsFormatting = 4,
}

impl ExitStatus {
    pub fn code(self) -> i32 {
        match self {
            ExitStatus::ServeWithoutShutdown => 1,
            ExitStatus::NeedsFormatting => 3,
            s => s as i32,
        }
    }
}
