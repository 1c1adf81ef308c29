variable "regions" {
  type = map(object({
    name    = string
    enabled = optional(bool, true)
  }))
  default = {
    use1 = { name = "us-east-1" }
    euw1 = { name = "eu-west-1" }
    aps1 = { name = "ap-south-1", enabled = false }
  }
}

locals {
  active = { for k, v in var.regions : k => v if v.enabled }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value.name
}

provider "aws" {
  region = "us-east-1"
}

module "region" {
  source   = "./modules/region"
  for_each = local.active
  providers = {
    aws = aws.by_region[each.key]
  }
  name = each.value.name
}

resource "aws_s3_bucket" "global" {
  bucket = "global-logs"
}

resource "aws_s3_bucket" "replica" {
  provider = aws.by_region["euw1"]
  bucket   = "replica"
}
