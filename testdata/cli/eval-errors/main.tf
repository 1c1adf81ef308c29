# `foreach-ls eval` on a module whose local fails: the error is printed with the chain that reached it.
locals {
  broken = [][0]
  #          ^^^ error[evaluation-error]: out of range
  uses   = upper(local.broken)
}
