variable "regions" {
  type = map(object({
    cidr    = string
    enabled = optional(bool, true)
  }))
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.key
}

resource "aws_vpc" "direct" {
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]
  provider = aws.by_region[each.key]
  cidr_block = each.value.cidr
}

module "vpc" {
  source   = "./vpc"
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]
  providers = {
    aws = aws.by_region[each.key]
  }
  cidr = each.value.cidr
}

module "vpc_filtered" {
  source   = "./vpc"
  for_each = { for k, v in var.regions : k => v if v.enabled }
  providers = {
    aws = aws.by_region[each.key]
  }
  cidr = each.value.cidr
}
