# Three environments: a finding of two of them names both; the same key missing everywhere is two findings,
# since the message (the instances there are) differs; a finding every environment has names none.
variable "regions" {
  type = set(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.key
}

resource "aws_s3_bucket" "b" {
  provider = aws.by_region["eu-west-1"]
  #                        ^^^^^^^^^^^ error[unknown-provider-instance]: (dev, staging) no provider instance `eu-west-1`
}

resource "aws_s3_bucket" "c" {
  provider = aws.by_region["ap-south-1"]
  #                        ^^^^^^^^^^^^ error[unknown-provider-instance]: (dev, staging) no provider instance `ap-south-1` in `aws.by_region`; its instances are `us-east-1`
  #                        ^^^^^^^^^^^^ error[unknown-provider-instance]: (prod) no provider instance `ap-south-1`
}

output "o" {
  value = var.nope
  #       ^^^^^^^^ error[undefined-reference]: reference to undeclared input variable `var.nope`
}
