variable "regions" {
  type = map(object({
    cidr    = string
    enabled = optional(bool, true)
  }))
}

variable "env" {
  type    = string
  default = "dev"
}

locals {
  enabled_regions = { for k, v in var.regions : k => v if v.enabled }
  account_ids     = data.terraform_remote_state.org.outputs.account_ids
  accounts        = toset(local.account_ids)
  name            = "${var.env}-${terraform.workspace}"
}

data "terraform_remote_state" "org" {
  backend = "s3"
}
