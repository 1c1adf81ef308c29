resource "aws_vpc" "v" {
}

resource "aws_subnet" "s" {
  count = 2
}
