# A call's value has exactly the outputs of the module it loads. With count or for_each, outputs are read through
# an instance key or a splat; with for_each, `module.by_key.a` selects the instance "a" and is not an output.

module "net" {
  source = "./net"
}

module "many" {
  source = "./net"
  count  = 2
}

module "by_key" {
  source   = "./net"
  for_each = toset(["a", "b"])
}

# Not installed here: its outputs are unknown.
module "remote" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.0.0"
}

output "single" {
  value = [module.net.vpc_id, module.net.vpc_idd]
  #                                      ^^^^^^^ error[undefined-reference]: did you mean `vpc_id`?
}

output "counted" {
  value = [module.many[0].vpc_id, module.many[*].subnet, module.many.0.cidr]
  #                                              ^^^^^^ error[undefined-reference]: did you mean `subnets`?
  #                                                                    ^^^^ error[undefined-reference]
}

output "keyed" {
  value = [module.by_key["a"].vpc_id, module.by_key.a.vpc_id, module.by_key["b"].vpcid]
  #                                                                              ^^^^^ error[undefined-reference]: did you mean `vpc_id`?
}

output "remote" {
  value = module.remote.anything
}

locals {
  ids = [for m in module.many : m.vpc_idd]
}

# `try` catches a missing output (OpenTofu finds it only when evaluating), not a missing call (found before).
output "tried" {
  value = [try(module.net.network, null), can(module.many[0].network), try(module.nett.vpc_id, null)]
  #                                                                        ^^^^^^^^^^^ error[undefined-reference]: did you mean `module.net`?
}
