# A module call with no instances is not evaluated at all: OpenTofu evaluates a module per instance, so neither the
# call's arguments nor the child's variables and locals can fail for a call with `count = 0`, an empty `for_each`
# or `enabled = false`. The last call has an instance and reports both kinds of mistake.

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

module "on" {
  source = "./child"
  zone   = var.zones["eu-west-1"]
  #                 ^^^^^^^^^^^^^ error[evaluation-error]
  region = "eu-west-1"
}
