variable "regions" {
  type = map(string)
}

locals {
  primary = "us"
  typo    = "uss"
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

module "service" {
  source   = "./../service"
  for_each = merge(var.regions, { ap = "ap-south-1" })
  providers = {
    aws = aws.by_region[each.key]
    #                   ^^^^^^^^ error[unknown-provider-instance]: `ap` for instance `["ap"]`
  }
}

resource "aws_route53_zone" "primary" {
  provider = aws.by_region[local.primary]
  name     = "example.com"
}

resource "aws_route53_zone" "secondary" {
  provider = aws.by_region[local.typo]
  #                        ^^^^^^^^^^ error[unknown-provider-instance]: did you mean `us`?
  name     = "example.org"
}
