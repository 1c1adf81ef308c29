# `>= 1.7`: the constructs of 1.7 are silent, those of 1.8 warn.
terraform {
  required_version = ">= 1.7"
  backend "s3" {
    bucket = var.bucket
   #^^^^^^ warning[feature-needs-newer-opentofu]
  }
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = var.passphrase
     #^^^^^^^^^^ warning[feature-needs-newer-opentofu]
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
 #^^^^^^ warning[feature-needs-newer-opentofu]
}

removed {
  from = null_resource.old
}

import {
  for_each = toset(["a"])
  to       = null_resource.imported[each.key]
  id       = each.value
}

resource "null_resource" "imported" {
  for_each = toset(["a"])
}

locals {
  rendered = templatestring("x", {})
  unzipped = base64gunzip("H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==")
  inside   = cidrcontains("10.0.0.0/8", "10.1.2.3")
  decoded  = urldecode("a%20b")
  secret   = issensitive("x")
  core     = core::upper("x")
  arn      = provider::aws::arn_parse("arn:aws:s3:::bucket")
}
