# `compatible_with.terraform` (foreach-ls's convention) says Terraform runs this module too.
terraform {
  required_version = ">= 1.9"
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1"])
 #^^^^^^^^ warning[not-in-terraform]: is not in Terraform
  region   = each.value
}

ephemeral "random_password" "db" {
# @0..9 warning[feature-needs-newer-opentofu]: an ephemeral resource (`ephemeral` block) needs OpenTofu 1.11, but the version constraints also admit 1.9.0 to 1.10.10, where it is missing
# @0..9 warning[not-in-terraform]: needs Terraform 1.10, but the module's Terraform constraint admits 1.9.0 to 1.9.8
  length = 16
}
