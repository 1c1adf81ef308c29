# Ignored: network.tofu exists. Its wrong reference is not reported.
# @0..0 info[shadowed-by-tofu-file]
resource "aws_vpc" "legacy" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_vpc" "current" {
  cidr_block = aws_vpc.nowhere.cidr_block
}
