provider "aws" {
  for_each = toset(["us"])
 #^^^^^^^^ error[provider-for-each-without-alias]
  region = each.key
}

provider "aws" {
  alias    = "x_${each.key}"
  #          ^^^^^^^^^^^^^^^ error[invalid-provider-alias]
  for_each = toset(["us"])
}

provider "google" {
  alias = "two words"
  #       ^^^^^^^^^^^ error[invalid-provider-alias]
}

provider "azurerm" {
  alias      = "a"
  count      = 2
 #^^^^^ error[provider-reserved-argument]
  depends_on = []
 #^^^^^^^^^^ error[provider-reserved-argument]
  lifecycle {}
 #^^^^^^^^^ error[provider-reserved-argument]
}

provider "azurerm" {
#        ^^^^^^^^^ error[duplicate-provider-config]
  alias = "a"
}

provider "null" {
  region = each.key
  #        ^^^^^^^^ error[each-outside-for-each]
}

resource "aws_vpc" "v" {
  cidr_block = each.value
  #            ^^^^^^^^^^ error[each-outside-for-each]
}
