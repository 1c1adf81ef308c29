# `>= 1.6` admits every OpenTofu release: the constructs of 1.6 are silent, those of 1.7 warn.
terraform {
  required_version = ">= 1.6"
  encryption {
 #^^^^^^^^^^ warning[feature-needs-newer-opentofu]
    key_provider "pbkdf2" "k" {
      passphrase = "correct-horse-battery-staple"
    }
  }
}

check "health" {
  assert {
    condition     = true
    error_message = "never"
  }
}

resource "null_resource" "a" {}

removed {
# @0..7 warning[feature-needs-newer-opentofu]
  from = null_resource.old
}

import {
  for_each = toset(["a"])
 #^^^^^^^^ warning[feature-needs-newer-opentofu]
  to       = null_resource.imported[each.key]
  id       = each.value
}

resource "null_resource" "imported" {
  for_each = toset(["a"])
}

locals {
  rendered = templatestring("x", {})
  #          ^^^^^^^^^^^^^^ warning[feature-needs-newer-opentofu]
  unzipped = base64gunzip("H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==")
  #          ^^^^^^^^^^^^ warning[feature-needs-newer-opentofu]
  inside   = cidrcontains("10.0.0.0/8", "10.1.2.3")
  #          ^^^^^^^^^^^^ warning[feature-needs-newer-opentofu]
  decoded  = urldecode("a%20b")
  #          ^^^^^^^^^ warning[feature-needs-newer-opentofu]
  secret   = issensitive("x")
  #          ^^^^^^^^^^^ warning[feature-needs-newer-opentofu]
  core     = core::upper("x")
  #          ^^^^^^^^^^^ warning[feature-needs-newer-opentofu]
  arn      = provider::aws::arn_parse("arn:aws:s3:::bucket")
  #          ^^^^^^^^^^^^^^^^^^^^^^^^ warning[feature-needs-newer-opentofu]
}
