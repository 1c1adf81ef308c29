variable "regions" {
  type = map(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  #          ^^^^^^^^^^^ info[provider-for-each-unresolved]: `var.regions`
  region   = each.value
}

resource "aws_s3_bucket" "not_checked_without_a_value" {
  provider = aws.by_region["anything"]
}
