# A root module with a required variable that nothing here gives a value (`token`) cannot run as it is: its values
# come from elsewhere (a wrapper such as atmos or Leverage passes a var file, a CI job sets TF_VAR_token), which may
# set `regions` too. So `regions` is not taken at its default: the provider's instances are unresolved and the key
# is not checked (cloudposse's components, kube-hetzner's root module). `complete/` gives every required variable a
# value, and there the default is final and the key is checked.
variable "token" {
  type      = string
  sensitive = true
}

variable "regions" {
  type    = map(string)
  default = { eu = "eu-west-1" }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  #          ^^^^^^^^^^^ info[provider-for-each-unresolved]: `var.regions`
  region   = each.value
}

resource "aws_s3_bucket" "b" {
  provider = aws.by_region["us"]
}

locals {
  stage = format("%s-app", var.stage)
}

variable "stage" {
  type    = string
  default = null
}
