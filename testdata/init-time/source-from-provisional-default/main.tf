# A module source that rests on a default of a root module that cannot run as it is (`var.token` has no value
# here) is not guessed: the default decides which directory `tofu init` installs, and the pipeline that gives
# `token` may give `size` too. The info says that `size` has a default that may be overridden, not that it has no
# value. Everything else is still checked with the defaults (testdata/model/provisional-defaults).
variable "token" {
  type = string
}

variable "size" {
  type    = string
  default = "small"
}

module "app" {
  source = "./modules/${var.size}"
  #        ^^^^^^^^^^^^^^^^^^^^^^^ info[module-source-unresolved]: depends on `var.size`, whose default may be overridden (this root module cannot run as it is: `var.token` has no value here)
}
