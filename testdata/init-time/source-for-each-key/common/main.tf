variable "utils_version" {
  type = string
}

variable "region" {
  type = string
}

module "helper" {
  source = "git@github.com:org/my-utils?ref=${var.utils_version}"
  #        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[module-source-not-static]: module.common.module.helper.source -> module.common:var.utils_version -> each.key
  region = var.region
}
