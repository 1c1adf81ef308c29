# Two regional module instances of many resources, against a state that has one resource of the first: the
# instances of the blocks the state has none of in `module.site["eu"]` are one change (more than ten of them, all
# through the same provider instance), and `module.site["us"]`, which the state has nothing of, is created with
# everything inside it, its first ten listed.
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

# Each instance through its own provider instance: listed one by one.
resource "aws_sns_topic" "alerts" {
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]
  provider = aws.by_region[each.key]
}
