//! The project file's errors in plain words. `toml` and `serde` describe a wrong value in serde's data model
//! ("invalid type: string \"a\", expected a sequence") and an unknown key as an unknown field; a person editing
//! `foreach-ls.toml` thinks in TOML's words (an array, a table, a key), wants to know which key is wrong, and what
//! was probably meant.

use std::ops::Range;

use foreach_analysis::suggest::closest;

/// `message` (serde's, for the value at `span` of the project file `text`) in TOML's words.
pub(crate) fn plain(message: &str, text: &str, span: Range<usize>) -> String {
    if let Some(rest) = message.strip_prefix("invalid type: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        let key = key_before(text, span.start).map(|k| format!(" for `{k}`")).unwrap_or_default();
        return format!("expected {}{key}, found {}", expected_value(expected), found_value(found));
    }
    if let Some(rest) = message.strip_prefix("unknown field `")
        && let Some((name, known)) = rest.split_once('`')
    {
        return unknown_key(name, &known_names(known));
    }
    message.to_string()
}

/// "unknown key `var_file`; did you mean `var_files`?", with the keys allowed there.
fn unknown_key(name: &str, known: &[&str]) -> String {
    let listed = known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
    let mut msg = format!("unknown key `{name}`");
    if let Some(s) = closest(name, known.iter().copied()) {
        msg.push_str(&format!("; did you mean `{s}`?"));
    }
    match known.len() {
        0 => msg.push_str(" (this table takes no keys)"),
        1 => msg.push_str(&format!(" (the only key here is {listed})")),
        _ => msg.push_str(&format!(" (the keys here are {listed})")),
    }
    msg
}

/// The names in serde's ", expected one of `a`, `b`" or ", expected `a`" (nothing for ", there are no fields").
fn known_names(rest: &str) -> Vec<&str> {
    rest.split('`').skip(1).step_by(2).collect()
}

/// What serde expected, in TOML's words.
fn expected_value(expected: &str) -> String {
    match expected {
        "a sequence" => "an array".to_string(),
        "a map" => "a table".to_string(),
        "a borrowed string" => "a string".to_string(),
        other => other.to_string(),
    }
}

/// What serde found (`string "a"`, ``integer `1` ``, `sequence`), in TOML's words.
fn found_value(found: &str) -> String {
    let literal = |prefix: &str| found.strip_prefix(prefix).map(|v| v.trim_matches('`').to_string());
    if let Some(s) = found.strip_prefix("string ") {
        return format!("the string {s}");
    }
    if let Some(n) = literal("integer ").or_else(|| literal("floating point ")) {
        return format!("the number {n}");
    }
    if let Some(b) = literal("boolean ") {
        return format!("`{b}`");
    }
    match found {
        "sequence" => "an array".to_string(),
        "map" => "a table".to_string(),
        other => other.to_string(),
    }
}

/// The key of a `key = value` whose value starts at `offset` on the same line (`None` for an array element, a
/// table header, or a value that starts a line).
fn key_before(text: &str, offset: usize) -> Option<&str> {
    let line = text.get(..offset)?.rsplit('\n').next()?;
    let before = line.trim_end().strip_suffix('=')?.trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '"' | '\'')))
        .map_or(0, |i| i + 1);
    let key = before[start..].trim_matches(['"', '\'']);
    (!key.is_empty()).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::plain;

    fn at(text: &str, value: &str) -> std::ops::Range<usize> {
        let start = text.rfind(value).unwrap();
        start..start + value.len()
    }

    #[test]
    fn wrong_values_in_tomls_words_with_their_key() {
        let text = "exclude = \"a\"\n";
        assert_eq!(
            plain("invalid type: string \"a\", expected a sequence", text, at(text, "\"a\"")),
            "expected an array for `exclude`, found the string \"a\""
        );
        let text = "exclude = [1]\n";
        assert_eq!(
            plain("invalid type: integer `1`, expected a string", text, at(text, "1")),
            "expected a string, found the number 1"
        );
        let text = "[environments.prod]\n\"variables\" = [\"a\"]\n";
        assert_eq!(
            plain("invalid type: sequence, expected a map", text, at(text, "[\"a\"]")),
            "expected a table for `variables`, found an array"
        );
        let text = "[environments.prod]\nworkspace = true\n";
        assert_eq!(
            plain("invalid type: boolean `true`, expected a string", text, at(text, "true")),
            "expected a string for `workspace`, found `true`"
        );
    }

    #[test]
    fn unknown_keys_get_the_closest_and_the_keys_allowed() {
        let msg = "unknown field `var_file`, expected one of `var_files`, `variables`, `workspace`, `roots`";
        assert_eq!(
            plain(msg, "", 0..0),
            "unknown key `var_file`; did you mean `var_files`? (the keys here are `var_files`, `variables`, \
             `workspace`, `roots`)"
        );
        assert_eq!(
            plain("unknown field `colour`, expected `exclude`", "", 0..0),
            "unknown key `colour` (the only key here is `exclude`)"
        );
        // Anything else is left as it is.
        assert_eq!(plain("unclosed array, expected `]`", "", 0..0), "unclosed array, expected `]`");
    }
}
