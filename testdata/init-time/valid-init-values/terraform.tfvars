environment  = "prod"
state_bucket = "acme-state"
passphrase   = "correct horse battery staple"
