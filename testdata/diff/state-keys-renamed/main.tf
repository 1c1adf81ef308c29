# The regions map in terraform.tfvars had the keys `eu`, `us` and `ap`; it now has `euw1` and `use1`. The VPCs are
# keyed by region key through a local and a function, the log buckets counted by `length`, and the per-account
# buckets pick their provider instance by value.
variable "regions" {
  type = map(string)
}

locals {
  region_keys = toset(keys(var.regions))
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  #          ^^^^^^^^^^^ error[provider-instance-removed-with-resources]: this `for_each` no longer has the key "eu", but the state still has 1 resource instance created through provider instance `aws.by_region["eu"]` (`aws_vpc.this["eu"]`): `tofu plan` fails with "Provider instance not present"; either put "eu" back, destroy it first with `tofu apply -destroy -target='aws_vpc.this["eu"]'`, then remove "eu" again; or keep "eu" here and remove the element from the resources' own `for_each` instead (filter it out with an `enabled` attribute or `setsubtract`)
  #          ^^^^^^^^^^^ error[provider-instance-removed-with-resources]: this `for_each` no longer has the key "us", but the state still has 1 resource instance created through provider instance `aws.by_region["us"]` (`aws_vpc.this["us"]`): `tofu plan` fails with "Provider instance not present"; either put "us" back, destroy it first with `tofu apply -destroy -target='aws_vpc.this["us"]'`, then remove "us" again; or keep "us" here and remove the element from the resources' own `for_each` instead (filter it out with an `enabled` attribute or `setsubtract`)
  region   = each.value
}

resource "aws_vpc" "this" {
  for_each = local.region_keys
  provider = aws.by_region[each.key]
}

resource "aws_s3_bucket" "logs" {
  count = length(var.regions)
}

resource "aws_s3_bucket" "account" {
  for_each = { audit = "euw1" }
  provider = aws.by_region[each.value]
}
