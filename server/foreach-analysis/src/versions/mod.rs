//! Which OpenTofu (and Terraform) can run a module: the feature table ([`features`]), version constraints as
//! `hashicorp/go-version` reads them ([`constraint`]), the releases they are judged against ([`releases`]), the
//! constructs and constraints each file holds ([`usage`], found while the file is summarised), which constraints
//! each release reads and what each root's tree admits ([`reading`]), and the diagnostics ([`checks`]):
//! `feature-needs-newer-opentofu`, `not-in-terraform`, `invalid-version-constraint`. `docs/versions.md` explains
//! the rules and lists the table with its sources.

pub mod checks;
pub mod constraint;
pub mod features;
pub mod reading;
pub mod releases;
pub mod usage;
