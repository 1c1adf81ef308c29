# The call `module "legacy"` was removed.
# @0..0 error[provider-config-removed-with-resources]: module `module.legacy`, which declared provider configuration `module.legacy.aws`, is no longer in the configuration
# Its module configured its own `aws` provider, and the state still has its resources: the finding goes at the start
# of the root's first file. `module.app` has no aws block and its resource was created through the root's default
# configuration, which exists implicitly.
module "app" {
  source = "./app"
}
