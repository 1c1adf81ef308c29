provider "aws" {
  alias = "us"
  region = "us-east-1"
  profile = "us"
}

provider "aws" {
    alias = "euw1"
    region="eu-west-1"
    profile = "eu"
    assume_role {
      role_arn = "arn:aws:iam::111111111111:role/deploy"
    }
}

resource "aws_s3_bucket" "logs" {
  provider=aws.euw1
  bucket =   "acme-logs"
}
