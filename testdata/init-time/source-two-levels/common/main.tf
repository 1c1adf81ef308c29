variable "utils_version" {
  type = string
}

variable "region" {
  type = string
}

module "helper" {
  source = "git@github.com:org/my-utils?ref=${var.utils_version}"
  #        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ info[module-source-unresolved]: module.common_first.module.helper.source -> module.common_first:var.utils_version -> var.utils_version (the same for `module.common_second.module.helper`)
  region = var.region
}
