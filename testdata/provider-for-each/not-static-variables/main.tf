# Variables OpenTofu refuses in static context whatever their value: `ephemeral = true` (1.11) and `const = false`
# (1.12). A provider `for_each` can't use them, directly, through locals or through a module argument.
variable "regions" {
  type      = set(string)
  default   = ["us-east-1"]
  ephemeral = true
}

variable "accounts" {
  type    = set(string)
  default = ["111111111111"]
  const   = false
}

variable "zones" {
  type    = set(string)
  default = ["a"]
  const   = true
}

variable "token" {
  type      = string
  default   = "secret"
  ephemeral = true
}

locals {
  regions = toset(var.regions)
}

provider "aws" {
  alias    = "by_region"
  for_each = local.regions
  #          ^^^^^^^^^^^^^ error[provider-for-each-not-static]: for_each -> local.regions -> var.regions
  region   = each.key
}

provider "aws" {
  alias    = "by_account"
  for_each = var.accounts
  #          ^^^^^^^^^^^^ error[provider-for-each-not-static]: `const = false`
  region   = "eu-west-1"
}

# `const = true` (and no `const`) is static.
provider "aws" {
  alias    = "by_zone"
  for_each = var.zones
  region   = each.key
}

# Ephemeral values are fine in a provider's other arguments, which OpenTofu evaluates later.
provider "aws" {
  alias  = "with_token"
  region = "eu-west-1"
  token  = var.token
}

module "child" {
  source  = "./child"
  regions = var.regions
}
