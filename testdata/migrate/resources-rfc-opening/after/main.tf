locals {
  # `enabled = false` on an entry destroys the resources merged for it while its provider instance
  # remains; remove the entry only once that has been applied.
  by_region = {
    us = {
      region  = "us-east-1"
      enabled = true
    }
    eu = {
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

resource "aws_s3_bucket" "primary" {
  for_each = { for k, v in local.by_region : k => v if v.enabled }

  provider = aws.by_region[each.key]
}

moved {
  from = aws_s3_bucket.primary_us
  to   = aws_s3_bucket.primary["us"]
}

moved {
  from = aws_s3_bucket.primary_eu
  to   = aws_s3_bucket.primary["eu"]
}

module "mod" {
  for_each = { for k, v in local.by_region : k => v if v.enabled }

  source = "./mod"
  providers = {
    aws = aws.by_region[each.key]
  }
}

moved {
  from = module.mod_us
  to   = module.mod["us"]
}

moved {
  from = module.mod_eu
  to   = module.mod["eu"]
}

output "buckets" {
  value = [aws_s3_bucket.primary["us"].arn, aws_s3_bucket.primary["eu"].arn]
}

output "eu_bucket" {
  value = module.mod["eu"].bucket
}
