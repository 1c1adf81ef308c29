# Nothing selects a workspace (no --workspace, no TF_WORKSPACE, no .terraform/environment): terraform.workspace is
# unknown, not `default`, so a map without a `default` key is no error, and what depends on it is unresolved.
locals {
  by_workspace = {
    staging = ["eu-west-1"]
    prod    = ["eu-west-1", "us-east-1"]
  }
  regions = toset(local.by_workspace[terraform.workspace])
  #       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: unknown
  name = "app-${tofu.workspace}"
  #      ^^^^^^^^^^^^^^^^^^^^^^^ value: unknown
}

provider "aws" {
  alias    = "by_region"
  for_each = local.regions
  #          ^^^^^^^^^^^^^ info[provider-for-each-unresolved]: depend on `terraform.workspace`, but no workspace selected
  region   = each.key
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["not-checked-without-a-workspace"]
}
