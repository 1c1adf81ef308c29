# Two module levels: the provider is declared in `module.platform` (called once), the resources live in its keyed
# module instances `module.platform.module.regional[...]`. The state holds a deposed object (a failed
# create_before_destroy) of an instance whose key was removed, and a key written with HCL's `$${` escape.
module "platform" {
  source  = "./platform"
  regions = ["us", "x$${y}"]
}
