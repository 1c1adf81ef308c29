locals {
  ok = "fine"
}

resource "aws_vpc" "v" {
  cidr_block = [
}
# @0..1 error[syntax-error]
