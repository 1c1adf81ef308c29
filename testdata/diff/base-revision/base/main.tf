variable "regions" {
  type = map(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

resource "aws_vpc" "this" {
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]
  provider = aws.by_region[each.key]
}

module "site" {
  source   = "./site"
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]
  providers = {
    aws = aws.by_region[each.key]
  }
}

resource "aws_s3_bucket" "a" {
}

resource "aws_sqs_queue" "old" {
}

data "aws_s3_objects" "inventory" {
  bucket = "inventory"
}

resource "aws_s3_bucket" "inventory" {
  for_each = toset(data.aws_s3_objects.inventory.keys)
}

# Each region's roles live in a home region; the change moves us's home to ap (a rebind of the kept key "us").
locals {
  home = { eu = "eu", us = "us" }
}

resource "aws_iam_role" "home" {
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]
  provider = aws.by_region[local.home[each.key]]
}
