# A root module with a required variable that nothing here gives a value (`token`) cannot run as it is: a pipeline
# gives it (`-var token=...`), and may give others too. The defaults are still the best guess of what runs, so they
# are used, but what rests on one is provisional: a warning that names the default, not an error. What rests on no
# default (the literal key of `aws.fixed`) is an error as usual. `complete/` gives every required variable a value:
# there the defaults are final and the same mistake is an error. `terragrunt/` and `atmos/` are run by a wrapper
# that supplies the inputs, so their defaults are not used at all.
variable "token" {
  type      = string
  sensitive = true
}

variable "regions" {
  type    = map(string)
  default = { eu = "eu-west-1" }
}

variable "primary" {
  type    = string
  default = "us"
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

provider "aws" {
  alias    = "fixed"
  for_each = toset(["a"])
}

resource "aws_s3_bucket" "b" {
  provider = aws.by_region["us"]
  #                        ^^^^ warning[unknown-provider-instance]: (with the default of `var.regions`, which may not be what runs: `var.token` has no value here
}

resource "aws_s3_bucket" "primary" {
  provider = aws.by_region[var.primary]
  #                        ^^^^^^^^^^^ warning[unknown-provider-instance]: with the default of `var.primary` and `var.regions`
}

resource "aws_s3_bucket" "fixed" {
  provider = aws.fixed["b"]
  #                    ^^^ error[unknown-provider-instance]
}

locals {
  stage = format("%s-app", var.stage)
  #       ^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[evaluation-error]: with the default of `var.stage`
}

variable "stage" {
  type    = string
  default = null
}

module "regional" {
  source  = "./regional"
  regions = var.regions
  providers = {
    aws = aws.fixed["a"]
  }
}
