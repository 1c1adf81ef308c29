resource "aws_vpc" "main" {
  provider = aws.west
  #          ^^^^^^^^ error[unknown-provider-config]: aliased configurations are not inherited
}

resource "aws_s3_bucket" "logs" {}
