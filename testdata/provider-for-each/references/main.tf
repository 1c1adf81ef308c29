provider "aws" {
  alias    = "by_region"
  for_each = toset(["us", "eu"])
  region   = each.key
}

provider "aws" {
  alias  = "single"
  region = "us-east-1"
}

provider "postgresql" {
  alias = "main"
}

resource "aws_s3_bucket" "no_key" {
  provider = aws.by_region
  #          ^^^^^^^^^^^^^ error[missing-provider-instance-key]
}

resource "aws_s3_bucket" "key_on_single" {
  provider = aws.single["us"]
  #                     ^^^^ error[unexpected-provider-instance-key]
}

resource "aws_s3_bucket" "unknown_alias" {
  provider = aws.by_regoin["us"]
  #          ^^^^^^^^^^^^^ error[unknown-provider-config]: did you mean `aws.by_region`?
}

resource "postgresql_database" "typo_in_name" {
  provider = postgres.main
  #          ^^^^^^^^^^^^^ error[unknown-provider-config]: did you mean `postgresql.main`?
}

resource "aws_s3_bucket" "two_keys" {
  provider = aws.by_region["us"]["eu"]
  #                             ^^^^^^ error[invalid-provider-reference]
}

resource "aws_s3_bucket" "key_without_alias" {
  provider = aws["us"]
  #             ^^^^^^ error[invalid-provider-reference]
}

resource "aws_s3_bucket" "in_local" {
  provider = local.p
  #          ^^^^^^^ error[invalid-provider-reference]
}

resource "aws_s3_bucket" "call" {
  provider = lookup({}, "x")
  #          ^^^^^^^^^^^^^^^ error[invalid-provider-reference]
}

resource "aws_s3_bucket" "quoted" {
  provider = "aws.single"
  #          ^^^^^^^^^^^^ warning[quoted-provider-reference]
}

module "m" {
  source = "./child"
  providers = {
    aws.src["us"] = aws.single
    #       ^^^^ error[invalid-provider-reference]
    aws = aws.by_region
    #     ^^^^^^^^^^^^^ error[missing-provider-instance-key]
  }
}

locals {
  p = "unused"
}
