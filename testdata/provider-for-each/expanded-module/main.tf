module "repeated" {
  source   = "./configured"
  for_each = toset(["a", "b"])
  #          ^^^^^^^^^^^^^^^^^ error[provider-in-expanded-module]
}

module "counted" {
  source = "./configured"
  count  = 2
  #        ^ error[provider-in-expanded-module]
}

module "after" {
  source     = "./configured"
  depends_on = [module.proxy_ok]
  #             ^^^^^^^^^^^^^^^ error[provider-in-expanded-module]
}

module "proxy_ok" {
  source   = "./proxy"
  for_each = toset(["a"])
}

module "nested" {
  source = "./wrapper"
  count  = 1
  #        ^ error[provider-in-expanded-module]: through `module.inner`
}

module "maybe" {
  source = "./configured"
  lifecycle {
    enabled = false
    #         ^^^^^ error[provider-in-expanded-module]: `enabled`
  }
}
