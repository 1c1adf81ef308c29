# `for_each` was added to `aws.by_region` while the state still has a resource created through its single instance.
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us", "eu"])
  #          ^^^^^^^^^^^^^^^^^^^ error[provider-instance-removed-with-resources]: this configuration now has `for_each`
  region   = each.key
}

resource "aws_s3_bucket" "b" {
  for_each = toset(["us", "eu"])
  provider = aws.by_region[each.key]
}
