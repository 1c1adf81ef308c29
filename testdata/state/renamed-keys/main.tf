# The provider's keys were renamed (`eu` -> `euw1`, `us` -> `use1`) while every bucket is still declared and now
# selects an existing key. The state binds the buckets to `aws.by_region["eu"]` and `["us"]`, which are gone, but a
# declared resource instance takes its provider from the configuration (OpenTofu uses the one in the state only to
# destroy orphans), so nothing traps: no finding, and above all no advice to destroy anything.
variable "regions" {
  type    = map(string)
  default = { euw1 = "eu-west-1", use1 = "us-east-1" }
}

variable "buckets" {
  type    = map(string)
  default = { logs = "euw1", data = "use1" }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

resource "aws_s3_bucket" "b" {
  for_each = var.buckets
  provider = aws.by_region[each.value]
  bucket   = each.key
}
