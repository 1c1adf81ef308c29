variable "regions" {
  type = set(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  #          ^^^^^^^^^^^ error[provider-instance-removed-with-resources]: no longer has the key "eu"
  #          ^^^^^^^^^^^ error[provider-instance-removed-with-resources]: no longer has the key "a$${b}"
  region   = each.key
}

module "regional" {
  source   = "./regional"
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]
  providers = {
    aws = aws.by_region[each.key]
  }
}
