resource "aws_vpc" "main" {
  provider = aws.by_region["eu-west-1"]
  #          ^^^^^^^^^^^^^ error[unknown-provider-config]: pass one of its instances
}
