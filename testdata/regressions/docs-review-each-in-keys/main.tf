# Findings from the documentation review: `each` in a provider key of a block without for_each, a left-side key in
# a providers map reported once, and a quoted reference with a dynamic key.
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us"])
}

resource "aws_s3_bucket" "no_for_each" {
  provider = aws.by_region[each.key]
  #                        ^^^^^^^^ error[each-outside-for-each]
}

module "child" {
  source = "./child"
  providers = {
    aws.src["x"] = aws.by_region["us"]
    #       ^^^ error[invalid-provider-reference]: left side
  }
}

resource "aws_s3_bucket" "quoted_dynamic" {
  for_each = toset(["us"])
  provider = "aws.by_region[each.key]"
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^ warning[quoted-provider-reference]
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^ error[invalid-provider-reference]: literal instance key
}
