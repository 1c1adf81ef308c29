# The docs' cross-tool layout: OpenTofu 1.8 and later read versions.tofu instead of versions.tf, so `>= 1.9`
# keeps 1.8 out; 1.6 and 1.7 read versions.tf, whose `>= 1.6` admits them.
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1"])
 #^^^^^^^^ warning[feature-needs-newer-opentofu]: needs OpenTofu 1.9, but the version constraints also admit 1.6.0 to 1.7.10, where it is missing
 #^^^^^^^^ warning[not-in-terraform]: `for_each` in a `provider` block is not in Terraform, and this module declares that Terraform can run it
  region   = each.value
}
