# The removal trap exactly as the provider iteration RFC shows it; `check --fix` must make it safe without
# changing any instance (server/foreach-ls/tests/cli.rs).
terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

variable "aws_regions" {
  type = map(object({
    vpc_cidr_block = string
  }))
}

provider "aws" {
  alias    = "by_region"
  for_each = var.aws_regions

  region = each.key
}

resource "aws_vpc" "example" {
  for_each = var.aws_regions
  #          ^^^^^^^^^^^^^^^ warning[too-similar-for-each]
  provider = aws.by_region[each.key]

  cidr_block = each.value.vpc_cidr_block
}
