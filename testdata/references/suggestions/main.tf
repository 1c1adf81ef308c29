# Closest-name suggestions: two swapped letters are one edit (`mian`, `nmae`), and the only declared name of a type is
# what a reference to that type means, however its name is spelt (`data.aws_ami.x`).
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_vpc" "backup" {
  cidr_block = "10.1.0.0/16"
}

data "aws_ami" "ubuntu" {
  most_recent = true
}

resource "aws_subnet" "a" {
  vpc_id     = aws_vpc.mian.id
  #            ^^^^^^^^^^^^ error[undefined-reference]: did you mean `aws_vpc.main`?
  cidr_block = "10.0.1.0/24"
}

resource "aws_instance" "web" {
  ami       = data.aws_ami.x.id
  #           ^^^^^^^^^^^^^^ error[undefined-reference]: did you mean `data.aws_ami.ubuntu`?
  subnet_id = aws_subnet.a.id
}

output "name" {
  value = var.nmae
  #       ^^^^^^^^ error[undefined-reference]: did you mean `var.name`?
}

variable "name" {
  type    = string
  default = "web"
}
