//! Test-only support: loads fixture directories, parses the inline `# ^^^ error[code]` annotations and compares
//! them with the diagnostics the analysis produces, in both directions.
