provider "aws" {
  alias  = "us"
  region = "us-east-1"
}

provider "aws" {
  alias  = "euw1"
  region = "eu-west-1"

  assume_role {
    role_arn = "arn:aws:iam::111111111111:role/deploy"
  }
}

provider "aws" {
  alias  = "apse2"
  region = "ap-southeast-2"

  assume_role {
    role_arn = "arn:aws:iam::222222222222:role/deploy"
  }
}

resource "aws_s3_bucket" "logs_us" {
  provider = aws.us
  bucket   = "acme-logs"
}

resource "aws_s3_bucket" "logs_euw1" {
  provider = aws.euw1
  bucket   = "acme-logs"
}

resource "aws_sns_topic" "alerts_apse2" {
  provider = aws.apse2 # Sydney
  name     = "alerts"  # one topic per account
}
