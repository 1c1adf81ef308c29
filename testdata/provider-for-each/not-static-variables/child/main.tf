variable "regions" {
  type = set(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  #          ^^^^^^^^^^^ error[provider-for-each-not-static]: `var.regions` is ephemeral
  region   = each.key
}
