variable "accounts" {
  type    = map(string)
  default = { a = "111111111111" }
}

provider "aws" {
  alias    = "by_account"
  for_each = var.accounts
  region   = "us-east-1"
}

locals {
  by_region = {
    use1 = {
      region  = "us-east-1"
      profile = "ops"
    }
    euw1 = {
      region  = "eu-west-1"
      profile = null
    }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.by_region

  region  = each.value.region
  profile = each.value.profile
}

resource "aws_s3_bucket" "a" {
  provider = aws.by_account["a"]
}

resource "aws_s3_bucket" "use1" {
  provider = aws.by_region["use1"]
}

ephemeral "aws_secretsmanager_secret_version" "euw1" {
  provider  = aws.by_region["euw1"]
  secret_id = "x"
}
