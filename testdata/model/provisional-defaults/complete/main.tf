variable "token" {
  type      = string
  sensitive = true
}

variable "regions" {
  type    = map(string)
  default = { eu = "eu-west-1" }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

resource "aws_s3_bucket" "b" {
  provider = aws.by_region["us"]
  #                        ^^^^ error[unknown-provider-instance]: `us`
}
