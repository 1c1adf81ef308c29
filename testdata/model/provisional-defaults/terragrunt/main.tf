# terragrunt runs this module with the `inputs` of the terragrunt.hcl beside it, which may override the defaults:
# they are not used, and the message says so without claiming that `regions` has no value.
variable "token" {
  type = string
}

variable "regions" {
  type    = map(string)
  default = { eu = "eu-west-1" }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  #          ^^^^^^^^^^^ info[provider-for-each-unresolved]: depend on `var.regions`, whose default may be overridden (`terragrunt.hcl` supplies this root module's inputs)
  region   = each.value
}

resource "aws_s3_bucket" "b" {
  provider = aws.by_region["us"]
}
