//! Bounds on one evaluation, so that hostile or accidental inputs (`range(1e9)`, `setproduct` of big sets, deep
//! nesting) give an `evaluation-limit` diagnostic instead of a stack overflow, an out-of-memory or a hang.

/// Limits for one evaluation. The defaults are far above anything a real configuration needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Nesting of expression evaluation (the parser already caps AST depth at 256; function calls add a little).
    pub max_depth: usize,
    /// Elements of one collection produced by a function or a `for` expression.
    pub max_collection: usize,
    /// Bytes of one string.
    pub max_string: usize,
    /// Nesting of one value. Locals can nest values without bound (`l2 = [local.l1]`, `l3 = [local.l2]`...), and
    /// everything that walks a value (printing, comparing, dropping) recurses on this depth.
    pub max_value_depth: usize,
    /// Evaluation steps (expression nodes, `for` iterations, function-internal loops) for one evaluation (one
    /// local, one `for_each`). Real configurations use thousands; 5 million take about a second in a debug build.
    pub max_steps: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_depth: 512,
            max_collection: 1_000_000,
            max_string: 16 << 20,
            max_value_depth: 256,
            max_steps: 5_000_000,
        }
    }
}

/// What ran out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exceeded {
    Depth,
    Collection(usize),
    String(usize),
    ValueDepth(usize),
    Steps,
}

impl Exceeded {
    pub fn message(&self, budget: &Budget) -> String {
        match self {
            Exceeded::Depth => format!("expression nesting exceeds the evaluation limit of {}", budget.max_depth),
            Exceeded::Collection(n) => {
                format!("result would have {n} elements, more than the evaluation limit of {}", budget.max_collection)
            }
            Exceeded::String(n) => {
                format!(
                    "result would be a string of {n} bytes, more than the evaluation limit of {}",
                    budget.max_string
                )
            }
            Exceeded::ValueDepth(n) => {
                format!("the value nests {n} levels deep, more than the evaluation limit of {}", budget.max_value_depth)
            }
            Exceeded::Steps => format!("evaluation takes more than {} steps", budget.max_steps),
        }
    }
}
