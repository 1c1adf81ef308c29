# Pre-0.12 shorthands OpenTofu still accepts: a bare `map` or `list` as a variable's whole type means `map(any)` /
# `list(any)` (the elements must share one type). Bare `set`, and bare `map`/`list` inside another type, are errors.

variable "regions" {
  type    = map
  default = { us = "us-east-1", eu = "eu-west-1" }
}

variable "zones" {
  type    = list
  default = ["a", "b"]
}

variable "parenthesized" {
  type    = (map)
  default = { a = 1, b = "2" }
}

variable "bare_set" {
  type    = set
  #         ^^^ error[evaluation-error]: the `set` type constructor requires one argument
  default = ["a"]
}

variable "nested" {
  type    = list(map)
  #              ^^^ error[evaluation-error]: the `map` type constructor requires one argument
  default = []
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

locals {
  regions = var.regions
  #         ^^^^^^^^^^^ value: tomap({"eu" = "eu-west-1", "us" = "us-east-1"})
  zones   = var.zones
  #         ^^^^^^^^^ value: tolist(["a", "b"])
  mixed   = var.parenthesized
  #         ^^^^^^^^^^^^^^^^^ value: tomap({"a" = "1", "b" = "2"})
}
