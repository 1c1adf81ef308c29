# `ephemeral = true` and `const = false` variables are refused at `tofu init` too, whatever their value.
variable "flavour" {
  type      = string
  default   = "app"
  ephemeral = true
}

variable "bucket" {
  type    = string
  default = "state"
  const   = false
}

terraform {
  backend "s3" {
    bucket = var.bucket
    #        ^^^^^^^^^^ error[backend-config-not-static]: `const = false`
    key    = "state.tfstate"
  }
}

module "app" {
  source = "./modules/${var.flavour}"
  #        ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[module-source-not-static]: ephemeral
}
