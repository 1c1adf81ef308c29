# The only constraint is in a `.tofu` file, which OpenTofu 1.6 and 1.7 do not read.
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1"])
 #^^^^^^^^ warning[feature-needs-newer-opentofu]: admit 1.6.0 to 1.7.10, where it is missing; OpenTofu before 1.8 reads `required_version` only in `.tf` files: add `required_version = ">= 1.9"` to one
  region   = each.value
}
