provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1"])
  region   = each.value
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["eu-west-1"]
  #                        ^^^^^^^^^^^ error[unknown-provider-instance]
}
