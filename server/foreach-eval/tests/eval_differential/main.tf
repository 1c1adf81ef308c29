# The module the differential test evaluates its expressions in, both with foreach-ls and `terraform console`.

variable "name" {
  type    = string
  default = "web"
}

variable "count_n" {
  type    = number
  default = "3"
}

variable "enabled" {
  type    = bool
  default = "true"
}

variable "regions" {
  type    = set(string)
  default = ["us-east-1", "eu-west-1", "us-east-1"]
}

variable "ports" {
  type    = list(number)
  default = ["80", 443]
}

variable "tags" {
  type    = map(string)
  default = { env = "prod", team = 7 }
}

variable "anything" {
  default = { a = [1, "x"], b = null }
}

variable "listany" {
  type    = list(any)
  default = [1, "a", true]
}

variable "accounts" {
  type = map(object({
    id      = string
    regions = optional(list(string), ["us-east-1"])
    admin   = optional(bool)
    extra   = optional(object({ n = optional(number, 5) }), {})
  }))
  default = {
    prod = { id = 111, regions = ["eu-west-1", "us-west-2"] }
    dev  = { id = "222", admin = true }
  }
}

variable "pair" {
  type    = tuple([string, number])
  default = ["a", "2"]
}

variable "nullable_default" {
  type    = string
  default = null
}

locals {
  base       = { env = var.tags["env"], name = var.name }
  merged     = merge(local.base, { region_count = length(var.regions) })
  region_map = { for r in var.regions : r => upper(r) }
  by_prefix  = { for r in var.regions : substr(r, 0, 2) => r... }
  account_ids = [for k, a in var.accounts : a.id]
  flat = flatten([for k, a in var.accounts : [for r in a.regions : "${k}-${r}"]])
  numbers = [1, 2.5, -3, 1e3, 0.1]
  nested  = { a = { b = [{ c = 1 }, { c = 2 }] } }
  text    = <<-EOT
    hello ${var.name}
    %{~ for r in local.sorted_regions ~}
    - ${r}
    %{~ endfor ~}
  EOT
  sorted_regions = sort(var.regions)
  cond     = var.enabled ? "on" : "off"
  objs     = [{ name = "a", size = 1 }, { name = "b", size = 2 }]
  strmap   = { "x y" = 1, "1a" = 2 }
  emptystr = ""
  tpl      = "Hello $${name}!%%{ for i in items } [$${i}]%%{ endfor }"
  tpl2     = "a\n%%{ if x ~}\nyes\n%%{~ endif }\nb\n"
}
