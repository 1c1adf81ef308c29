locals {
  sources = ["./a", "./b"]
}

module "undefined" {
  source = local.nope
  #        ^^^^^^^^^^ error[undefined-reference]
}

module "list" {
  source = local.sources
  #        ^^^^^^^^^^^^^ error[evaluation-error]: `source` of `module.list` must be a string
}

module "null" {
  source = null
  #        ^^^^ error[evaluation-error]: `source` of `module.null` is null
}

module "number" {
  source  = "example/network/aws"
  version = 5
}

module "bad_call" {
  source = "./${upper(1, 2)}"
  #                      ^ error[evaluation-error]
}
