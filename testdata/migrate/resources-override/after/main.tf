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

resource "aws_vpc" "vpc_use1" {
  provider   = aws.by_region["use1"]
  cidr_block = "10.0.0.0/16"
}

resource "aws_vpc" "vpc_euw1" {
  provider   = aws.by_region["euw1"]
  cidr_block = "10.1.0.0/16"
}

locals {
  aws_s3_bucket_logs = {
    use1 = {
      bucket = "logs-use1"
    }
    euw1 = {
      bucket = "logs-euw1"
    }
  }
}

resource "aws_s3_bucket" "logs" {
  for_each = { for k, v in local.aws_s3_bucket_logs : k => v if local.by_region[k].enabled }

  provider = aws.by_region[each.key]
  bucket   = each.value.bucket
}

moved {
  from = aws_s3_bucket.logs_use1
  to   = aws_s3_bucket.logs["use1"]
}

moved {
  from = aws_s3_bucket.logs_euw1
  to   = aws_s3_bucket.logs["euw1"]
}

resource "aws_sns_topic" "alerts_use1" {
  provider = aws.by_region["use1"]
  name     = "alerts-use1"
}

resource "aws_sns_topic" "alerts_euw1" {
  provider = aws.by_region["euw1"]
  name     = "alerts-euw1"
}

resource "aws_s3_bucket" "audit" {
  provider = aws.by_region["use1"]
  bucket   = "audit"
}

output "logs" {
  value = aws_s3_bucket.logs["use1"].arn
}
