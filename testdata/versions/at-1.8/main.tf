# `>= 1.8`: the constructs of 1.8 are silent, provider for_each (1.9) warns.
terraform {
  required_version = ">= 1.8"
  backend "s3" {
    bucket = var.bucket
  }
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = var.passphrase
    }
  }
}

variable "bucket" {
  type    = string
  default = "state"
}

variable "passphrase" {
  type    = string
  default = "correct-horse-battery-staple"
}

variable "child" {
  type    = string
  default = "./child"
}

module "child" {
  source = var.child
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1"])
 #^^^^^^^^ warning[feature-needs-newer-opentofu]: `for_each` in a `provider` block needs OpenTofu 1.9, but the version constraints also admit 1.8.0 to 1.8.11, where it is missing
  region   = each.value
}
