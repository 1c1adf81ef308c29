this is not hcl {
# @0..4 error[unknown-block-type]
#               ^ error[syntax-error]
