locals {
  by_region = {
    us = {
      region      = "us-east-1"
      profile     = "us"
      assume_role = null
    }
    euw1 = {
      region      = "eu-west-1"
      profile     = "eu"
      assume_role = {}
    }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.by_region

  region  = each.value.region
  profile = each.value.profile

  dynamic "assume_role" {
    for_each = each.value.assume_role[*]
    content {
      role_arn = "arn:aws:iam::111111111111:role/deploy"
    }
  }
}

resource "aws_s3_bucket" "logs" {
  provider=aws.by_region["euw1"]
  bucket =   "acme-logs"
}
