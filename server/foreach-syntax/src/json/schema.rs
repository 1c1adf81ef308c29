//! OpenTofu's configuration schema, as far as the JSON syntax needs it: which properties of a body are nested
//! blocks (with their label counts) and which attributes are not templates.
//!
//! Only the language's own blocks are known. Provider-defined nested blocks (`ingress` in a security group) stay
//! attributes with object values, because telling them apart needs the provider's schema, which the syntax layer
//! does not have.

/// How the JSON value of an attribute is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttrMode {
    /// Strings are HCL templates (the default for every attribute).
    Template,
    /// Strings are plain strings (`variable.default`, `.tfvars.json` values).
    Literal,
    /// A string holding one HCL expression (`provider = "aws.by_region[each.key]"`, `type = "map(string)"`).
    Expr,
    /// An array of such strings (`depends_on`).
    ExprList,
    /// An object whose keys and values are such strings (a module's `providers`).
    ExprMap,
}

impl AttrMode {
    /// The mode of an array element.
    pub(crate) fn element(self) -> AttrMode {
        match self {
            AttrMode::ExprList | AttrMode::Expr => AttrMode::Expr,
            AttrMode::Literal => AttrMode::Literal,
            AttrMode::Template | AttrMode::ExprMap => AttrMode::Template,
        }
    }

    /// The modes of an object's keys and values.
    pub(crate) fn entries(self) -> (AttrMode, AttrMode) {
        match self {
            AttrMode::ExprMap => (AttrMode::Expr, AttrMode::Expr),
            AttrMode::Literal => (AttrMode::Literal, AttrMode::Literal),
            AttrMode::Template | AttrMode::Expr | AttrMode::ExprList => (AttrMode::Literal, AttrMode::Template),
        }
    }
}

/// A nested block type: how many label levels its JSON takes and what its body holds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BlockSchema {
    pub labels: usize,
    pub body: &'static BodySchema,
}

/// What a block body holds besides plain template attributes.
#[derive(Debug)]
pub(crate) struct BodySchema {
    blocks: &'static [(&'static str, BlockSchema)],
    attrs: &'static [(&'static str, AttrMode)],
}

impl BodySchema {
    pub(crate) fn block(&self, name: &str) -> Option<BlockSchema> {
        self.blocks.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
    }

    pub(crate) fn attr_mode(&self, name: &str) -> AttrMode {
        self.attrs.iter().find(|(n, _)| *n == name).map_or(AttrMode::Template, |(_, m)| *m)
    }
}

const fn block(labels: usize, body: &'static BodySchema) -> BlockSchema {
    BlockSchema { labels, body }
}

static ATTRS: BodySchema = BodySchema { blocks: &[], attrs: &[] };

static CONDITION: BlockSchema = block(0, &ATTRS);

static CONNECTION: BlockSchema = block(0, &ATTRS);

static PROVISIONER: BodySchema = BodySchema { blocks: &[("connection", CONNECTION)], attrs: &[] };

static LIFECYCLE: BodySchema = BodySchema {
    blocks: &[("precondition", CONDITION), ("postcondition", CONDITION)],
    attrs: &[("ignore_changes", AttrMode::ExprList), ("replace_triggered_by", AttrMode::ExprList)],
};

static DYNAMIC: BodySchema = BodySchema { blocks: &[("content", block(0, &ATTRS))], attrs: &[] };

/// `resource`, `data` and `ephemeral` bodies.
static RESOURCE: BodySchema = BodySchema {
    blocks: &[
        ("lifecycle", block(0, &LIFECYCLE)),
        ("connection", CONNECTION),
        ("provisioner", block(1, &PROVISIONER)),
        ("dynamic", block(1, &DYNAMIC)),
    ],
    attrs: &[("provider", AttrMode::Expr), ("depends_on", AttrMode::ExprList)],
};

static MODULE: BodySchema =
    BodySchema { blocks: &[], attrs: &[("providers", AttrMode::ExprMap), ("depends_on", AttrMode::ExprList)] };

static VARIABLE: BodySchema = BodySchema {
    blocks: &[("validation", CONDITION)],
    attrs: &[("default", AttrMode::Literal), ("type", AttrMode::Expr)],
};

static OUTPUT: BodySchema =
    BodySchema { blocks: &[("precondition", CONDITION)], attrs: &[("depends_on", AttrMode::ExprList)] };

static CLOUD: BodySchema = BodySchema { blocks: &[("workspaces", block(0, &ATTRS))], attrs: &[] };

static ENCRYPTION_TARGET: BodySchema = BodySchema { blocks: &[("fallback", block(0, &ATTRS))], attrs: &[] };

static REMOTE_STATE_DATA_SOURCES: BodySchema = BodySchema {
    blocks: &[("default", block(0, &ENCRYPTION_TARGET)), ("remote_state_data_source", block(1, &ENCRYPTION_TARGET))],
    attrs: &[],
};

static ENCRYPTION: BodySchema = BodySchema {
    blocks: &[
        ("key_provider", block(2, &ATTRS)),
        ("method", block(2, &ATTRS)),
        ("state", block(0, &ENCRYPTION_TARGET)),
        ("plan", block(0, &ENCRYPTION_TARGET)),
        ("remote_state_data_sources", block(0, &REMOTE_STATE_DATA_SOURCES)),
    ],
    attrs: &[],
};

static TERRAFORM: BodySchema = BodySchema {
    blocks: &[
        ("required_providers", block(0, &ATTRS)),
        ("backend", block(1, &ATTRS)),
        ("cloud", block(0, &CLOUD)),
        ("encryption", block(0, &ENCRYPTION)),
    ],
    attrs: &[],
};

static CHECK: BodySchema =
    BodySchema { blocks: &[("data", block(2, &RESOURCE)), ("assert", block(0, &ATTRS))], attrs: &[] };

static IMPORT: BodySchema = BodySchema { blocks: &[], attrs: &[("to", AttrMode::Expr), ("provider", AttrMode::Expr)] };

static MOVED: BodySchema = BodySchema { blocks: &[], attrs: &[("from", AttrMode::Expr), ("to", AttrMode::Expr)] };

static REMOVED: BodySchema = BodySchema {
    blocks: &[("lifecycle", block(0, &LIFECYCLE)), ("provisioner", block(1, &PROVISIONER))],
    attrs: &[("from", AttrMode::Expr)],
};

/// OpenTofu 1.12's `language { compatible_with { opentofu = "…" } }`.
static LANGUAGE: BodySchema = BodySchema { blocks: &[("compatible_with", block(0, &ATTRS))], attrs: &[] };

/// The root of a `.tf.json` / `.tofu.json` file.
pub(crate) static ROOT: BodySchema = BodySchema {
    blocks: &[
        ("resource", block(2, &RESOURCE)),
        ("data", block(2, &RESOURCE)),
        ("ephemeral", block(2, &RESOURCE)),
        ("module", block(1, &MODULE)),
        ("provider", block(1, &ATTRS)),
        ("variable", block(1, &VARIABLE)),
        ("output", block(1, &OUTPUT)),
        ("locals", block(0, &ATTRS)),
        ("terraform", block(0, &TERRAFORM)),
        ("check", block(1, &CHECK)),
        ("import", block(0, &IMPORT)),
        ("moved", block(0, &MOVED)),
        ("removed", block(0, &REMOVED)),
        ("language", block(0, &LANGUAGE)),
        // Terraform-only (1.14): read as a block so that the analysis can say so.
        ("action", block(2, &ATTRS)),
    ],
    attrs: &[],
};

static RUN: BodySchema = BodySchema {
    blocks: &[("variables", block(0, &ATTRS)), ("assert", block(0, &ATTRS)), ("module", block(0, &ATTRS))],
    attrs: &[("expect_failures", AttrMode::ExprList)],
};

/// The root of a `.tftest.json` / `.tofutest.json` file.
pub(crate) static TEST_ROOT: BodySchema = BodySchema {
    blocks: &[
        ("run", block(1, &RUN)),
        ("variables", block(0, &ATTRS)),
        ("provider", block(1, &ATTRS)),
        ("mock_provider", block(1, &ATTRS)),
    ],
    attrs: &[],
};
