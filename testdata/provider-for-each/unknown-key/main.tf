locals {
  regions = { us = "us-east-1", eu = "eu-west-1" }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.regions
  region   = each.value
}

resource "aws_s3_bucket" "literal" {
  provider = aws.by_region["ap"]
  #                        ^^^^ error[unknown-provider-instance]: no provider instance `ap` in `aws.by_region`
}

resource "aws_s3_bucket" "typo" {
  provider = aws.by_region["uss"]
  #                        ^^^^^ error[unknown-provider-instance]: did you mean `us`?
}

resource "aws_s3_bucket" "ok" {
  provider = aws.by_region["eu"]
}

resource "aws_s3_bucket" "each_key" {
  for_each = { us = 1, ap = 2 }
  provider = aws.by_region[each.key]
  #                        ^^^^^^^^ error[unknown-provider-instance]: `ap` for instance `["ap"]`
}

resource "aws_s3_bucket" "each_value" {
  for_each = toset(["a", "b"])
  provider = aws.by_region[local.region_of[each.value]]
}

locals {
  region_of = { a = "us", b = "eu" }
}

resource "aws_s3_bucket" "counted" {
  count    = 2
  provider = aws.by_region[count.index]
  #                        ^^^^^^^^^^^ error[unknown-provider-instance]: selects `0` for instance `[0]`, `1` for instance `[1]`
}

module "child" {
  source   = "./child"
  for_each = toset(["us", "sa"])
  providers = {
    aws = aws.by_region[each.key]
    #                   ^^^^^^^^ error[unknown-provider-instance]: `sa`
  }
}
