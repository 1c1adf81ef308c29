provider "aws" {
  alias  = "use1"
  region = "us-east-1"
}

provider "aws" {
  alias  = "euw1"
  region = "eu-west-1"
}

resource "aws_s3_bucket" "logs_use1" {
  provider = aws.use1
}

resource "aws_s3_bucket" "logs_euw1" {
  provider = aws.euw1
}
