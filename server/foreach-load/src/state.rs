//! Reads OpenTofu state files (format version 4: a local `terraform.tfstate`, or `tofu state pull` output) into the
//! analysis's [`StateBindings`]: which managed resource instance objects exist and through which provider instance
//! each was created. Nothing else is kept, and nothing is ever written.
//!
//! The JSON is decoded in one pass over the bytes, resource by resource, borrowing strings from the input where
//! they have no escapes; attributes and everything else are skipped without being built. A 50 MB state is read in
//! its own size plus the few megabytes of bindings (`docs/performance.md`).
//!
//! The format is OpenTofu's `internal/states/statefile/version4.go`: a resource's `provider` is used by its
//! instances unless an instance (or deposed object) carries its own, which OpenTofu 1.9+ writes for keyed provider
//! instances (`provider["registry.opentofu.org/hashicorp/aws"].by_region["eu"]`). Where both are written, the
//! instance's wins, as in OpenTofu (whose "Provider field conflict in state" is a warning it never shows). What
//! OpenTofu refuses is refused here too, with its reason: no provider on the resource nor on an instance ("Provider
//! field missing"), and instances of one resource that name different provider configurations, not only different
//! keys of one ("Provider instance field conflict in state").

use std::borrow::Cow;
use std::fmt;

use foreach_analysis::state::{RootState, StateBindings, StateBuilder, StateKey};
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// Decodes a state file. The error says why it cannot be used, in words for `cannot read state FILE: <why>`.
pub fn read_state(bytes: &[u8]) -> Result<StateBindings, String> {
    // OpenTofu treats an empty state file as no state at all.
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(StateBindings::default());
    }
    let mut builder = StateBuilder::new();
    let mut top = Top::default();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let decoded = TopSeed { builder: &mut builder, top: &mut top }.deserialize(&mut de).and_then(|()| de.end());
    if let Err(e) = decoded {
        // A future format may shape its resources differently: say which version it is rather than what failed.
        if let Some(why) = sniff_version(bytes) {
            return Err(why);
        }
        return Err(match e.classify() {
            serde_json::error::Category::Eof => format!("it ends in the middle of the JSON ({e}): is it truncated?"),
            serde_json::error::Category::Syntax => format!("it is not valid JSON ({e})"),
            _ => format!("it is not a valid state of format version 4 ({e})"),
        });
    }
    check_version(&top)?;
    if let Some(why) = top.error {
        return Err(why);
    }
    Ok(builder.finish())
}

/// Reads the state file at `path` for a root module. A local state file (found next to the root) that does not
/// exist means no state (`None`); a `configured` one (named by an editor setting) must exist. Any other failure is
/// [`RootState::Unreadable`], which the analysis reports as `unreadable-state` and checks the root without state:
/// only a state given with `--state` stops the command, and the caller handles that itself.
pub fn read_root_state(path: &str, configured: bool) -> Option<RootState> {
    let unreadable = |why: String| Some(RootState::Unreadable { path: path.to_string(), why, configured });
    match std::fs::read(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !configured => None,
        Err(e) => unreadable(e.to_string()),
        Ok(bytes) => match read_state(&bytes) {
            Ok(bindings) => Some(RootState::Bindings(std::sync::Arc::new(bindings))),
            Err(why) => unreadable(why),
        },
    }
}

/// The top-level fields that decide whether the file is a state foreach-ls can read.
#[derive(Default)]
struct Top {
    version: Option<serde_json::Value>,
    encrypted: bool,
    /// The first invalid address met while decoding resources (reported only if the version is right).
    error: Option<String>,
}

fn check_version(top: &Top) -> Result<(), String> {
    match &top.version {
        Some(v) if v.as_u64() == Some(4) => Ok(()),
        Some(v) => Err(format!(
            "it has state format version {v}; foreach-ls reads format version 4, which OpenTofu writes (and Terraform \
             since 0.12)"
        )),
        None if top.encrypted => Err("it is encrypted (OpenTofu state encryption), and foreach-ls has no keys; pass \
                                      the decrypted output of `tofu state pull` instead, e.g. `tofu state pull | \
                                      foreach-ls check --state -`"
            .to_string()),
        None => Err("it has no `version` attribute, so it is not an OpenTofu state file".to_string()),
    }
}

/// Only the version and the encryption marker, when the full decoding failed.
fn sniff_version(bytes: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Sniff {
        #[serde(default)]
        version: Option<serde_json::Value>,
        #[serde(default)]
        encrypted_data: Option<IgnoredAny>,
    }
    let sniff: Sniff = serde_json::from_slice(bytes).ok()?;
    let top = Top { version: sniff.version, encrypted: sniff.encrypted_data.is_some(), error: None };
    check_version(&top).err()
}

struct TopSeed<'b> {
    builder: &'b mut StateBuilder,
    top: &'b mut Top,
}

impl<'de> DeserializeSeed<'de> for TopSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for TopSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "version" => self.top.version = Some(map.next_value()?),
                "encrypted_data" => {
                    map.next_value::<IgnoredAny>()?;
                    self.top.encrypted = true;
                }
                "resources" => {
                    map.next_value_seed(ResourcesSeed { builder: self.builder, error: &mut self.top.error })?
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

struct ResourcesSeed<'b> {
    builder: &'b mut StateBuilder,
    error: &'b mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for ResourcesSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ResourcesSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of resources")
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    /// One resource at a time: decoded, added to the bindings, dropped.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(resource) = seq.next_element::<Resource<'de>>()? {
            if self.error.is_none()
                && let Err(e) = add_resource(self.builder, &resource)
            {
                *self.error = Some(e);
            }
        }
        Ok(())
    }
}

/// Strings are borrowed from the input where they have no escapes (`#[serde(borrow)]` on a plain `Cow`; OpenTofu
/// omits empty fields rather than writing `null`).
#[derive(Deserialize)]
struct Resource<'a> {
    #[serde(default, borrow)]
    module: Cow<'a, str>,
    #[serde(borrow)]
    mode: Cow<'a, str>,
    #[serde(rename = "type", borrow)]
    ty: Cow<'a, str>,
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(default, borrow)]
    provider: Cow<'a, str>,
    #[serde(default, borrow)]
    instances: Option<Vec<Instance<'a>>>,
}

#[derive(Deserialize)]
struct Instance<'a> {
    #[serde(default)]
    index_key: IndexKey,
    #[serde(default, borrow)]
    deposed: Cow<'a, str>,
    #[serde(default, borrow)]
    provider: Cow<'a, str>,
}

fn add_resource(builder: &mut StateBuilder, r: &Resource<'_>) -> Result<(), String> {
    // Data sources are read again on every plan and need no provider to be dropped: they never trap.
    if r.mode != "managed" {
        return Ok(());
    }
    let module: &str = &r.module;
    let instances = r.instances.as_deref().unwrap_or_default();
    if instances.is_empty() {
        return Ok(());
    }
    let index = builder.resource(module, &r.ty, &r.name)?;
    let address = || {
        let prefix = if module.is_empty() { String::new() } else { format!("{module}.") };
        format!("{prefix}{}.{}", r.ty, r.name)
    };
    // The provider instance of the first instance that names its own: every other one must be of its configuration.
    let mut first_own: Option<u32> = None;
    for i in instances {
        let provider: &str = if i.provider.is_empty() { &r.provider } else { &i.provider };
        if provider.is_empty() {
            return Err(format!("resource `{}` has no provider address", address()));
        }
        let deposed = Some(&*i.deposed).filter(|d| !d.is_empty());
        let bound = builder.object(index, i.index_key.0.clone(), deposed, provider)?;
        if i.provider.is_empty() {
            continue;
        }
        match first_own {
            None => first_own = Some(bound),
            Some(first) if !builder.provider(first).same_config(builder.provider(bound)) => {
                return Err(format!(
                    "resource `{}` has instances created through different provider configurations, `{}` and `{}`; \
                     the instances of one resource may differ only in the provider instance key, and OpenTofu \
                     refuses this state too (\"Provider instance field conflict in state\")",
                    address(),
                    builder.provider(first).config_address(),
                    builder.provider(bound).config_address(),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// `index_key`: absent or null (no key), a string (`for_each`) or a whole number (`count`).
#[derive(Default)]
struct IndexKey(Option<StateKey>);

impl<'de> Deserialize<'de> for IndexKey {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<IndexKey, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = IndexKey;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an instance key (a string or a whole number)")
            }

            fn visit_unit<E: de::Error>(self) -> Result<IndexKey, E> {
                Ok(IndexKey(None))
            }

            fn visit_none<E: de::Error>(self) -> Result<IndexKey, E> {
                Ok(IndexKey(None))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<IndexKey, E> {
                Ok(IndexKey(Some(StateKey::Str(v.into()))))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<IndexKey, E> {
                Ok(IndexKey(Some(StateKey::Int(v))))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<IndexKey, E> {
                i64::try_from(v).map(|v| IndexKey(Some(StateKey::Int(v)))).map_err(E::custom)
            }

            /// JSON has one number type; OpenTofu truncates a decoded float to an integer key.
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<IndexKey, E> {
                if v.is_finite() && v.abs() < 9.0e15 {
                    Ok(IndexKey(Some(StateKey::Int(v as i64))))
                } else {
                    Err(E::custom(format!("invalid instance key {v}")))
                }
            }
        }
        deserializer.deserialize_any(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROVIDER: &str = r#"provider[\"registry.opentofu.org/hashicorp/aws\"]"#;

    fn state(resources: &str) -> String {
        format!(
            r#"{{"version": 4, "terraform_version": "1.9.0", "serial": 1, "lineage": "x", "outputs": {{}}, "resources": [{resources}]}}"#
        )
    }

    #[test]
    fn keyed_provider_instances_deposed_objects_and_modules() {
        let text = state(&format!(
            r#"{{"module": "module.regional[\"eu\"]", "mode": "managed", "type": "aws_s3_bucket", "name": "b",
                "instances": [
                  {{"index_key": "x", "schema_version": 0, "attributes": {{"id": "a", "nested": [1, {{"k": null}}]}},
                    "provider": "{PROVIDER}.by_region[\"eu\"]"}},
                  {{"index_key": "x", "deposed": "00000001", "attributes": {{}}, "provider": "{PROVIDER}.by_region[\"eu\"]"}}
                ]}},
               {{"mode": "data", "type": "aws_region", "name": "r", "provider": "{PROVIDER}", "instances": [{{}}]}},
               {{"mode": "managed", "type": "aws_vpc", "name": "v", "provider": "{PROVIDER}.use1",
                 "instances": [{{"index_key": 0}}, {{"index_key": 1.0}}]}}"#
        ));
        let b = read_state(text.as_bytes()).unwrap();
        assert_eq!(b.objects.len(), 4);
        assert_eq!(b.resources.len(), 2);
        assert_eq!(b.providers.len(), 2);
        assert_eq!(b.instance_address(&b.objects[0]), r#"module.regional["eu"].aws_s3_bucket.b["x"]"#);
        assert_eq!(b.objects[1].deposed.as_deref(), Some("00000001"));
        assert_eq!(b.providers[0].key, Some(StateKey::Str("eu".into())));
        assert_eq!(b.providers[1].alias.as_deref(), Some("use1"));
        assert_eq!(b.instance_address(&b.objects[3]), "aws_vpc.v[1]");
    }

    #[test]
    fn bad_input_says_why() {
        let err = |text: &str| read_state(text.as_bytes()).unwrap_err();
        assert!(err("not json").contains("not valid JSON"), "{}", err("not json"));
        let full = state(&format!(
            r#"{{"mode": "managed", "type": "a_b", "name": "c", "provider": "{PROVIDER}", "instances": [{{}}]}}"#
        ));
        assert!(read_state(full.as_bytes()).is_ok());
        let truncated = &full[..full.len() / 2];
        assert!(err(truncated).contains("truncated"), "{}", err(truncated));
        assert!(err(r#"{"version": 3, "modules": []}"#).contains("format version 3"));
        assert!(err(r#"{"version": 5, "resources": {"new": "shape"}}"#).contains("format version 5"));
        assert!(err(r#"{"serial": 1}"#).contains("no `version`"));
        let encrypted =
            r#"{"meta": {"key_provider.pbkdf2.k": "e30="}, "encrypted_data": "AAAA", "encryption_version": "v0"}"#;
        assert!(err(encrypted).contains("tofu state pull"), "{}", err(encrypted));
        let no_provider = state(r#"{"mode": "managed", "type": "a_b", "name": "c", "instances": [{}]}"#);
        assert!(err(&no_provider).contains("no provider address"));
        let bad_provider =
            state(r#"{"mode": "managed", "type": "a_b", "name": "c", "provider": "provider.aws", "instances": [{}]}"#);
        assert!(err(&bad_provider).contains("invalid provider address"), "{}", err(&bad_provider));
        assert!(err(&format!("{full} trailing")).contains("not valid JSON"));
        assert!(read_state(b"  \n").unwrap().objects.is_empty());
    }

    /// OpenTofu's reading of `provider` on a resource and on its instances (`version4.go`): the instance's wins over
    /// the resource's (OpenTofu's "Provider field conflict in state" is only a warning, which it never shows), and
    /// instances may differ in the key but not in the configuration ("Provider instance field conflict in state").
    #[test]
    fn provider_on_the_resource_and_on_instances_is_read_as_opentofu_reads_it() {
        let both = state(&format!(
            r#"{{"mode": "managed", "type": "a_b", "name": "c", "provider": "{PROVIDER}.old",
                "instances": [{{"index_key": "eu", "provider": "{PROVIDER}.by_region[\"eu\"]"}}, {{"index_key": "us"}}]}}"#
        ));
        let b = read_state(both.as_bytes()).unwrap();
        let bound: Vec<(Option<&str>, Option<&StateKey>)> = b
            .objects
            .iter()
            .map(|o| (b.providers[o.provider as usize].alias.as_deref(), b.providers[o.provider as usize].key.as_ref()))
            .collect();
        let eu = StateKey::Str("eu".into());
        assert_eq!(bound, [(Some("by_region"), Some(&eu)), (Some("old"), None)]);

        let keys = state(&format!(
            r#"{{"mode": "managed", "type": "a_b", "name": "c", "instances": [
                {{"index_key": "eu", "provider": "{PROVIDER}.by_region[\"eu\"]"}},
                {{"index_key": "us", "provider": "{PROVIDER}.by_region[\"us\"]"}},
                {{"index_key": "x", "deposed": "00000001", "provider": "provider[\"registry.opentofu.org/HashiCorp/AWS\"].by_region[\"x\"]"}}]}}"#
        ));
        assert_eq!(read_state(keys.as_bytes()).unwrap().objects.len(), 3, "one configuration, several keys");

        let conflict = state(&format!(
            r#"{{"module": "module.m", "mode": "managed", "type": "a_b", "name": "c", "instances": [
                {{"index_key": "eu", "provider": "{PROVIDER}.by_region[\"eu\"]"}},
                {{"index_key": "us", "provider": "{PROVIDER}.use1"}}]}}"#
        ));
        let err = read_state(conflict.as_bytes()).unwrap_err();
        assert_eq!(
            err,
            r#"resource `module.m.a_b.c` has instances created through different provider configurations, `provider["registry.opentofu.org/hashicorp/aws"].by_region` and `provider["registry.opentofu.org/hashicorp/aws"].use1`; the instances of one resource may differ only in the provider instance key, and OpenTofu refuses this state too ("Provider instance field conflict in state")"#
        );
    }

    #[test]
    fn a_missing_file_is_no_state_only_when_local() {
        let dir = std::env::temp_dir().join(format!("foreach-load-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.tfstate");
        let missing = missing.to_str().unwrap();
        assert_eq!(read_root_state(missing, false), None);
        assert!(matches!(read_root_state(missing, true), Some(RootState::Unreadable { configured: true, .. })));
        let bad = dir.join("bad.tfstate");
        std::fs::write(&bad, "{").unwrap();
        let read = read_root_state(bad.to_str().unwrap(), false);
        assert!(
            matches!(&read, Some(RootState::Unreadable { why, configured: false, .. }) if why.contains("truncated"))
        );
        std::fs::write(&bad, state("")).unwrap();
        assert!(matches!(read_root_state(bad.to_str().unwrap(), true), Some(RootState::Bindings(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn hostile_input_ends_in_an_error_not_a_crash() {
        // Skipped values are skipped without recursion; a deep `version` meets serde_json's recursion limit.
        let deep =
            format!(r#"{{"version": 4, "resources": [], "outputs": {}{}}}"#, "[".repeat(100_000), "]".repeat(100_000));
        assert!(read_state(deep.as_bytes()).is_ok());
        let deep = format!(r#"{{"version": {}{}}}"#, "[".repeat(100_000), "]".repeat(100_000));
        assert!(read_state(deep.as_bytes()).is_err());
        for text in [
            "\u{feff}{}",
            r#"{"version": 4, "resources": [{"mode": "managed", "type": "a_b", "name": "c", "instances": [{"index_key": true}]}]}"#,
            r#"{"version": 4, "resources": [{"mode": "managed", "type": "a_b", "name": "c", "instances": [{"index_key": 1e300}]}]}"#,
            r#"{"version": 4, "resources": [{"mode": "managed", "type": "a_b", "name": "c", "module": "module.é[\"\u0000\"]", "provider": "provider[\"x\"].é[-1]", "instances": [{}]}]}"#,
            r#"{"version": 4, "resources": {}}"#,
            r#"[4]"#,
            "\u{0}",
        ] {
            let _ = read_state(text.as_bytes());
        }
        // Names are HCL identifiers, which may be non-ASCII.
        let ok = r#"{"version": 4, "resources": [{"mode": "managed", "type": "a_b", "name": "c", "module": "module.é[\"\u0000\"]", "provider": "provider[\"x\"].é[-1]", "instances": [{}]}]}"#;
        assert_eq!(read_state(ok.as_bytes()).unwrap().objects.len(), 1);
    }
}
