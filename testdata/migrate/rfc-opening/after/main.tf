locals {
  by_region = {
    us = {
      region = "us-east-1"
    }
    eu = {
      region = "eu-west-1"
    }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.by_region

  region = each.value.region
}

resource "aws_s3_bucket" "primary_us" {
  provider = aws.by_region["us"]
}

resource "aws_s3_bucket" "primary_eu" {
  provider = aws.by_region["eu"]
}

module "mod_us" {
  source = "./mod"
  providers = {
    aws = aws.by_region["us"]
  }
}

module "mod_eu" {
  source = "./mod"
  providers = {
    aws = aws.by_region["eu"]
  }
}
