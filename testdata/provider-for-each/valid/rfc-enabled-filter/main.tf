# The RFC's recommended pattern: the provider iterates over every region, resources only over enabled ones, so a
# region can be disabled (destroying its resources) before it is removed.
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
}

locals {
  enabled_regions = tomap({
    for region, config in var.aws_regions : region => config
    if config.enabled
  })
}

provider "aws" {
  alias    = "by_region"
  for_each = var.aws_regions

  region = each.key
}

resource "aws_vpc" "example" {
  for_each = local.enabled_regions
  provider = aws.by_region[each.key]

  cidr_block = each.value.vpc_cidr_block
}
