variable "zone" {
  type = string
}

variable "region" {
  type = string
}

locals {
  suffixes = { "us-east-1" = "use1" }
  suffix   = local.suffixes[var.region]
  #                        ^^^^^^^^^^^^ error[evaluation-error]
}

# Only meta-arguments: an empty provider block is allowed in a module called with count or for_each.
provider "aws" {
  alias    = "by_zone"
  for_each = toset([var.region])
}
