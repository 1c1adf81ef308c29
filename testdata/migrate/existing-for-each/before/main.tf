variable "accounts" {
  type    = map(string)
  default = { a = "111111111111" }
}

provider "aws" {
  alias    = "by_account"
  for_each = var.accounts
  region   = "us-east-1"
}

provider "aws" {
  alias   = "use1"
  region  = "us-east-1"
  profile = "ops"
}

provider "aws" {
  alias  = "euw1"
  region = "eu-west-1"
}

resource "aws_s3_bucket" "a" {
  provider = aws.by_account["a"]
}

resource "aws_s3_bucket" "use1" {
  provider = aws.use1
}

ephemeral "aws_secretsmanager_secret_version" "euw1" {
  provider  = aws.euw1
  secret_id = "x"
}
