data "aws_route53_zone" "shared" {
  provider = aws.core-vpc
  #          ^^^^^^^^^^^^ error[unknown-provider-config]: aliased configurations are not inherited
}
