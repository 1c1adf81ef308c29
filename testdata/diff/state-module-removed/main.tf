# `eu` was removed from the sites: its module instance goes with the buckets inside it, and so does its provider
# instance, so the destroy blocks `tofu plan`. Each site's buckets come from the site's own value (`each.value`).
variable "sites" {
  default = {
    us = { region = "us-east-1", buckets = ["a", "c"] }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.sites
  #          ^^^^^^^^^ error[provider-instance-removed-with-resources]
  region   = each.value.region
}

module "site" {
  source   = "./site"
  for_each = var.sites
  #          ^^^^^^^^^ warning[too-similar-for-each]
  buckets  = each.value.buckets
  providers = {
    aws = aws.by_region[each.key]
  }
}
