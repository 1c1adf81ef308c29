terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.src]
    }
  }
}

resource "aws_s3_bucket" "b" {
  provider = aws.src
}
