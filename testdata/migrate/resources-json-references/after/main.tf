locals {
  # `enabled = false` on an entry destroys the resources merged for it while its provider instance
  # remains; remove the entry only once that has been applied.
  by_region = {
    use1 = {
      region  = "us-east-1"
      enabled = true
    }
    euw1 = {
      region  = "eu-west-1"
      enabled = true
    }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.by_region

  region = each.value.region
}

resource "aws_s3_bucket" "logs" {
  for_each = { for k, v in local.by_region : k => v if v.enabled }

  provider = aws.by_region[each.key]
}

moved {
  from = aws_s3_bucket.logs_use1
  to   = aws_s3_bucket.logs["use1"]
}

moved {
  from = aws_s3_bucket.logs_euw1
  to   = aws_s3_bucket.logs["euw1"]
}
