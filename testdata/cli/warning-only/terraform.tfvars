known   = "yes"
unknown = "ignored by OpenTofu"
# @0..7 warning[undeclared-variable-value]
