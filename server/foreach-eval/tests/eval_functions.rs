//! Built-in functions, group by group: normal results, type errors and edge cases. (Exact agreement with
//! OpenTofu's implementation is checked separately by `eval_differential`.)

mod eval_support;

use eval_support::*;
use foreach_base::{Code, FileRange, Severity};
use foreach_eval::budget::Budget;
use foreach_eval::render::compact;
use foreach_eval::{EvalContext, FileReader, ModuleScope, UnknownCause};
use std::collections::BTreeMap;
use std::sync::Arc;

fn check(cases: &[(&str, &str)]) {
    for (expr, want) in cases {
        assert_eq!(c(expr), *want, "`{expr}`");
    }
}

fn check_fails(cases: &[(&str, &str)]) {
    for (expr, want) in cases {
        let msg = fails(expr);
        assert!(msg.contains(want), "`{expr}` failed with {msg:?}, expected to contain {want:?}");
    }
}

#[test]
fn string_functions() {
    check(&[
        ("chomp(\"a\\n\\r\\n\")", "\"a\""),
        ("endswith(\"abc\", \"\")", "true"),
        ("startswith(\"abc\", \"abcd\")", "false"),
        ("strcontains(\"abc\", \"d\")", "false"),
        ("indent(4, \"a\\nb\")", "\"a\\n    b\""),
        ("join(\"\", [])", "\"\""),
        ("lower(\"ÀB\")", "\"àb\""),
        ("upper(\"straße\")", "\"STRASSE\""),
        ("regex(\"^(\\\\w+)@(\\\\w+)$\", \"me@host\")", "[\"me\", \"host\"]"),
        ("replace(\"a.b.c\", \".\", \"-\")", "\"a-b-c\""),
        ("replace(\"abc\", \"/(b)/\", \"<$1>\")", "\"a<b>c\""),
        ("split(\".\", \"a.b\")", "tolist([\"a\", \"b\"])"),
        ("strrev(\"\")", "\"\""),
        ("substr(\"abc\", 0, -1)", "\"abc\""),
        ("substr(\"abc\", -1, 1)", "\"c\""),
        ("title(\"a-b c\")", "\"A-B C\""),
        ("trim(\"xxaxx\", \"x\")", "\"a\""),
        ("trimspace(\"\\t a \\n\")", "\"a\""),
        ("format(\"%s=%v\", \"k\", true)", "\"k=true\""),
        ("format(\"%03d|%+.1f|%x\", 7, 2.25, 4096)", "\"007|+2.2|1000\""),
        ("format(\"%.3e\", 123456)", "\"1.235e+05\""),
        ("formatlist(\"%s/%s\", [\"a\", \"b\"], \"x\")", "tolist([\"a/x\", \"b/x\"])"),
    ]);
    check_fails(&[
        ("upper([\"a\"])", "invalid value for `str` of `upper`"),
        ("upper(null)", "must not be null"),
        ("regex(\"x\", \"abc\")", "did not match"),
        ("regex(\"[\", \"abc\")", "invalid regular expression"),
        ("format(\"%d\", \"x\")", "a number is required"),
        ("format(\"%s %s\", \"a\")", "not enough arguments"),
        ("format(\"%z\", 1)", "unsupported format verb"),
        ("formatlist(\"%s%s\", [\"a\"], [\"b\", \"c\"])", "inconsistent"),
        ("indent(-1, \"x\")", "must not be negative"),
        ("join(\",\", [null])", "null"),
    ]);
}

#[test]
fn collection_functions() {
    check(&[
        ("alltrue([true, \"true\"])", "true"),
        ("anytrue([false])", "false"),
        ("chunklist([1, 2, 3], 1)", "tolist([tolist([1]), tolist([2]), tolist([3])])"),
        ("coalesce(null, \"\", \"x\")", "\"x\""),
        ("coalescelist([], [1])", "[1]"),
        ("compact([\"\", \"a\"])", "tolist([\"a\"])"),
        ("concat([], [])", "[]"),
        ("contains([[1]], [1])", "true"),
        ("distinct([])", "tolist([])"),
        ("element([1, 2, 3], 4)", "2"),
        // Negative indices count from the end (OpenTofu 1.10+) and wrap like positive ones: cty's `i % len`, plus
        // `len` when negative.
        ("element([1, 2, 3], -1)", "3"),
        ("element([1, 2, 3], -3)", "1"),
        ("element([1, 2, 3], -4)", "3"),
        ("element([1, 2, 3], -7)", "3"),
        ("element(tolist([\"a\", \"b\"]), -2)", "\"a\""),
        ("flatten([])", "[]"),
        ("index([1, 2], 2)", "1"),
        ("keys({ b = 1, a = 2 })", "[\"a\", \"b\"]"),
        ("length(\"\")", "0"),
        ("lookup({ a = { b = 1 } }, \"a\", {})", "{\"b\" = 1}"),
        ("matchkeys([1, 2], [\"a\", \"b\"], [\"b\"])", "tolist([2])"),
        ("merge()", "{}"),
        ("merge({ a = { x = 1 } }, { a = { y = 2 } })", "{\"a\" = {\"y\" = 2}}"),
        ("one(toset([]))", "null"),
        ("range(-2)", "tolist([0, -1])"),
        ("range(0, 1, 0.5)", "tolist([0, 0.5])"),
        ("reverse([])", "[]"),
        ("slice([1, 2, 3], 1, 1)", "[]"),
        ("sort([])", "tolist([])"),
        ("sum([0.1, 0.2])", "0.3"),
        ("transpose({})", "tomap({})"),
        ("values({})", "[]"),
        ("zipmap([], [])", "{}"),
        ("setunion([], [])", "toset([])"),
        ("setintersection([1, 2], [2], [2, 3])", "toset([2])"),
        ("setsubtract([1], [1])", "toset([])"),
        ("setproduct([1], [\"a\", \"b\"])", "tolist([[1, \"a\"], [1, \"b\"]])"),
    ]);
    check_fails(&[
        ("chunklist([1], -1)", "must be positive"),
        ("coalesce(null, \"\")", "no non-null"),
        ("coalescelist(1)", "a list or tuple is required"),
        ("concat([1], 2)", "must be lists or tuples"),
        ("element([], 0)", "empty list"),
        ("element([], -1)", "empty list"),
        ("element([1], -1.5)", "not a whole number"),
        ("index([1], 2)", "item not found"),
        ("keys([1])", "a map or object is required"),
        ("length(true)", "a string, collection or structure is required"),
        ("lookup({}, \"a\")", "does not exist"),
        ("merge([1])", "must be maps or objects"),
        ("one([1, 2])", "zero or one"),
        ("range()", "at least one"),
        ("range(1, 2, 0)", "must not be zero"),
        ("range(0, 2, -1)", "negative step"),
        ("slice([1], 0, 2)", "greater than the length"),
        ("slice([1, 2], 2, 1)", "greater than end"),
        ("sort([null])", "null"),
        ("sum([\"a\"])", "must be a number"),
        ("zipmap([\"a\"], [])", "does not match"),
        ("setunion([1], [[1]])", "same type"),
        ("setproduct([1])", "at least two"),
        ("sum([])", "empty list"),
    ]);
}

#[test]
fn numeric_functions() {
    check(&[
        ("abs(-0.5)", "0.5"),
        ("ceil(-0.5)", "-0"),
        ("floor(0.5)", "0"),
        ("floor(-0.5)", "-1"),
        ("log(1, 10)", "0"),
        ("max(-1, -2)", "-1"),
        ("min(1.5, 1.25)", "1.25"),
        ("parseint(\"777\", 8)", "511"),
        ("parseint(\"-FF\", 16)", "-255"),
        ("parseint(\"123456789012345678901234567890\", 10)", "123456789012345678901234567890"),
        ("pow(3, 2)", "9"),
        ("pow(0, 0)", "1"),
        ("signum(-0)", "0"),
        ("1e21 + 1", "1000000000000000000001"),
        ("9007199254740993 - 1", "9007199254740992"),
        ("18446744073709551616 * 2", "36893488147419103232"),
        ("(1/3) * 3", "1"),
        ("0.1 * 3", "0.3"),
        ("-7 % 2.5", "-2"),
    ]);
    check_fails(&[
        ("parseint(\"12\", 1)", "between 2 and 62"),
        ("parseint(\"9\", 8)", "cannot parse"),
        ("parseint(12, 10)", "a string is required"),
        ("max()", "at least one"),
        ("abs(\"x\")", "cannot convert"),
        ("0 / 0", "divide zero by zero"),
    ]);
}

#[test]
fn encoding_functions() {
    check(&[
        ("base64encode(\"\")", "\"\""),
        ("base64decode(base64encode(\"é\"))", "\"é\""),
        ("jsonencode(null)", "\"null\""),
        ("jsonencode({ b = 1, a = [true] })", "\"{\\\"a\\\":[true],\\\"b\\\":1}\""),
        ("jsondecode(\"[1, {\\\"a\\\": null}]\")", "[1, {\"a\" = null}]"),
        ("jsondecode(\"0.1\") + 0.2", "0.3"),
        ("urlencode(\"a+b\")", "\"a%2Bb\""),
        ("urldecode(\"a%2Bb+c\")", "\"a+b c\""),
        ("csvdecode(\"a\\n1\")", "tolist([{\"a\" = \"1\"}])"),
        ("yamlencode([])", "\"[]\\n\""),
        ("textdecodebase64(textencodebase64(\"hé\", \"UTF-16BE\"), \"UTF-16BE\")", "\"hé\""),
    ]);
    check_fails(&[
        ("base64decode(\"/w==\")", "not valid UTF-8"),
        ("jsondecode(\"\")", "invalid JSON"),
        ("jsondecode(\"[1] x\")", "unexpected data"),
        ("jsonencode(1/0)", "infinite"),
        ("csvdecode(\"a,b\\n1\")", "wrong number of fields"),
        ("urldecode(\"%zz\")", "invalid URL escape"),
    ]);
    // Encodings OpenTofu has (Go's x/text) and encoding_rs lacks: unknown with a reason, never a wrong value.
    for e in ["textencodebase64(\"x\", \"IBM437\")", "textdecodebase64(\"eA==\", \"cp850\")"] {
        let (v, d) = eval_in("", e);
        assert!(v.is_unknown() && d.is_empty(), "{e}");
        assert!(v.first_unknown().unwrap().explanation().contains("not evaluated by foreach-ls"), "{e}");
    }
}

#[test]
fn yamldecode_follows_cty_yaml() {
    check(&[
        ("yamldecode(\"a: 1\\nb: [x, 2.50]\\n\")", "{\"a\" = 1, \"b\" = [\"x\", 2.5]}"),
        (
            "yamldecode(\"[yes, Off, y, 'no', ~, 0x1F, 0o17, 017, 1_000]\")",
            "[true, false, true, \"no\", null, 31, 15, 17, \"1_000\"]",
        ),
        ("yamldecode(\"2001-12-14 21:59:43.10\")", "\"2001-12-14T21:59:43Z\""),
        // `y` is a YAML 1.1 boolean, so the key `y` is "true".
        (
            "yamldecode(\"b: &b {x: 1, y: 2}\\nd:\\n  <<: *b\\n  y: 3\\n\")",
            "{\"b\" = {\"true\" = 2, \"x\" = 1}, \"d\" = {\"true\" = 3, \"x\" = 1}}",
        ),
        ("yamldecode(\"yes: 1\\n1.50: 2\\n\")", "{\"1.5\" = 2, \"true\" = 1}"),
        ("yamldecode(\"~\")", "null"),
        ("yamldecode(\"12345678901234567890123\")", "12345678901234567890123"),
    ]);
    check_fails(&[
        (
            "yamldecode(\"a: 1\\n---\\nb: 2\\n\")",
            "on line 2, column 1: unexpected extra content after value (yamldecode accepts a single document only)",
        ),
        ("yamldecode(\"a: *nope\")", "anchor"),
        ("yamldecode(\"c:\\n  <<: [{x: 1}]\\n\")", "on line 2, column 3: cannot merge tuple into mapping"),
        ("yamldecode(\".nan\")", "NaN is not supported"),
        // As in cty-yaml: an empty stream has no document at all.
        ("yamldecode(\"\")", "on line 1, column 1: missing start of document"),
        ("yamldecode(\"!!int abc\")", "as tag:yaml.org,2002:int"),
        ("yamldecode(\"!custom x\")", "unsupported tag"),
        ("yamldecode(\"a: [unclosed\")", "`yamldecode` failed: on line 2, column 1: while parsing a flow sequence"),
        ("yamldecode(\"? [1, 2]\\n: x\\n\")", "only strings are allowed as mapping keys"),
        ("yamldecode(\"&a [*a]\")", "anchor"),
    ]);
    // Nesting and alias expansion ("billion laughs") are bounded: a limit diagnostic, not a crash or a hang.
    let deep = format!("yamldecode(\"{}{}\")", "[".repeat(200), "]".repeat(200));
    assert!(fails(&deep).contains("nests more than 128 levels"));
    let mut laughs = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\\n");
    for i in 1..8 {
        laughs.push_str(&format!(
            "{}: &{} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\\n",
            (b'a' + i) as char,
            (b'a' + i) as char,
            p = (b'a' + i - 1) as char
        ));
    }
    let msg = fails(&format!("yamldecode(\"{laughs}\")"));
    assert!(msg.starts_with("evaluation-limit"), "{msg}");
}

#[test]
fn yamldecode_errors_point_at_the_call() {
    let (_, d) = eval_in("", "  yamldecode(\"a: [\")");
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(u32::from(d[0].location.range.start()), 2, "{d:#?}");
}

#[test]
fn gzip_functions() {
    check(&[
        // Byte for byte what Terraform (Go's compress/gzip) produces for short inputs.
        ("base64gzip(\"hello\")", "\"H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA==\""),
        ("base64gzip(\"\")", "\"H4sIAAAAAAAA/wAAAP//AQAA//8AAAAAAAAAAA==\""),
        ("base64gunzip(\"H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA==\")", "\"hello\""),
    ]);
    assert_eq!(c("base64gunzip(base64gzip(join(\",\", range(500))))"), c("join(\",\", range(500))"));
    check_fails(&[
        ("base64gunzip(\"%%%\")", "failed to decode base64 data"),
        ("base64gunzip(\"aGVsbG8=\")", "failed to gunzip bytestream"),
        ("base64gunzip(\"H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAB==\")", "failed"),
        // Truncated: the trailer is missing.
        ("base64gunzip(\"H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2\")", "failed to gunzip bytestream"),
    ]);
}

#[test]
fn gunzip_output_is_bounded() {
    // 64 MiB of zeros compress to about 64 KiB; decompressing them stops at the string budget.
    use base64::Engine;
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![b'0'; 1 << 20];
    for _ in 0..64 {
        gz.write_all(&zeros).unwrap();
    }
    let b64 = base64::engine::general_purpose::STANDARD.encode(gz.finish().unwrap());
    let msg = fails(&format!("base64gunzip(\"{b64}\")"));
    assert!(msg.starts_with("evaluation-limit") && msg.contains("more than the evaluation limit"), "{msg}");
}

#[test]
fn text_encodings() {
    check(&[
        ("textencodebase64(\"héllo\", \"ISO-8859-1\")", "\"aOlsbG8=\""),
        ("textencodebase64(\"héllo\", \"latin1\")", "\"aOlsbG8=\""),
        ("textencodebase64(\"€\", \"windows-1252\")", "\"gA==\""),
        ("textencodebase64(\"日本\", \"Shift_JIS\")", "\"k/qWew==\""),
        ("textencodebase64(\"x\", \"utf-16\")", "\"/v8AeA==\""),
        ("textdecodebase64(\"//54AA==\", \"UTF-16\")", "\"x\""),
        ("textdecodebase64(\"gA==\", \"ISO-8859-1\")", "\"\\u0080\""),
        ("textdecodebase64(\"0N3e8P3+\", \"ISO-8859-9\")", "\"ĞİŞğış\""),
        ("textdecodebase64(textencodebase64(\"中文€\", \"GB18030\"), \"GB18030\")", "\"中文€\""),
    ]);
    check_fails(&[
        ("textencodebase64(\"x\", \"sjis\")", "\"sjis\" is not a supported IANA encoding name or alias"),
        ("textencodebase64(\"x\", \"UTF-32\")", "not a supported IANA encoding"),
        ("textencodebase64(\"€\", \"ISO-8859-1\")", "cannot be represented in ISO_8859-1:1987"),
        ("textencodebase64(\"é\", \"US-ASCII\")", "cannot be represented in US-ASCII"),
        ("textencodebase64(\"\\u0081\", \"windows-1252\")", "cannot be represented in windows-1252"),
        ("textdecodebase64(\"gQ==\", \"windows-1252\")", "not defined for windows-1252"),
        ("textdecodebase64(\"gA==\", \"ISO-8859-2\")", "not defined for ISO_8859-2:1987"),
        ("textdecodebase64(\"eA==\", \"UTF-16LE\")", "not defined for UTF-16LE"),
        ("textdecodebase64(\"ANg=\", \"UTF-16LE\")", "not defined for UTF-16LE"),
        ("textdecodebase64(\"/w==\", \"UTF-8\")", "not defined for UTF-8"),
        ("textdecodebase64(\"%%\", \"UTF-8\")", "failed to decode base64 data"),
    ]);
}

#[test]
fn conversion_functions() {
    check(&[
        ("tostring(12)", "\"12\""),
        ("tonumber(\"-1.5e1\")", "-15"),
        ("tobool(\"false\")", "false"),
        ("tolist(toset([\"b\", \"a\"]))", "tolist([\"a\", \"b\"])"),
        ("toset([[\"a\"], [\"a\"]])", "toset([[\"a\"]])"),
        ("tomap({})", "tomap({})"),
        ("tomap({ a = null, b = 1 })", "tomap({\"a\" = null, \"b\" = 1})"),
        ("tolist([])", "tolist([])"),
        ("issensitive(sensitive(null))", "true"),
        ("ephemeralasnull({ a = 1 })", "{\"a\" = 1}"),
        ("issensitive(ephemeralasnull(sensitive(\"x\")))", "true"),
    ]);
    check_fails(&[
        ("tonumber(\"one\")", "decimal representation"),
        ("tobool(1)", "a bool is required"),
        ("tolist({ a = 1 })", "list of any single type required"),
        ("tomap([1])", "map of any single type required"),
        ("toset([1, true])", "cannot convert tuple to set of any single type"),
        ("tostring({})", "string required"),
    ]);
}

#[test]
fn datetime_functions() {
    check(&[
        ("formatdate(\"YYYY-MM-DD'T'hh:mm:ssZ\", \"2024-02-29T13:05:09Z\")", "\"2024-02-29T13:05:09Z\""),
        ("formatdate(\"EEE, DD MMM YY HH:mm aa\", \"1999-12-31T23:59:59-05:00\")", "\"Fri, 31 Dec 99 11:59 pm\""),
        ("timeadd(\"2024-02-28T12:00:00Z\", \"24h\")", "\"2024-02-29T12:00:00Z\""),
        ("timeadd(\"1970-01-01T00:00:00Z\", \"-1s\")", "\"1969-12-31T23:59:59Z\""),
        ("timecmp(\"2024-01-01T00:00:00+02:00\", \"2023-12-31T22:00:00Z\")", "0"),
    ]);
    check_fails(&[
        ("formatdate(\"q\", \"2024-01-01T00:00:00Z\")", "invalid date format verb"),
        ("formatdate(\"YYYY\", \"2024-02-30T00:00:00Z\")", "not a valid RFC3339"),
        ("timeadd(\"2024-01-01T00:00:00Z\", \"1y\")", "not a valid duration"),
        ("timecmp(\"x\", \"2024-01-01T00:00:00Z\")", "not a valid RFC3339"),
    ]);
}

#[test]
fn hash_functions() {
    check(&[
        ("md5(\"\")", "\"d41d8cd98f00b204e9800998ecf8427e\""),
        ("sha1(\"abc\")", "\"a9993e364706816aba3e25717850c26c9cd0d89d\""),
        ("sha256(\"abc\")", "\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\""),
        ("base64sha256(\"\")", "\"47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\""),
        ("uuidv5(\"6ba7b810-9dad-11d1-80b4-00c04fd430c8\", \"x\")", "\"05b16a01-46c6-56dd-bd6e-c6dfb4a1427a\""),
    ]);
    check_fails(&[("uuidv5(\"nope\", \"x\")", "not a valid namespace")]);
}

#[test]
fn cidr_functions() {
    check(&[
        ("cidrhost(\"192.168.0.0/24\", 0)", "\"192.168.0.0\""),
        ("cidrhost(\"192.168.0.0/24\", -2)", "\"192.168.0.254\""),
        ("cidrnetmask(\"0.0.0.0/0\")", "\"0.0.0.0\""),
        ("cidrsubnet(\"10.0.0.0/8\", 0, 0)", "\"10.0.0.0/8\""),
        ("cidrsubnet(\"::/0\", 128, 1)", "\"::1/128\""),
        ("cidrsubnets(\"10.0.0.0/8\")", "tolist([])"),
        ("cidrcontains(\"10.0.0.0/8\", \"10.1.2.3\")", "true"),
        ("cidrcontains(\"10.0.0.0/8\", \"11.0.0.0/24\")", "false"),
        ("cidrcontains(\"10.0.0.0/8\", \"10.0.0.0/4\")", "false"),
    ]);
    check_fails(&[
        ("cidrhost(\"10.0.0.0/33\", 1)", "invalid CIDR"),
        ("cidrhost(\"10.0.0.0/31\", 2)", "does not accommodate a host"),
        ("cidrnetmask(\"::/64\")", "IPv6"),
        ("cidrsubnet(\"10.0.0.0/30\", 3, 0)", "insufficient address space"),
        ("cidrsubnet(\"10.0.0.0/24\", 2, 4)", "does not accommodate a subnet"),
        ("cidrsubnets(\"10.0.0.0/24\", 1, 1, 1)", "not enough remaining address space"),
        ("cidrcontains(\"10.0.0.0/8\", \"::1\")", "address families"),
    ]);
}

#[test]
fn path_functions() {
    check(&[
        ("basename(\"a/b/\")", "\"b\""),
        ("dirname(\"/\")", "\"/\""),
        ("dirname(\"a/../b/c\")", "\"b\""),
        ("abspath(\"x/../y\")", "\"/work/project/y\""),
        ("pathexpand(\"/abs\")", "\"/abs\""),
    ]);
    assert!(eval_in("", "pathexpand(\"~/x\")").0.is_unknown());
}

/// An in-memory file tree for the file functions.
struct Files(BTreeMap<String, Vec<u8>>);

impl FileReader for Files {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.0.get(path).cloned().ok_or_else(|| "no such file".to_string())
    }
    fn is_file(&self, path: &str) -> bool {
        self.0.contains_key(path)
    }
    fn walk(&self, dir: &str) -> Result<Vec<String>, String> {
        let prefix = format!("{dir}/");
        let files: Vec<String> = self.0.keys().filter_map(|k| k.strip_prefix(&prefix).map(String::from)).collect();
        if files.is_empty() { Err("no such directory".into()) } else { Ok(files) }
    }
    fn missing(&self, path: &str) -> bool {
        let prefix = format!("{path}/");
        !self.0.keys().any(|k| k == path || k.starts_with(&prefix))
    }
}

fn file_scope() -> ModuleScope {
    let mut files = BTreeMap::new();
    files.insert("/work/project/hello.txt".to_string(), b"hello\n".to_vec());
    files.insert("/work/project/conf/a.json".to_string(), b"{\"regions\": [\"x\", \"y\"]}".to_vec());
    files.insert("/work/project/conf/sub/b.json".to_string(), b"[]".to_vec());
    files.insert("/work/project/bin.dat".to_string(), vec![0xff, 0x00]);
    files.insert("/etc/passwd".to_string(), b"root".to_vec());
    files.insert(
        "/work/project/t.tpl".to_string(),
        b"Hi ${name}!\n%{ for i in items ~}\n- ${i}\n%{ endfor ~}\n".to_vec(),
    );
    files.insert("/work/project/self.tpl".to_string(), b"${templatefile(\"self.tpl\", {})}".to_vec());
    files.insert("/work/project/bad.tpl".to_string(), b"${nope}".to_vec());
    let mut inputs = inputs("", Vec::new());
    inputs.files = Some(Arc::new(Files(files)));
    inputs.budget = Budget::default();
    ModuleScope::new(inputs)
}

/// A path outside the workspace is not read (`/etc/passwd` exists in the reader): the value is unknown for that
/// reason, with one `file-outside-repository` info and no error, since OpenTofu would read it.
fn assert_not_read(s: &ModuleScope, expr: &str) {
    let e = foreach_syntax::parse_expr(expr).unwrap();
    let v = s.eval(EXPR_FILE, &e, &EvalContext::default());
    let d = s.take_diagnostics();
    assert_eq!(d.len(), 1, "{expr}: {d:?}");
    assert_eq!((d[0].code, d[0].severity), (Code::FileOutsideRepository, Severity::Info), "{expr}");
    assert!(d[0].message.contains("was not read: it is outside the repository being checked"), "{d:?}");
    let r = v.first_unknown().unwrap_or_else(|| panic!("{expr} is unknown"));
    assert!(matches!(r.cause, UnknownCause::FileOutsideRepository { .. }), "{expr}: {r:?}");
    assert!(r.cause.is_missing_input(), "{expr}");
    assert!(!compact(&v).contains("root"), "{expr}: the file leaked");
}

fn file_eval(s: &ModuleScope, expr: &str) -> (String, Vec<String>) {
    let e = foreach_syntax::parse_expr(expr).unwrap();
    let v = s.eval(EXPR_FILE, &e, &EvalContext::default());
    (compact(&v), s.take_diagnostics().into_iter().map(|d| d.message).collect())
}

#[test]
fn file_functions_read_inside_the_workspace_only() {
    let s = file_scope();
    assert_eq!(file_eval(&s, "file(\"hello.txt\")").0, "\"hello\\n\"");
    assert_eq!(file_eval(&s, "file(\"${path.cwd}/hello.txt\")").0, "\"hello\\n\"");
    assert_eq!(file_eval(&s, "jsondecode(file(\"conf/a.json\")).regions[1]").0, "\"y\"");
    assert_eq!(file_eval(&s, "fileexists(\"conf/a.json\")").0, "true");
    assert_eq!(file_eval(&s, "fileexists(\"nope\")").0, "false");
    assert_eq!(file_eval(&s, "fileset(\"conf\", \"**/*.json\")").0, "toset([\"a.json\", \"sub/b.json\"])");
    assert_eq!(file_eval(&s, "fileset(\".\", \"*.txt\")").0, "toset([\"hello.txt\"])");
    // A directory that does not exist (or a file in its place) matches nothing, as OpenTofu's glob does.
    assert_eq!(file_eval(&s, "fileset(\"nope\", \"*\")"), ("toset([])".to_string(), vec![]));
    assert_eq!(file_eval(&s, "fileset(\"hello.txt\", \"*\")"), ("toset([])".to_string(), vec![]));
    // Wildcards in the path too: OpenTofu globs `path/pattern` and gives matches relative to `path` (as Go's
    // filepath.Rel); results checked with `terraform console` on the same tree.
    let set = |expr: &str| file_eval(&s, expr).0;
    assert_eq!(set("fileset(\"conf/**\", \"*.json\")"), "toset([\"../a.json\", \"../sub/b.json\"])");
    assert_eq!(set("fileset(\"./*/sub\", \"*.json\")"), "toset([\"../../conf/sub/b.json\"])");
    assert_eq!(set("fileset(\".\", \"conf/*.json\")"), "toset([\"conf/a.json\"])");
    assert_eq!(set("fileset(\"conf\", \"../conf/*.json\")"), "toset([\"a.json\"])");
    assert_eq!(set("fileset(\"nope/**\", \"*\")"), "toset([])");
    assert_eq!(set("fileset(\"conf/a.json\", \"\")"), "toset([\".\"])");
    assert_eq!(set("fileset(\"conf\", \"\")"), "toset([])");
    assert_eq!(set("fileset(\".\", \"conf/**/*.{json,txt}\")"), "toset([\"conf/a.json\", \"conf/sub/b.json\"])");
    assert_eq!(set("fileset(\"{conf,x}\", \"*.{json,yml}\")"), "toset([\"../conf/a.json\"])");
    assert_eq!(set("fileset(\".\", \"{hello,t}.{txt,tpl}\")"), "toset([\"hello.txt\", \"t.tpl\"])");
    assert_eq!(set("fileset(\".\", \"conf/a}.json\")"), "toset([])");
    for bad in ["conf/{a.json", "conf/{a,sub/b}.json"] {
        let (_, d) = file_eval(&s, &format!("fileset(\".\", \"{bad}\")"));
        assert!(d[0].contains("syntax error in the pattern"), "{bad}: {d:?}");
    }
    for outside in ["fileset(\"conf\", \"../../../etc/*\")", "fileset(\"/etc\", \"*\")"] {
        assert_not_read(&s, outside);
    }
    assert_eq!(file_eval(&s, "filebase64(\"bin.dat\")").0, "\"/wA=\"");
    assert_eq!(file_eval(&s, "filemd5(\"hello.txt\")").0, "\"b1946ac92492d2347c6235b4d2611184\"");
    let (_, d) = file_eval(&s, "file(\"bin.dat\")");
    assert!(d[0].contains("not valid UTF-8"), "{d:?}");
    for outside in ["file(\"../../etc/passwd\")", "file(\"/etc/passwd\")", "fileexists(\"/etc/passwd\")"] {
        assert_not_read(&s, outside);
    }
    // `try` does not fall back past it (OpenTofu reads the file), and the note stays.
    assert_not_read(&s, "try(file(\"/etc/passwd\"), \"\")");
    // A file that does not exist may be generated before OpenTofu runs: unknown, with that reason, and no error.
    for call in ["file(\"missing.txt\")", "templatefile(\"keys/x.tpl\", {})", "filebase64(\"nope/a.bin\")"] {
        let e = foreach_syntax::parse_expr(call).unwrap();
        let v = s.eval(EXPR_FILE, &e, &EvalContext::default());
        assert!(s.take_diagnostics().is_empty(), "{call}");
        let r = v.first_unknown().unwrap_or_else(|| panic!("{call} is unknown"));
        assert!(matches!(r.cause, UnknownCause::MissingFile { .. }), "{call}: {r:?}");
        assert!(r.explanation().contains("does not exist here; it may be created before OpenTofu runs"), "{r:?}");
    }
    let e = foreach_syntax::parse_expr("upper(file(\"missing.txt\"))").unwrap();
    let v = s.eval(EXPR_FILE, &e, &EvalContext::default());
    assert_eq!(v.first_unknown().unwrap().root_name(), "file(\"missing.txt\")");
    // `try` cannot fall back: OpenTofu reads the file if it is there by then.
    assert_eq!(file_eval(&s, "try(file(\"missing.txt\"), \"\")"), ("(unknown)".to_string(), vec![]));
    // A directory exists: reading it is still an error.
    let (_, d) = file_eval(&s, "file(\"conf\")");
    assert!(d[0].contains("cannot read"), "{d:?}");
    assert_eq!(
        file_eval(&s, "templatefile(\"t.tpl\", { name = \"x\", items = [1, 2] })").0,
        "\"Hi x!\\n- 1\\n- 2\\n\""
    );
    let (_, d) = file_eval(&s, "templatefile(\"self.tpl\", {})");
    assert!(d[0].contains("cannot call a template function from inside a template"), "{d:?}");
    let (_, d) = file_eval(&s, "templatefile(\"bad.tpl\", {})");
    assert!(d[0].contains("the template refers to `nope`"), "{d:?}");
    // Without a reader: unknown, no error.
    let (v, d) = eval_in("", "file(\"hello.txt\")");
    assert!(v.is_unknown() && d.is_empty());
    let _ = FileRange::new(EXPR_FILE, foreach_syntax::TextRange::default());
}
