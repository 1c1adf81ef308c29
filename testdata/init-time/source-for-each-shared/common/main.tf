variable "utils_version" {
  type = string
}

variable "region" {
  type = string
}

module "helper" {
  source = "git@github.com:org/my-utils?ref=${var.utils_version}"
  #        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ info[module-source-unresolved]: module.common.module.helper.source -> module.common:var.utils_version -> var.utils_version
  region = var.region
}
