terraform {
  required_providers {
    null = {
      source                = "hashicorp/null"
      configuration_aliases = [null.src]
    }
  }
}

resource "null_resource" "inherited" {}

resource "null_resource" "passed" {
  provider = null.src
}
