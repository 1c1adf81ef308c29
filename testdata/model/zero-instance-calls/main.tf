# A module call with no instances is not evaluated at all: OpenTofu evaluates a module per instance, so neither the
# call's arguments nor the child's variables and locals can fail for a call with `count = 0`, an empty `for_each`
# or `enabled = false`. The last call has an instance and reports both kinds of mistake. A call whose instances are
# not known (`count` from a data source) may have none, so neither its arguments' errors nor its
# instance's are reported: `var.options.zone` fails only when `options` is null, which the author pairs with
# launching nothing (alphagov/govuk-infrastructure; terraform-ibm-landing-zone for the error in the child).

variable "zones" {
  type    = map(string)
  default = { "us-east-1" = "a" }
}

module "off_by_count" {
  source = "./child"
  count  = 0
  zone   = var.zones["eu-west-1"]
  region = "eu-west-1"
}

module "off_by_empty_for_each" {
  source   = "./child"
  for_each = {}
  zone     = var.zones["eu-west-1"]
  region   = "eu-west-1"
}

module "off_by_condition" {
  source = "./child"
  count  = length(var.zones) > 5 ? 1 : 0
  zone   = var.zones["eu-west-1"]
  region = "eu-west-1"
}

module "off_by_enabled" {
  source = "./child"
  zone   = var.zones["eu-west-1"]
  region = "eu-west-1"

  lifecycle {
    enabled = false
  }
}

# Known only while planning: whether the optional calls have an instance.
data "aws_ssm_parameter" "launch" {
  name = "/estate/launch"
}

variable "options" {
  type    = object({ zone = string })
  default = null
}

module "maybe" {
  source = "./child"
  count  = data.aws_ssm_parameter.launch.insecure_value == "yes" ? 1 : 0
  zone   = var.options.zone
  region = "us-east-1"
}

module "maybe_options" {
  source  = "./optional"
  count   = data.aws_ssm_parameter.launch.insecure_value == "yes" ? 1 : 0
  options = var.options
}

module "on" {
  source = "./child"
  zone   = var.zones["eu-west-1"]
  #                 ^^^^^^^^^^^^^ error[evaluation-error]
  region = "eu-west-1"
}
