# OpenTofu reads network.tofu instead of network.tf, so only the resources of network.tofu are declared.

resource "aws_subnet" "a" {
  vpc_id = aws_vpc.current.id
}

resource "aws_subnet" "b" {
  vpc_id = aws_vpc.legacy.id
  #        ^^^^^^^^^^^^^^ error[undefined-reference]
}
