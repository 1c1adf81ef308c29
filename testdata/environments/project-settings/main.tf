# The project file's severity override makes this error a warning, and its exclude skips `examples/`.
variable "name" {}

variable "name" {}
#        ^^^^^^ warning[duplicate-block]
