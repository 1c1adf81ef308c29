# `element` counts negative indices from the end since OpenTofu 1.10, wrapping around like positive ones.

variable "regions" {
  type    = list(string)
  default = ["us-east-1", "eu-west-1", "ap-south-1"]
}

locals {
  last       = element(var.regions, -1)
  #            ^^^^^^^^^^^^^^^^^^^^^^^^^ value: "ap-south-1"
  first      = element(var.regions, -3)
  #            ^^^^^^^^^^^^^^^^^^^^^^^^^ value: "us-east-1"
  wrapped    = element(var.regions, -4)
  #            ^^^^^^^^^^^^^^^^^^^^^^^^^ value: "ap-south-1"
  home       = element(var.regions, -1)
}

provider "aws" {
  alias    = "home"
  for_each = toset([local.home])
  region   = each.value
}

resource "aws_s3_bucket" "logs" {
  provider = aws.home["ap-south-1"]
}
