# The keys of the map are written out; only a value inside it waits for a variable that has no value here (given
# by the pipeline). The instances are known, so references to them are checked.
variable "primary_region" {
  type = string
}

locals {
  regions = {
    primary = var.primary_region
    dr      = "eu-west-1"
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.regions
  region   = each.value
}

resource "aws_s3_bucket" "replica" {
  provider = aws.by_region["dr"]
}

resource "aws_s3_bucket" "typo" {
  provider = aws.by_region["secondary"]
  #                        ^^^^^^^^^^^ error[unknown-provider-instance]
}
