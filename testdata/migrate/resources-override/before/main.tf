provider "aws" {
  alias  = "use1"
  region = "us-east-1"
}

provider "aws" {
  alias  = "euw1"
  region = "eu-west-1"
}

resource "aws_vpc" "vpc_use1" {
  provider   = aws.use1
  cidr_block = "10.0.0.0/16"
}

resource "aws_vpc" "vpc_euw1" {
  provider   = aws.euw1
  cidr_block = "10.1.0.0/16"
}

resource "aws_s3_bucket" "logs_use1" {
  provider = aws.use1
  bucket   = "logs-use1"
}

resource "aws_s3_bucket" "logs_euw1" {
  provider = aws.euw1
  bucket   = "logs-euw1"
}

resource "aws_sns_topic" "alerts_use1" {
  provider = aws.use1
  name     = "alerts-use1"
}

resource "aws_sns_topic" "alerts_euw1" {
  provider = aws.euw1
  name     = "alerts-euw1"
}

resource "aws_s3_bucket" "audit" {
  provider = aws.use1
  bucket   = "audit"
}

output "logs" {
  value = aws_s3_bucket.logs_use1.arn
}
