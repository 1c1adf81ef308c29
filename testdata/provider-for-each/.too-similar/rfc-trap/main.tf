# The RFC's own trap: the resource iterates over exactly the provider's collection.

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
  default = {
    eu-west-1 = { vpc_cidr_block = "10.1.0.0/16" }
    us-east-1 = { vpc_cidr_block = "10.2.0.0/16" }
  }
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
