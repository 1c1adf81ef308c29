# Providers, one per region.

# The primary region.
locals {
  by_region = {
    use1 = {
      region = "us-east-1"
    }
    euw1 = {
      region = "eu-west-1"
    }
    euc1 = {
      region = "eu-central-1"
    }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.by_region

  region = each.value.region
}

# Buckets.

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["euc1"]
}
