this is not hcl {
