# `inspect` shows the evaluated arguments of provider configurations without for_each, per module instance.

variable "region" {
  type    = string
  default = "us-east-1"
}

provider "aws" {
  region  = var.region
  profile = "p-${var.region}"
}

module "child" {
  source = "./child"
  region = "eu-central-1"
}
