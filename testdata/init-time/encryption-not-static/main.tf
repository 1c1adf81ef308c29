variable "passphrase" {
  type      = string
  sensitive = true
}

resource "random_password" "p" {
  length = 32
}

terraform {
  encryption {
    key_provider "pbkdf2" "from_var" {
      passphrase = var.passphrase
      #            ^^^^^^^^^^^^^^ info[encryption-config-unresolved]
    }
    key_provider "pbkdf2" "from_resource" {
      passphrase = random_password.p.result
      #            ^^^^^^^^^^^^^^^^^^^^^^^^ error[encryption-config-not-static]
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.from_resource
    }
    state {
      method = method.aes_gcm.main
    }
  }
}
