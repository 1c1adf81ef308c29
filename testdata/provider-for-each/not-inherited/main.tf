# A child module refers to aliased configurations of its caller: they are never inherited.
provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(["eu-west-1"])
  region   = each.key
}

module "net" {
  source = "./net"
}

module "keyed" {
  source = "./keyed"
}
