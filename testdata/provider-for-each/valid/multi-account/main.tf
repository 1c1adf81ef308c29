variable "accounts" {
  type = map(string)
  default = {
    prod    = "111111111111"
    staging = "222222222222"
  }
}

provider "aws" {
  alias    = "by_account"
  for_each = var.accounts
  region   = "eu-west-1"

  assume_role {
    role_arn     = "arn:aws:iam::${each.value}:role/OrganizationAccountAccessRole"
    session_name = "foreach-${each.key}"
  }
}

resource "aws_iam_account_alias" "alias" {
  for_each      = var.accounts
  provider      = aws.by_account[each.key]
  account_alias = "acme-${each.key}"
}

data "aws_caller_identity" "prod" {
  provider = aws.by_account["prod"]
}
