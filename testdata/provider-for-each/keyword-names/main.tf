# `null`, `true` and `false` are names in provider references (hashicorp/null is usually called `null`), in
# `provider = …`, in both sides of `providers = { … }`, quoted (legacy) and in .tf.json.
terraform {
  required_providers {
    null = {
      source = "hashicorp/null"
    }
  }
}

provider "null" {
  alias    = "by_env"
  for_each = toset(["a", "b"])
}

resource "null_resource" "per_env" {
  for_each = { a = 1, b = 2 }
  provider = null.by_env[each.key]
}

resource "null_resource" "default" {
  provider = null
}

resource "null_resource" "quoted" {
  provider = "null.by_env[\"a\"]"
  #          ^^^^^^^^^^^^^^^^^^^^ warning[quoted-provider-reference]
}

resource "null_resource" "typo" {
  provider = null.by_evn["a"]
  #          ^^^^^^^^^^^ error[unknown-provider-config]: did you mean `null.by_env`?
}

resource "null_resource" "missing_key" {
  provider = null.by_env["c"]
  #                      ^^^ error[unknown-provider-instance]
}

module "child" {
  source = "./child"
  providers = {
    null     = null.by_env["a"]
    null.src = null.by_env["b"]
  }
}
