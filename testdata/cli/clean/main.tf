variable "regions" {
  type    = map(string)
  default = { us = "us-east-1", eu = "eu-west-1" }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["us"]
  bucket   = "logs"
}
