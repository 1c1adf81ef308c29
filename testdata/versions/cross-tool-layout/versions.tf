terraform {
# @0..0 info[shadowed-by-tofu-file]
  required_version = ">= 1.6"
}
