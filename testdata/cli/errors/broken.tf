locals {
  ok = "fine"
}

resource "aws_vpc" "v" {
  cidr_block = [
  #            ^ error[syntax-error]
}
