# `backend "local"` with a `path`: the state is read there, not from `terraform.tfstate` (which is not JSON).
terraform {
  backend "local" {
    path = "states/dev.tfstate"
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(["us"])
  #          ^^^^^^^^^^^^^ error[provider-instance-removed-with-resources]: no longer has the key "eu"
  region   = each.key
}
