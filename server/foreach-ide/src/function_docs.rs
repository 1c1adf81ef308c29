//! What foreach-ls says about each built-in function: its signature, one line on what it does (our own words),
//! and the OpenTofu version that added it when that is newer than 1.6 (the first OpenTofu release). Read by hover
//! and signature help; a test checks that every function the evaluator knows (`eval::functions::names`) has an
//! entry here.

/// One function's documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FunctionDoc {
    pub name: &'static str,
    /// `name(param type, rest type...) result`.
    pub signature: &'static str,
    pub summary: &'static str,
    /// Where OpenTofu versions differ (`OpenTofu 1.7 and later.`).
    pub note: Option<&'static str>,
}

impl FunctionDoc {
    /// The parameters as written in the signature (`str string`), in order.
    pub fn params(&self) -> Vec<&'static str> {
        let sig = self.signature;
        let Some(open) = sig.find('(') else { return Vec::new() };
        // The parenthesis that closes the parameter list (types have their own: `list(bool)`).
        let mut depth = 0;
        let mut close = sig.len();
        for (i, c) in sig.char_indices().skip(open) {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let inner = &sig[open + 1..close];
        if inner.is_empty() { Vec::new() } else { inner.split(", ").collect() }
    }

    /// Whether the last parameter repeats (`values any...`).
    #[cfg(test)]
    pub fn variadic(&self) -> bool {
        self.params().last().is_some_and(|p| p.ends_with("..."))
    }

    pub fn markdown(&self) -> String {
        let mut md = format!("```hcl\n{}\n```\n{}", self.signature, self.summary);
        if let Some(note) = self.note {
            md.push_str("\n\n");
            md.push_str(note);
        }
        md
    }
}

pub(crate) fn function_doc(name: &str) -> Option<&'static FunctionDoc> {
    DOCS.binary_search_by(|d| d.name.cmp(name)).ok().map(|i| &DOCS[i])
}

/// Sorted by name.
const DOCS: &[FunctionDoc] = &[
    FunctionDoc {
        name: "abs",
        signature: "abs(num number) number",
        summary: "The absolute value of a number.",
        note: None,
    },
    FunctionDoc {
        name: "abspath",
        signature: "abspath(path string) string",
        summary: "Turns a filesystem path into an absolute one, relative to the current directory.",
        note: None,
    },
    FunctionDoc {
        name: "alltrue",
        signature: "alltrue(list list(bool)) bool",
        summary: "True when every element is true (and for an empty list).",
        note: None,
    },
    FunctionDoc {
        name: "anytrue",
        signature: "anytrue(list list(bool)) bool",
        summary: "True when at least one element is true.",
        note: None,
    },
    FunctionDoc {
        name: "base64decode",
        signature: "base64decode(str string) string",
        summary: "Decodes Base64 into a UTF-8 string.",
        note: None,
    },
    FunctionDoc {
        name: "base64encode",
        signature: "base64encode(str string) string",
        summary: "Encodes a string's UTF-8 bytes as Base64.",
        note: None,
    },
    FunctionDoc {
        name: "base64gunzip",
        signature: "base64gunzip(str string) string",
        summary: "Decodes Base64, then decompresses the gzip data into a string.",
        note: Some("OpenTofu 1.7 and later."),
    },
    FunctionDoc {
        name: "base64gzip",
        signature: "base64gzip(str string) string",
        summary: "Compresses a string with gzip and encodes the result as Base64.",
        note: None,
    },
    FunctionDoc {
        name: "base64sha256",
        signature: "base64sha256(str string) string",
        summary: "The SHA-256 digest of a string, Base64-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "base64sha512",
        signature: "base64sha512(str string) string",
        summary: "The SHA-512 digest of a string, Base64-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "basename",
        signature: "basename(path string) string",
        summary: "The last part of a path (the file name).",
        note: None,
    },
    FunctionDoc {
        name: "bcrypt",
        signature: "bcrypt(str string, cost number...) string",
        summary: "Hashes a string with bcrypt; a new salt each run, so the value is unknown until apply.",
        note: None,
    },
    FunctionDoc {
        name: "can",
        signature: "can(expression any) bool",
        summary: "True when the expression evaluates without an error.",
        note: None,
    },
    FunctionDoc {
        name: "ceil",
        signature: "ceil(num number) number",
        summary: "Rounds up to the nearest whole number.",
        note: None,
    },
    FunctionDoc {
        name: "chomp",
        signature: "chomp(str string) string",
        summary: "Removes newline characters at the end of a string.",
        note: None,
    },
    FunctionDoc {
        name: "chunklist",
        signature: "chunklist(list list(any), size number) list(list(any))",
        summary: "Splits a list into lists of at most `size` elements.",
        note: None,
    },
    FunctionDoc {
        name: "cidrcontains",
        signature: "cidrcontains(containing_prefix string, contained_ip_or_prefix string) bool",
        summary: "Whether an address or prefix lies inside a CIDR prefix.",
        note: Some("OpenTofu 1.7 and later."),
    },
    FunctionDoc {
        name: "cidrhost",
        signature: "cidrhost(prefix string, hostnum number) string",
        summary: "The address of host number `hostnum` within a CIDR prefix.",
        note: None,
    },
    FunctionDoc {
        name: "cidrnetmask",
        signature: "cidrnetmask(prefix string) string",
        summary: "The netmask of an IPv4 CIDR prefix, in dotted form.",
        note: None,
    },
    FunctionDoc {
        name: "cidrsubnet",
        signature: "cidrsubnet(prefix string, newbits number, netnum number) string",
        summary: "Carves subnet number `netnum` with `newbits` more bits out of a prefix.",
        note: None,
    },
    FunctionDoc {
        name: "cidrsubnets",
        signature: "cidrsubnets(prefix string, newbits number...) list(string)",
        summary: "Consecutive subnets of the given extra sizes, packed into a prefix.",
        note: None,
    },
    FunctionDoc {
        name: "coalesce",
        signature: "coalesce(vals any...) any",
        summary: "The first argument that is neither null nor an empty string.",
        note: None,
    },
    FunctionDoc {
        name: "coalescelist",
        signature: "coalescelist(lists any...) any",
        summary: "The first argument that is a non-empty list.",
        note: None,
    },
    FunctionDoc {
        name: "compact",
        signature: "compact(list list(string)) list(string)",
        summary: "Drops null and empty-string elements of a list of strings.",
        note: None,
    },
    FunctionDoc {
        name: "concat",
        signature: "concat(seqs any...) list(any)",
        summary: "Joins lists or tuples into one.",
        note: None,
    },
    FunctionDoc {
        name: "contains",
        signature: "contains(list any, value any) bool",
        summary: "Whether a list or set holds the value.",
        note: None,
    },
    FunctionDoc {
        name: "csvdecode",
        signature: "csvdecode(str string) list(object)",
        summary: "Parses CSV with a header row into a list of objects.",
        note: None,
    },
    FunctionDoc {
        name: "dirname",
        signature: "dirname(path string) string",
        summary: "A path without its last part.",
        note: None,
    },
    FunctionDoc {
        name: "distinct",
        signature: "distinct(list list(any)) list(any)",
        summary: "A list without duplicate elements, keeping first occurrences.",
        note: None,
    },
    FunctionDoc {
        name: "element",
        signature: "element(list any, index number) any",
        summary: "The element at an index, wrapping around past the end.",
        note: None,
    },
    FunctionDoc {
        name: "endswith",
        signature: "endswith(str string, suffix string) bool",
        summary: "Whether a string ends with a suffix.",
        note: None,
    },
    FunctionDoc {
        name: "ephemeralasnull",
        signature: "ephemeralasnull(value any) any",
        summary: "The value with every ephemeral part replaced by null.",
        note: Some("OpenTofu 1.11 and later."),
    },
    FunctionDoc {
        name: "file",
        signature: "file(path string) string",
        summary: "The contents of a file as UTF-8 text.",
        note: None,
    },
    FunctionDoc {
        name: "filebase64",
        signature: "filebase64(path string) string",
        summary: "The contents of a file as Base64.",
        note: None,
    },
    FunctionDoc {
        name: "filebase64sha256",
        signature: "filebase64sha256(path string) string",
        summary: "The SHA-256 digest of a file, Base64-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "filebase64sha512",
        signature: "filebase64sha512(path string) string",
        summary: "The SHA-512 digest of a file, Base64-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "fileexists",
        signature: "fileexists(path string) bool",
        summary: "Whether a file exists at a path.",
        note: None,
    },
    FunctionDoc {
        name: "filemd5",
        signature: "filemd5(path string) string",
        summary: "The MD5 digest of a file, hex-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "fileset",
        signature: "fileset(path string, pattern string) set(string)",
        summary: "The file names under a directory that match a glob pattern.",
        note: None,
    },
    FunctionDoc {
        name: "filesha1",
        signature: "filesha1(path string) string",
        summary: "The SHA-1 digest of a file, hex-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "filesha256",
        signature: "filesha256(path string) string",
        summary: "The SHA-256 digest of a file, hex-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "filesha512",
        signature: "filesha512(path string) string",
        summary: "The SHA-512 digest of a file, hex-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "flatten",
        signature: "flatten(list any) list(any)",
        summary: "Replaces nested lists by their elements, recursively.",
        note: None,
    },
    FunctionDoc {
        name: "floor",
        signature: "floor(num number) number",
        summary: "Rounds down to the nearest whole number.",
        note: None,
    },
    FunctionDoc {
        name: "format",
        signature: "format(spec string, values any...) string",
        summary: "Builds a string from a printf-style spec and values.",
        note: None,
    },
    FunctionDoc {
        name: "formatdate",
        signature: "formatdate(spec string, timestamp string) string",
        summary: "Renders an RFC 3339 timestamp with a date/time spec.",
        note: None,
    },
    FunctionDoc {
        name: "formatlist",
        signature: "formatlist(spec string, values any...) list(string)",
        summary: "Applies `format` element-wise over lists.",
        note: None,
    },
    FunctionDoc {
        name: "indent",
        signature: "indent(spaces number, str string) string",
        summary: "Indents every line but the first by a number of spaces.",
        note: None,
    },
    FunctionDoc {
        name: "index",
        signature: "index(list any, value any) number",
        summary: "The position of the first element equal to the value.",
        note: None,
    },
    FunctionDoc {
        name: "issensitive",
        signature: "issensitive(value any) bool",
        summary: "Whether a value is marked sensitive.",
        note: Some("OpenTofu 1.7 and later."),
    },
    FunctionDoc {
        name: "join",
        signature: "join(separator string, lists list(string)...) string",
        summary: "Concatenates list elements with a separator.",
        note: None,
    },
    FunctionDoc {
        name: "jsondecode",
        signature: "jsondecode(str string) any",
        summary: "Parses JSON into a value.",
        note: None,
    },
    FunctionDoc {
        name: "jsonencode",
        signature: "jsonencode(val any) string",
        summary: "Renders a value as JSON.",
        note: None,
    },
    FunctionDoc {
        name: "keys",
        signature: "keys(inputMap any) list(string)",
        summary: "The keys of a map or object, sorted.",
        note: None,
    },
    FunctionDoc {
        name: "length",
        signature: "length(value any) number",
        summary: "The number of elements of a collection, or characters of a string.",
        note: None,
    },
    FunctionDoc {
        name: "log",
        signature: "log(num number, base number) number",
        summary: "The logarithm of a number in a base.",
        note: None,
    },
    FunctionDoc {
        name: "lookup",
        signature: "lookup(inputMap any, key string, default any...) any",
        summary: "A map's element by key, or the default when absent.",
        note: None,
    },
    FunctionDoc {
        name: "lower",
        signature: "lower(str string) string",
        summary: "A string in lower case.",
        note: None,
    },
    FunctionDoc {
        name: "matchkeys",
        signature: "matchkeys(values list(any), keys list(any), searchset list(any)) list(any)",
        summary: "The elements of `values` whose element at the same index in `keys` is in `searchset`.",
        note: None,
    },
    FunctionDoc {
        name: "max",
        signature: "max(numbers number...) number",
        summary: "The greatest of the numbers.",
        note: None,
    },
    FunctionDoc {
        name: "md5",
        signature: "md5(str string) string",
        summary: "The MD5 digest of a string, hex-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "merge",
        signature: "merge(maps any...) any",
        summary: "Combines maps or objects; later keys win.",
        note: None,
    },
    FunctionDoc {
        name: "min",
        signature: "min(numbers number...) number",
        summary: "The smallest of the numbers.",
        note: None,
    },
    FunctionDoc {
        name: "nonsensitive",
        signature: "nonsensitive(value any) any",
        summary: "The value without its sensitive mark.",
        note: None,
    },
    FunctionDoc {
        name: "one",
        signature: "one(list any) any",
        summary: "The only element of a list or set, null when empty, an error when more.",
        note: None,
    },
    FunctionDoc {
        name: "parseint",
        signature: "parseint(number string, base number) number",
        summary: "Parses an integer written in a base from 2 to 62.",
        note: None,
    },
    FunctionDoc {
        name: "pathexpand",
        signature: "pathexpand(path string) string",
        summary: "Expands a leading `~` to the home directory.",
        note: None,
    },
    FunctionDoc {
        name: "plantimestamp",
        signature: "plantimestamp() string",
        summary: "The time the plan was made, as RFC 3339; unknown until planning.",
        note: None,
    },
    FunctionDoc {
        name: "pow",
        signature: "pow(num number, power number) number",
        summary: "A number raised to a power.",
        note: None,
    },
    FunctionDoc {
        name: "range",
        signature: "range(params number...) list(number)",
        summary: "A list of numbers from start to limit by step (one to three arguments).",
        note: None,
    },
    FunctionDoc {
        name: "regex",
        signature: "regex(pattern string, string string) any",
        summary: "The first match of a regular expression (its captures when it has some).",
        note: None,
    },
    FunctionDoc {
        name: "regexall",
        signature: "regexall(pattern string, string string) list(any)",
        summary: "Every match of a regular expression.",
        note: None,
    },
    FunctionDoc {
        name: "replace",
        signature: "replace(string string, substring string, replacement string) string",
        summary: "Replaces every occurrence of a substring (a `/regex/` too).",
        note: None,
    },
    FunctionDoc {
        name: "reverse",
        signature: "reverse(list any) list(any)",
        summary: "A list in reverse order.",
        note: None,
    },
    FunctionDoc {
        name: "sensitive",
        signature: "sensitive(value any) any",
        summary: "The value marked sensitive.",
        note: None,
    },
    FunctionDoc {
        name: "setintersection",
        signature: "setintersection(first_set set(any), other_sets set(any)...) set(any)",
        summary: "The elements every set holds.",
        note: None,
    },
    FunctionDoc {
        name: "setproduct",
        signature: "setproduct(sets any...) list(list(any))",
        summary: "Every combination of one element from each set or list.",
        note: None,
    },
    FunctionDoc {
        name: "setsubtract",
        signature: "setsubtract(a set(any), b set(any)) set(any)",
        summary: "The elements of the first set not in the second.",
        note: None,
    },
    FunctionDoc {
        name: "setunion",
        signature: "setunion(first_set set(any), other_sets set(any)...) set(any)",
        summary: "The elements any set holds.",
        note: None,
    },
    FunctionDoc {
        name: "sha1",
        signature: "sha1(str string) string",
        summary: "The SHA-1 digest of a string, hex-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "sha256",
        signature: "sha256(str string) string",
        summary: "The SHA-256 digest of a string, hex-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "sha512",
        signature: "sha512(str string) string",
        summary: "The SHA-512 digest of a string, hex-encoded.",
        note: None,
    },
    FunctionDoc {
        name: "signum",
        signature: "signum(num number) number",
        summary: "-1, 0 or 1 according to the sign of a number.",
        note: None,
    },
    FunctionDoc {
        name: "slice",
        signature: "slice(list any, start_index number, end_index number) list(any)",
        summary: "The elements from a start index up to (not including) an end index.",
        note: None,
    },
    FunctionDoc {
        name: "sort",
        signature: "sort(list list(string)) list(string)",
        summary: "Strings sorted lexicographically.",
        note: None,
    },
    FunctionDoc {
        name: "split",
        signature: "split(separator string, str string) list(string)",
        summary: "Cuts a string at every separator.",
        note: None,
    },
    FunctionDoc {
        name: "startswith",
        signature: "startswith(str string, prefix string) bool",
        summary: "Whether a string starts with a prefix.",
        note: None,
    },
    FunctionDoc {
        name: "strcontains",
        signature: "strcontains(str string, substr string) bool",
        summary: "Whether a string holds a substring.",
        note: None,
    },
    FunctionDoc {
        name: "strrev",
        signature: "strrev(str string) string",
        summary: "A string with its characters reversed.",
        note: None,
    },
    FunctionDoc {
        name: "substr",
        signature: "substr(str string, offset number, length number) string",
        summary: "Part of a string by character offset and length (-1: to the end).",
        note: None,
    },
    FunctionDoc {
        name: "sum",
        signature: "sum(list any) number",
        summary: "The sum of a list or set of numbers.",
        note: None,
    },
    FunctionDoc {
        name: "templatefile",
        signature: "templatefile(path string, vars any) string",
        summary: "Renders a template file with the given variables.",
        note: None,
    },
    FunctionDoc {
        name: "templatestring",
        signature: "templatestring(template string, vars any) string",
        summary: "Renders a template held in a string with the given variables.",
        note: Some("OpenTofu 1.7 and later."),
    },
    FunctionDoc {
        name: "textdecodebase64",
        signature: "textdecodebase64(source string, encoding string) string",
        summary: "Decodes Base64 bytes of a named character encoding into a string.",
        note: None,
    },
    FunctionDoc {
        name: "textencodebase64",
        signature: "textencodebase64(string string, encoding string) string",
        summary: "Encodes a string in a named character encoding, then as Base64.",
        note: None,
    },
    FunctionDoc {
        name: "timeadd",
        signature: "timeadd(timestamp string, duration string) string",
        summary: "Adds a duration (`1h30m`) to an RFC 3339 timestamp.",
        note: None,
    },
    FunctionDoc {
        name: "timecmp",
        signature: "timecmp(timestamp_a string, timestamp_b string) number",
        summary: "Compares two timestamps: -1, 0 or 1.",
        note: None,
    },
    FunctionDoc {
        name: "timestamp",
        signature: "timestamp() string",
        summary: "The current time as RFC 3339; a new value each run, unknown until apply.",
        note: None,
    },
    FunctionDoc {
        name: "title",
        signature: "title(str string) string",
        summary: "Each word with its first letter in upper case.",
        note: None,
    },
    FunctionDoc { name: "tobool", signature: "tobool(v any) bool", summary: "Converts a value to a bool.", note: None },
    FunctionDoc {
        name: "tolist",
        signature: "tolist(v any) list(any)",
        summary: "Converts a set or tuple to a list.",
        note: None,
    },
    FunctionDoc {
        name: "tomap",
        signature: "tomap(v any) map(any)",
        summary: "Converts an object to a map.",
        note: None,
    },
    FunctionDoc {
        name: "tonumber",
        signature: "tonumber(v any) number",
        summary: "Converts a value to a number.",
        note: None,
    },
    FunctionDoc {
        name: "toset",
        signature: "toset(v any) set(any)",
        summary: "Converts a list or tuple to a set (drops duplicates, loses order).",
        note: None,
    },
    FunctionDoc {
        name: "tostring",
        signature: "tostring(v any) string",
        summary: "Converts a primitive value to a string.",
        note: None,
    },
    FunctionDoc {
        name: "transpose",
        signature: "transpose(values map(list(string))) map(list(string))",
        summary: "Swaps the keys and list elements of a map of lists.",
        note: None,
    },
    FunctionDoc {
        name: "trim",
        signature: "trim(str string, cutset string) string",
        summary: "Removes the given characters from both ends of a string.",
        note: None,
    },
    FunctionDoc {
        name: "trimprefix",
        signature: "trimprefix(str string, prefix string) string",
        summary: "Removes a prefix from a string, once.",
        note: None,
    },
    FunctionDoc {
        name: "trimspace",
        signature: "trimspace(str string) string",
        summary: "Removes whitespace from both ends of a string.",
        note: None,
    },
    FunctionDoc {
        name: "trimsuffix",
        signature: "trimsuffix(str string, suffix string) string",
        summary: "Removes a suffix from a string, once.",
        note: None,
    },
    FunctionDoc {
        name: "try",
        signature: "try(expressions any...) any",
        summary: "The first argument that evaluates without an error.",
        note: None,
    },
    FunctionDoc {
        name: "type",
        signature: "type(value any) string",
        summary: "The type of a value; only in `tofu console`.",
        note: None,
    },
    FunctionDoc {
        name: "upper",
        signature: "upper(str string) string",
        summary: "A string in upper case.",
        note: None,
    },
    FunctionDoc {
        name: "urldecode",
        signature: "urldecode(str string) string",
        summary: "Decodes URL escapes (`%20`, `+`).",
        note: Some("OpenTofu 1.7 and later."),
    },
    FunctionDoc {
        name: "urlencode",
        signature: "urlencode(str string) string",
        summary: "Escapes a string for use in a URL.",
        note: None,
    },
    FunctionDoc {
        name: "uuid",
        signature: "uuid() string",
        summary: "A random UUID; a new value each run, unknown until apply.",
        note: None,
    },
    FunctionDoc {
        name: "uuidv4",
        signature: "uuidv4() string",
        summary: "A random version 4 UUID; a new value each run, unknown until apply.",
        note: None,
    },
    FunctionDoc {
        name: "uuidv5",
        signature: "uuidv5(namespace string, name string) string",
        summary: "A name-based version 5 UUID (`dns`, `url`, `oid`, `x500` or a UUID namespace).",
        note: None,
    },
    FunctionDoc {
        name: "values",
        signature: "values(mapping any) list(any)",
        summary: "The values of a map or object, ordered by key.",
        note: None,
    },
    FunctionDoc {
        name: "yamldecode",
        signature: "yamldecode(src string) any",
        summary: "Parses YAML into a value.",
        note: None,
    },
    FunctionDoc {
        name: "yamlencode",
        signature: "yamlencode(value any) string",
        summary: "Renders a value as YAML.",
        note: None,
    },
    FunctionDoc {
        name: "zipmap",
        signature: "zipmap(keys list(string), values any) map(any)",
        summary: "A map from a list of keys and a list of values.",
        note: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use foreach_analysis::eval::functions::{lookup, names};

    #[test]
    fn every_function_the_evaluator_knows_has_an_entry() {
        let missing: Vec<&str> = names().into_iter().filter(|n| function_doc(n).is_none()).collect();
        assert!(missing.is_empty(), "no documentation for {missing:?}");
    }

    #[test]
    fn sorted_and_arity_matches_the_evaluator() {
        assert!(DOCS.windows(2).all(|w| w[0].name < w[1].name), "DOCS must stay sorted by name");
        let mut wrong = Vec::new();
        for d in DOCS {
            assert!(d.signature.starts_with(&format!("{}(", d.name)), "{}", d.signature);
            let Some(f) = lookup(d.name) else { continue };
            let fixed = d.params().len() - usize::from(d.variadic());
            if fixed != f.params.len() || d.variadic() != f.variadic.is_some() {
                wrong.push((d.name, f.params.iter().map(|p| p.name).collect::<Vec<_>>(), f.variadic.map(|p| p.name)));
            }
        }
        assert!(wrong.is_empty(), "signatures that differ from the evaluator's parameters: {wrong:?}");
    }
}
