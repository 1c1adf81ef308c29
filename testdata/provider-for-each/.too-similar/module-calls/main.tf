# A module call is compared with the provider block of the calling module, once per keyed `providers` entry.

variable "regions" {
  type = map(object({
    enabled = optional(bool, true)
  }))
  default = {
    eu-west-1 = {}
    us-east-1 = {}
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.key
}

module "network" {
  source   = "./network"
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]
  providers = {
    aws = aws.by_region[each.key]
  }
}

module "filtered" {
  source   = "./network"
  for_each = { for k, v in var.regions : k => v if v.enabled }
  providers = {
    aws = aws.by_region[each.key]
  }
}

# A literal key selects an instance too.
module "pinned" {
  source   = "./network"
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]
  providers = {
    aws = aws.by_region["eu-west-1"]
  }
}
