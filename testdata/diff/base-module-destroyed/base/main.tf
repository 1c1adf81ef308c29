# The change drops a region: module.site["us"] is destroyed with its twelve resource instances, and, as its
# provider instance goes with it, blocking.
variable "regions" {
  type = map(string)
  default = {
    eu = "eu-west-1"
    us = "us-east-1"
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

module "site" {
  source   = "./site"
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]
  providers = {
    aws = aws.by_region[each.key]
  }
}
