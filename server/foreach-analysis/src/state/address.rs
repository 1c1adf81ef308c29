//! OpenTofu's address strings as a state file writes them: module instance paths (`module.a["x"].module.b[0]`) and
//! provider configuration instances (`module.a.provider["registry.opentofu.org/hashicorp/aws"].by_region["eu"]`).
//!
//! OpenTofu writes them with `addrs`' `String()` methods and reads them back as HCL traversals, so keys are HCL
//! quoted strings: `\"`, `\\`, `\n`, `\uNNNN`, and `$${`/`%%{` for a literal `${`/`%{`. This parser reads exactly
//! that grammar, on its own (no HCL parser per string: a 100,000-instance state has as many provider strings).

use smol_str::SmolStr;

/// An instance key as the state records it: a string (`for_each`) or a whole number (`count`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StateKey {
    Str(SmolStr),
    Int(i64),
}

impl StateKey {
    /// `["eu"]` or `[0]`, as OpenTofu writes it after an address.
    pub fn bracketed(&self) -> String {
        match self {
            StateKey::Str(s) => format!("[{}]", foreach_syntax::quote(s)),
            StateKey::Int(i) => format!("[{i}]"),
        }
    }
}

/// A provider configuration instance: the module that declares the configuration (call names only; providers are
/// never declared under a repeated call), the provider's source address as written, its alias and instance key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProviderInstanceAddr {
    pub module: Vec<SmolStr>,
    /// `registry.opentofu.org/hashicorp/aws`.
    pub source: String,
    pub alias: Option<SmolStr>,
    pub key: Option<StateKey>,
}

impl ProviderInstanceAddr {
    /// Whether both are instances of one provider configuration (they may differ in the instance key). Source
    /// addresses compare as OpenTofu compares them after parsing, which lower-cases them.
    pub fn same_config(&self, other: &ProviderInstanceAddr) -> bool {
        self.module == other.module && self.alias == other.alias && self.source.eq_ignore_ascii_case(&other.source)
    }

    /// The configuration's address without the instance key, as OpenTofu writes it:
    /// `module.a.provider["registry.opentofu.org/hashicorp/aws"].by_region`.
    pub fn config_address(&self) -> String {
        let mut out: String = self.module.iter().map(|m| format!("module.{m}.")).collect();
        out.push_str(&format!("provider[{}]", foreach_syntax::quote(&self.source)));
        if let Some(alias) = &self.alias {
            out.push('.');
            out.push_str(alias);
        }
        out
    }
}

/// One step of a module instance path: the call name and the instance key, if the call repeats.
pub type ModuleStep = (SmolStr, Option<StateKey>);

/// Parses `module.a["x"].module.b` (the empty string is the root module).
pub fn parse_module_instance(s: &str) -> Result<Vec<ModuleStep>, String> {
    let mut p = Parser { s, pos: 0 };
    let mut steps = Vec::new();
    if s.is_empty() {
        return Ok(steps);
    }
    loop {
        p.keyword("module")?;
        p.expect('.')?;
        let name = p.ident()?;
        let key = if p.peek() == Some('[') { Some(p.key()?) } else { None };
        steps.push((SmolStr::new(name), key));
        if p.at_end() {
            return Ok(steps);
        }
        p.expect('.')?;
    }
}

/// Parses a provider configuration address with an optional instance key after the alias. Module steps must not
/// have keys (OpenTofu: "A provider configuration must not appear in a module instance that uses count or
/// for_each").
pub fn parse_provider_instance(s: &str) -> Result<ProviderInstanceAddr, String> {
    let mut p = Parser { s, pos: 0 };
    let mut module = Vec::new();
    while p.rest().starts_with("module.") {
        p.keyword("module")?;
        p.expect('.')?;
        module.push(SmolStr::new(p.ident()?));
        if p.peek() == Some('[') {
            return Err("a provider configuration cannot be in a module instance with a key".to_string());
        }
        p.expect('.')?;
    }
    p.keyword("provider")?;
    if p.peek() != Some('[') {
        return Err("`provider` must be followed by the provider's source address in brackets".to_string());
    }
    let source = match p.key()? {
        StateKey::Str(s) if !s.is_empty() => s.to_string(),
        _ => return Err("the provider's source address must be a non-empty string".to_string()),
    };
    let mut alias = None;
    let mut key = None;
    if p.peek() == Some('.') {
        p.expect('.')?;
        alias = Some(SmolStr::new(p.ident()?));
        if p.peek() == Some('[') {
            key = Some(p.key()?);
        }
    }
    if !p.at_end() {
        return Err(format!("unexpected `{}` after the provider address", p.rest()));
    }
    Ok(ProviderInstanceAddr { module, source, alias, key })
}

struct Parser<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            Ok(())
        } else {
            Err(format!("expected `{c}` at byte {}", self.pos))
        }
    }

    fn keyword(&mut self, word: &str) -> Result<(), String> {
        let at = self.pos;
        let got = self.ident()?;
        if got == word { Ok(()) } else { Err(format!("expected `{word}` at byte {at}, found `{got}`")) }
    }

    /// An HCL identifier: a letter or `_`, then letters, digits, `_` and `-`.
    fn ident(&mut self) -> Result<&'a str, String> {
        let rest = self.rest();
        let mut end = 0;
        for (i, c) in rest.char_indices() {
            let ok = if i == 0 { c.is_alphabetic() || c == '_' } else { c.is_alphanumeric() || c == '_' || c == '-' };
            if !ok {
                break;
            }
            end = i + c.len_utf8();
        }
        if end == 0 {
            return Err(format!("expected a name at byte {}", self.pos));
        }
        self.pos += end;
        Ok(&rest[..end])
    }

    /// `["quoted"]` or `[123]`.
    fn key(&mut self) -> Result<StateKey, String> {
        self.expect('[')?;
        let key = if self.peek() == Some('"') {
            StateKey::Str(SmolStr::new(self.quoted()?))
        } else {
            let rest = self.rest();
            let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '-')).unwrap_or(rest.len());
            let n = rest[..end].parse::<i64>().map_err(|_| format!("invalid instance key at byte {}", self.pos))?;
            self.pos += end;
            StateKey::Int(n)
        };
        self.expect(']')?;
        Ok(key)
    }

    /// An HCL quoted string literal (no interpolation), unescaped.
    fn quoted(&mut self) -> Result<String, String> {
        self.expect('"')?;
        let mut out = String::new();
        let mut chars = self.rest().char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => {
                    let Some((_, e)) = chars.next() else { break };
                    match e {
                        'n' => out.push('\n'),
                        'r' => out.push('\r'),
                        't' => out.push('\t'),
                        '"' => out.push('"'),
                        '\\' => out.push('\\'),
                        'u' | 'U' => {
                            let digits = if e == 'u' { 4 } else { 8 };
                            let mut hex = String::new();
                            for _ in 0..digits {
                                match chars.next() {
                                    Some((_, h)) if h.is_ascii_hexdigit() => hex.push(h),
                                    _ => return Err("invalid `\\u` escape in a quoted key".to_string()),
                                }
                            }
                            let ch = u32::from_str_radix(&hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or_else(|| "invalid `\\u` escape in a quoted key".to_string())?;
                            out.push(ch);
                        }
                        other => return Err(format!("invalid escape `\\{other}` in a quoted key")),
                    }
                }
                '$' | '%' if chars.peek().is_some_and(|(_, n)| *n == '{') => {
                    return Err(format!("`{c}{{` in a quoted key must be written `{c}{c}{{`"));
                }
                '$' | '%' if chars.peek().is_some_and(|(_, n)| *n == c) => {
                    // `$${` is a literal `${`; a `$$` before anything else is two dollars.
                    let mut ahead = chars.clone();
                    ahead.next();
                    if ahead.peek().is_some_and(|(_, n)| *n == '{') {
                        chars.next();
                    }
                    out.push(c);
                }
                '\n' => return Err("a quoted key cannot span lines".to_string()),
                c => out.push(c),
            }
        }
        Err("unterminated quoted key".to_string())
    }
}

/// `registry.opentofu.org/hashicorp/aws`, `registry.terraform.io/hashicorp/aws`, `hashicorp/AWS` and `aws` all name
/// the same provider: addresses are case-insensitive, the public registries' hosts are dropped (OpenTofu serves the
/// same namespaces under its registry), and a bare type means `hashicorp/<type>`.
pub fn normalise_source(source: &str) -> String {
    let lower = source.trim().to_lowercase();
    let parts: Vec<&str> = lower.split('/').collect();
    match parts.as_slice() {
        [ty] => format!("hashicorp/{ty}"),
        [host, ns, ty] if matches!(*host, "registry.opentofu.org" | "registry.terraform.io") => format!("{ns}/{ty}"),
        _ => lower,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(k: &str) -> Option<StateKey> {
        Some(StateKey::Str(k.into()))
    }

    #[test]
    fn provider_instances() {
        let p = parse_provider_instance(r#"provider["registry.opentofu.org/hashicorp/aws"].by_region["eu"]"#).unwrap();
        assert_eq!(p.source, "registry.opentofu.org/hashicorp/aws");
        assert_eq!(p.alias.as_deref(), Some("by_region"));
        assert_eq!(p.key, s("eu"));
        assert!(p.module.is_empty());

        let p = parse_provider_instance(r#"module.a.module.b.provider["example.com/x/y"]"#).unwrap();
        assert_eq!(p.module, vec![SmolStr::new("a"), SmolStr::new("b")]);
        assert_eq!((p.alias, p.key), (None, None));

        let p = parse_provider_instance(r#"provider["registry.terraform.io/hashicorp/aws"].x[3]"#).unwrap();
        assert_eq!(p.key, Some(StateKey::Int(3)));
    }

    #[test]
    fn quoted_keys_are_unescaped_as_hcl() {
        let p = parse_provider_instance(r#"provider["h/n/t"].a["$${x} %%{y} $$ 5% \"q\" \\ \u00e9 \n"]"#).unwrap();
        assert_eq!(p.key, s("${x} %{y} $$ 5% \"q\" \\ é \n"));
    }

    #[test]
    fn invalid_provider_addresses() {
        for bad in [
            "",
            "provider.aws",
            r#"provider["h/n/t"]["x"]"#,
            r#"module.a["k"].provider["h/n/t"]"#,
            r#"provider["h/n/t"].a["${x}"]"#,
            r#"provider["h/n/t"].a["x"].b"#,
            r#"provider["h/n/t"].a["x"#,
            r#"provider["h/n/t"].a[x]"#,
            r#"provider[""]"#,
            r#"provider["h/n/t"].a["\q"]"#,
        ] {
            assert!(parse_provider_instance(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn module_instances() {
        assert_eq!(parse_module_instance("").unwrap(), vec![]);
        assert_eq!(
            parse_module_instance(r#"module.regional["eu"].module.inner[0].module.c"#).unwrap(),
            vec![("regional".into(), s("eu")), ("inner".into(), Some(StateKey::Int(0))), ("c".into(), None)]
        );
        for bad in ["module", "module.", "mod.a", "module.a.", r#"module.a["x"]b"#, "module.a[x]"] {
            assert!(parse_module_instance(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn registry_hosts_and_case_do_not_matter() {
        for s in ["hashicorp/aws", "registry.opentofu.org/hashicorp/aws", "Registry.Terraform.io/HashiCorp/AWS", "aws"]
        {
            assert_eq!(normalise_source(s), "hashicorp/aws", "{s}");
        }
        assert_eq!(normalise_source("example.com/acme/aws"), "example.com/acme/aws");
        assert_eq!(normalise_source("integrations/github"), "integrations/github");
    }
}
