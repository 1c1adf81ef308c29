variable "regions" {
  type = set(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  #          ^^^^^^^^^^^ info[provider-for-each-unresolved]
  region   = each.key
}

resource "aws_s3_bucket" "b" {
  provider = aws.by_region["eu-west-1"]
}
