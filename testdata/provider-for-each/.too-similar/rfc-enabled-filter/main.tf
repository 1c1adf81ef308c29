# The RFC's recommended shape: the resource filters the provider's collection through an `enabled` attribute.

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
    enabled        = optional(bool, true)
  }))
  default = {
    eu-west-1 = { vpc_cidr_block = "10.1.0.0/16" }
    us-east-1 = { vpc_cidr_block = "10.2.0.0/16", enabled = false }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.aws_regions

  region = each.key
}

resource "aws_vpc" "example" {
  for_each = { for region, config in var.aws_regions : region => config if config.enabled }
  provider = aws.by_region[each.key]

  cidr_block = each.value.vpc_cidr_block
}

# The form the quick fix writes is just as quiet.
resource "aws_vpc" "fixed" {
  for_each = { for k, v in var.aws_regions : k => v if try(v.enabled, true) }
  provider = aws.by_region[each.key]

  cidr_block = each.value.vpc_cidr_block
}
