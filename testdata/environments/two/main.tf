# A key that exists in prod but not in staging: reported once, naming staging.
variable "regions" {
  type = set(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.key
}

resource "aws_s3_bucket" "b" {
  provider = aws.by_region["eu-west-1"]
  #                        ^^^^^^^^^^^ error[unknown-provider-instance]: (staging) no provider instance `eu-west-1`
}

resource "aws_s3_bucket" "c" {
  provider = aws.by_region["us-east-1"]
}
