resource "mycloud_account" "main" {}

locals {
  account_id = mycloud_account.main.id
}

terraform {
  backend "s3" {
    account_id = local.account_id
    #            ^^^^^^^^^^^^^^^^ error[backend-config-not-static]: terraform.backend.account_id -> local.account_id -> mycloud_account.main
  }
}
