# Each environment selects a workspace; the provider's keys depend on it.
locals {
  regions = {
    prod    = ["eu-west-1", "us-east-1"]
    staging = ["us-east-1"]
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(local.regions[terraform.workspace])
  region   = each.key
}

resource "aws_s3_bucket" "b" {
  provider = aws.by_region["eu-west-1"]
  #                        ^^^^^^^^^^^ error[unknown-provider-instance]: (staging) no provider instance `eu-west-1`
}
