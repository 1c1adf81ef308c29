# "eu" was removed from the regions, but the state still has a bucket created through `aws.by_region["eu"]`; the
# data source read through it does not count.
variable "regions" {
  type    = set(string)
  default = ["us"]
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  #          ^^^^^^^^^^^ error[provider-instance-removed-with-resources]: 2 resource instances created through provider instance `aws.by_region["eu"]` (`aws_s3_bucket.b["eu"]`, `aws_s3_bucket.c`)
  region   = each.key
}

resource "aws_s3_bucket" "b" {
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]: right now the state has resources created through its instances "us" (1 resource instance): removing one of these elements makes the plan fail
  provider = aws.by_region[each.key]
}

data "aws_region" "current" {
  provider = aws.by_region["us"]
}
