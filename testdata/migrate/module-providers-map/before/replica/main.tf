terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.src, aws.dst]
    }
  }
}

resource "aws_s3_bucket" "source" {
  provider = aws.src
}

resource "aws_s3_bucket" "destination" {
  provider = aws.dst
}
