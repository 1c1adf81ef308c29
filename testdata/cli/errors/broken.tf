locals {
  ok = "fine"
}

resource "aws_vpc" "v" {
  cidr_block = [
}
