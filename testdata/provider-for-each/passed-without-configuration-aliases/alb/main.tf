data "aws_vpc" "shared" {
  provider = aws.core-vpc
}
