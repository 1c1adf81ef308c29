data "aws_caller_identity" "current" {}

provider "aws" {
  alias  = "use1"
  region = "us-east-1"
}

provider "aws" {
  alias   = "euw1"
  region  = "eu-west-1"
  profile = data.aws_caller_identity.current.account_id
}

resource "aws_s3_bucket" "logs" {
  provider = aws.euw1
}
