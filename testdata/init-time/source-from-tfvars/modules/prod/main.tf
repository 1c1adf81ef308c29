variable "region" {
  type = string
}

provider "aws" {
  alias    = "by_region"
  for_each = toset([var.region])
  region   = each.value
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["us-east-1"]
  #                        ^^^^^^^^^^^ error[unknown-provider-instance]
}
