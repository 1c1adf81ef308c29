variable "ref" {
  type = string
}
module "h" {
  source = "git::https://x/y.git?ref=${var.ref}"
  #        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ info[module-source-unresolved]: pass it in the calling `module` block
}
