known   = "yes"
unknown = "ignored by OpenTofu"
