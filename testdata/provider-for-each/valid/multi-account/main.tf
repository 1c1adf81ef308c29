variable "accounts" {
  type = map(object({
    id      = string
    enabled = optional(bool, true)
  }))
  default = {
    prod    = { id = "111111111111" }
    staging = { id = "222222222222" }
  }
}

locals {
  # Resources iterate over enabled accounts only, so an account can be retired in two steps (the RFC's pattern).
  enabled_accounts = { for name, account in var.accounts : name => account if account.enabled }
}

provider "aws" {
  alias    = "by_account"
  for_each = var.accounts
  region   = "eu-west-1"

  assume_role {
    role_arn     = "arn:aws:iam::${each.value.id}:role/OrganizationAccountAccessRole"
    session_name = "foreach-${each.key}"
  }
}

resource "aws_iam_account_alias" "alias" {
  for_each      = local.enabled_accounts
  provider      = aws.by_account[each.key]
  account_alias = "acme-${each.key}"
}

data "aws_caller_identity" "prod" {
  provider = aws.by_account["prod"]
}
