# A file function reading a path outside the repository being checked is not read (foreach-ls reads nothing outside
# it), but OpenTofu reads it, so it is no error: the value is unknown, with a `file-outside-repository` note at the
# call, and what depends on it is not checked. `try` does not fall back: the read does not fail in OpenTofu.

locals {
  ca_bundle = file("/etc/ssl/certs/ca-certificates.crt")
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ info[file-outside-repository]: `file("/etc/ssl/certs/ca-certificates.crt")` was not read: it is outside the repository being checked
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: unknown
  token     = trimspace(file("/run/secrets/deploy-token"))
  #                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ info[file-outside-repository]
  fallback  = try(filebase64("/run/secrets/deploy-token"), "")
  #               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ info[file-outside-repository]
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: unknown
  present   = fileexists("/etc/hostname")
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^ info[file-outside-repository]
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: unknown
}

provider "aws" {
  alias    = "by_account"
  for_each = jsondecode(file("/run/config/accounts.json"))
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ info[provider-for-each-unresolved]: depend on `file("/run/config/accounts.json")`, a file outside the repository being checked
  #                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ info[file-outside-repository]
  region   = each.value.region
}
