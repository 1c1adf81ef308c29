# No constraint of its own: judged under each root that calls it.
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1"])
 #^^^^^^^^ warning[feature-needs-newer-opentofu]: `for_each` in a `provider` block needs OpenTofu 1.9, but the version constraints also admit 1.6.0 to 1.8.11, where it is missing
  region   = each.value
}
