module "shard" {
  count  = 2
  source = "./m${count.index}"
  #        ^^^^^^^^^^^^^^^^^^^ error[module-source-not-static]
}

module "by_key" {
  for_each = toset(["a", "b"])
  source   = "git::https://example.com/${each.key}.git"
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[module-source-not-static]
  version  = each.value
  #          ^^^^^^^^^^ error[module-source-not-static]
}

variable "token" {
  type      = string
  sensitive = true
  default   = "s3cr3t"
}

module "secret" {
  source = "git::https://${var.token}@example.com/m.git"
  #        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[module-source-not-static]
}

data "http" "latest" {
  url = "https://example.com/latest"
}

module "dynamic_version" {
  source  = "example/network/aws"
  version = data.http.latest.response_body
  #         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[module-source-not-static]
}

module "impure" {
  source = "./m${timestamp()}"
  #        ^^^^^^^^^^^^^^^^^^^ error[module-source-not-static]
}

# The RFC's "static module outputs" are future work: OpenTofu loads every module before evaluating any output.
module "catalog" {
  source = "./m"
}

module "from_output" {
  source = module.catalog.network_source
  #        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[module-source-not-static]
}
