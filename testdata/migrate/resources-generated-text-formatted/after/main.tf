locals {
  # `enabled = false` on an entry destroys the resources merged for it while its provider instance
  # remains; remove the entry only once that has been applied.
  by_region = {
    us = {
      region      = "us-east-1"
      assume_role = null
      enabled     = true
    }
    euw1 = {
      region = "eu-west-1"
      assume_role = {
        role_arn = "arn:aws:iam::111111111111:role/deploy"
      }
      enabled = true
    }
    apse2 = {
      region = "ap-southeast-2"
      assume_role = {
        role_arn = "arn:aws:iam::222222222222:role/deploy"
      }
      enabled = true
    }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.by_region

  region = each.value.region

  dynamic "assume_role" {
    for_each = each.value.assume_role[*]
    content {
      role_arn = assume_role.value.role_arn
    }
  }
}

locals {
  aws_s3_bucket_logs = {
    us   = {}
    euw1 = {}
  }
}

resource "aws_s3_bucket" "logs" {
  for_each = { for k, v in local.aws_s3_bucket_logs : k => v if local.by_region[k].enabled }

  provider = aws.by_region[each.key]
  bucket   = "acme-logs"
}

moved {
  from = aws_s3_bucket.logs_us
  to   = aws_s3_bucket.logs["us"]
}

moved {
  from = aws_s3_bucket.logs_euw1
  to   = aws_s3_bucket.logs["euw1"]
}

resource "aws_sns_topic" "alerts_apse2" {
  provider = aws.by_region["apse2"] # Sydney
  name     = "alerts"               # one topic per account
}
