# `eu` was removed from the regions. Whether the bucket `b["eu"]` is still declared depends on a data source (the
# bucket's own `for_each`), which is known only at plan time: if it is not, the plan fails; if it is, the bucket
# takes its provider from the configuration. Not knowing which, the finding is an info that says so, never an error
# with advice to destroy. The queue is an orphan (its block is gone), so its finding is an error.
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us"])
  #          ^^^^^^^^^^^^^ info[provider-instance-removed-with-resources]: whether this resource instance is still declared is not known here (the `for_each` of `aws_s3_bucket.b` is not known statically
  region   = each.key
}

data "aws_s3_objects" "buckets" {
  bucket = "inventory"
}

resource "aws_s3_bucket" "b" {
  for_each = toset(data.aws_s3_objects.buckets.keys)
  provider = aws.by_region["us"]
}

provider "aws" {
  alias    = "by_account"
  for_each = toset(["prod"])
  #          ^^^^^^^^^^^^^^^ error[provider-instance-removed-with-resources]
}
