variable "secret" {
  type      = string
  sensitive = true
  default   = "correct horse battery staple"
}

terraform {
  backend "http" {
    address  = "https://state.example.com/estate"
    password = var.secret
    #          ^^^^^^^^^^ error[backend-config-not-static]: uses a sensitive value
  }

  # Encryption takes its passphrase from a sensitive variable, as OpenTofu's docs recommend.
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase = var.secret
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
    state {
      method = method.aes_gcm.main
    }
  }
}
