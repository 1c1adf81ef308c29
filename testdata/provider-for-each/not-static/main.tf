data "terraform_remote_state" "org" {
  backend = "s3"
}

locals {
  account_ids = data.terraform_remote_state.org.outputs.account_ids
  accounts    = toset(local.account_ids)
}

provider "aws" {
  alias    = "by_account"
  for_each = local.accounts
  #          ^^^^^^^^^^^^^^ error[provider-for-each-not-static]: for_each -> local.accounts -> local.account_ids -> data.terraform_remote_state.org
}

provider "aws" {
  alias    = "direct"
  for_each = aws_organizations_organization.org.accounts
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[provider-for-each-not-static]
}

provider "aws" {
  alias    = "from_module"
  for_each = module.accounts.ids
  #          ^^^^^^^^^^^^^^^^^^^ error[provider-for-each-not-static]
}

provider "aws" {
  alias    = "provider_fn"
  for_each = provider::aws::arn_parse("arn:aws:iam::123:root")
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[provider-for-each-not-static]
}

resource "aws_organizations_organization" "org" {}

module "accounts" {
  source = "./accounts"
}

resource "aws_s3_bucket" "unchecked" {
  provider = aws.by_account["123"]
}
