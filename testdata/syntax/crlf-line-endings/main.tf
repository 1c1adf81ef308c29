# Every line of this fixture ends in CRLF (kept by .gitattributes): quick fixes, inserted comments and code frames
# must keep them (`foreach-ls check` prints no `␍`).
variable "regions" {
  type = set(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.key
}

provider "aws" {
  for_each = var.regions
 #^^^^^^^^ error[provider-for-each-without-alias]
  region   = each.key
}

resource "aws_s3_bucket" "b" {
  provider = aws.by_region["c"]
  #                        ^^^ error[unknown-provider-instance]
}

resource "aws_vpc" "v" {
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]
  provider = aws.by_region[each.key]
}
