# The conditions and error messages of a variable's `validation` blocks are expressions OpenTofu evaluates, so
# their references are checked like any other (OpenTofu 1.9+ lets them name other objects of the module).
locals {
  max = 10
}

resource "aws_instance" "web" {
  ami = "ami-123"
}

variable "size" {
  type    = number
  default = 3

  validation {
    condition     = var.size > 0 && var.size < local.max
    error_message = "The size must be between 0 and ${local.max}."
  }

  validation {
    condition     = var.size != length(aws_instance.webs)
    #                                  ^^^^^^^^^^^^^^^^^ error[undefined-reference]: did you mean `aws_instance.web`
    error_message = "Not ${var.limit}."
    #                      ^^^^^^^^^ error[undefined-reference]: `var.limit`
  }
}
