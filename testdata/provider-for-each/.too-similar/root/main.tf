# Which blocks the warning applies to, in one root module.

variable "regions" {
  type = map(object({
    cidr    = string
    enabled = optional(bool, true)
  }))
  default = {
    eu-west-1 = { cidr = "10.1.0.0/16" }
  }
}

locals {
  regions = var.regions
}

provider "aws" {
  alias    = "by_region"
  for_each = local.regions
  region   = each.key
}

provider "aws" {
  alias  = "single"
  region = "eu-west-1"
}

# Parentheses are transparent.
resource "aws_vpc" "parenthesised" {
  for_each = (local.regions)
  #          ^^^^^^^^^^^^^^^ warning[too-similar-for-each]
  provider = aws.by_region[each.key]
  cidr_block = each.value.cidr
}

# A literal instance key counts as much as a dynamic one.
resource "aws_vpc" "literal_key" {
  for_each = local.regions
  #          ^^^^^^^^^^^^^ warning[too-similar-for-each]
  provider = aws.by_region["eu-west-1"]
  cidr_block = each.value.cidr
}

# Not the same data: `var.regions` is not `local.regions`, even though it has the same value.
resource "aws_vpc" "other_reference" {
  for_each = var.regions
  provider = aws.by_region[each.key]
  cidr_block = each.value.cidr
}

# Filtered: quiet.
resource "aws_vpc" "filtered" {
  for_each = { for k, v in local.regions : k => v if v.enabled }
  provider = aws.by_region[each.key]
  cidr_block = each.value.cidr
}

# Data sources and ephemeral resources need no provider to be destroyed: never warned about.
data "aws_vpc" "lookup" {
  for_each = local.regions
  provider = aws.by_region[each.key]
}

# `count` is not `for_each`.
resource "aws_eip" "counted" {
  count    = length(local.regions)
  provider = aws.by_region["eu-west-1"]
}

# A provider configuration without `for_each` has no instances to lose.
resource "aws_vpc" "single" {
  for_each = local.regions
  provider = aws.single
  cidr_block = each.value.cidr
}

# Silenced on purpose.
# foreach-ls:ignore too-similar-for-each
resource "aws_vpc" "suppressed" {
  for_each = local.regions
  provider = aws.by_region[each.key]
  cidr_block = each.value.cidr
}
