# A data source nested in a `check` block is a data source of the module: its `provider` reference is checked like
# any other (and `inspect` lists it).
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1", "eu-west-1"])
  region   = each.key
}

check "bucket_exists" {
  data "aws_s3_bucket" "logs" {
    provider = aws.by_region["us-east-1"]
    bucket   = "logs"
  }

  assert {
    condition     = data.aws_s3_bucket.logs.id != ""
    error_message = "the logs bucket is missing"
  }
}

check "wrong_key" {
  data "aws_s3_bucket" "archive" {
    provider = aws.by_region["ap-south-1"]
    #                        ^^^^^^^^^^^^ error[unknown-provider-instance]
    bucket   = var.archive_bucket
    #          ^^^^^^^^^^^^^^^^^^ error[undefined-reference]
  }

  assert {
    condition     = data.aws_s3_bucket.archive.id != ""
    error_message = "the archive bucket is missing"
  }
}

check "no_key" {
  data "aws_region" "current" {
    provider = aws.by_region
    #          ^^^^^^^^^^^^^ error[missing-provider-instance-key]
  }

  assert {
    condition     = data.aws_region.current.name != ""
    error_message = "no region"
  }
}

check "typo" {
  data "aws_caller_identity" "me" {
    provider = aws.by_regoin["us-east-1"]
    #          ^^^^^^^^^^^^^ error[unknown-provider-config]
  }

  assert {
    condition     = data.aws_caller_identity.me.account_id != ""
    error_message = "no account"
  }
}
