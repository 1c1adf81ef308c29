# OpenTofu reads main.tofu instead of this file (Terraform reads this one): migrate neither edits nor counts it.
# @0..0 info[shadowed-by-tofu-file]
provider "aws" {
  alias  = "use1"
  region = "us-east-1"
}

provider "aws" {
  alias  = "euw1"
  region = "eu-west-1"
}

resource "aws_vpc" "vpc_use1" {
  provider   = aws.use1
  cidr_block = "10.0.0.0/16"
}

resource "aws_vpc" "vpc_euw1" {
  provider   = aws.euw1
  cidr_block = "10.1.0.0/16"
}
