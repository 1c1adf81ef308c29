# Every expression OpenTofu evaluates may refer only to declared resources, data sources, ephemeral resources and
# module calls. Names bound by `for`, `dynamic` iterators, `each`, `count` and `self` are not references.

variable "names" {
  type    = set(string)
  default = ["a"]
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

data "aws_region" "current" {}

ephemeral "random_password" "db" {
  length = 16
}

module "net" {
  source = "./net"
  vpc_id = aws_vpc.main.id
}

resource "aws_subnet" "s" {
  for_each   = aws_vpcs.all
  #            ^^^^^^^^^^^^ error[undefined-reference]
  vpc_id     = aws_vpc.maim.id
  #            ^^^^^^^^^^^^ error[undefined-reference]: did you mean `aws_vpc.main`?
  cidr_block = data.aws_region.curent.name
  #            ^^^^^^^^^^^^^^^^^^^^^^ error[undefined-reference]: did you mean `data.aws_region.current`?
  tags = {
    az   = aws_region.current.name
    #      ^^^^^^^^^^^^^^^^^^ error[undefined-reference]: did you mean `data.aws_region.current`?
    pass = ephemeral.random_password.dbb.result
    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[undefined-reference]: did you mean `ephemeral.random_password.db`?
    net  = module.nett.id
    #      ^^^^^^^^^^^ error[undefined-reference]: did you mean `module.net`?
    all  = resource.aws_vpc.main.id
    ids  = [for r in aws_vpc.main[*] : r.id]
    each = each.key
  }

  dynamic "ingress" {
    for_each = var.names
    content {
      description = "${ingress.value}-${aws_vpc.other.id}"
      #                                 ^^^^^^^^^^^^^ error[undefined-reference]
    }
  }

  lifecycle {
    ignore_changes       = [tags.az, cidr_block]
    replace_triggered_by = [aws_vpc.gone]
    #                       ^^^^^^^^^^^^ error[undefined-reference]
  }

  provisioner "local-exec" {
    command = "echo ${self.id} ${each.key}"
  }

  depends_on = [aws_vpc.main, module.missing]
  #                           ^^^^^^^^^^^^^^ error[undefined-reference]
}

resource "aws_instance" "web" {
  count = length(aws_subnet.nope)
  #              ^^^^^^^^^^^^^^^ error[undefined-reference]
  ami   = templatefile("${path.module}/ami.tpl", { vpc = aws_vpc.main.id, bad = data.aws_ami.ubuntu.id })
  #                                                                             ^^^^^^^^^^^^^^^^^^^ error[undefined-reference]
}

locals {
  from_local = aws_vpc.nope.id
  #            ^^^^^^^^^^^^ error[undefined-reference]
  fine       = { for k, v in var.names : k => v }
}

output "o" {
  value      = try(aws_vpc.missing.id, null)
  #                ^^^^^^^^^^^^^^^ error[undefined-reference]
  depends_on = [data.aws_region.current]
}

check "health" {
  data "http" "probe" {
    url = "https://example.com"
  }

  assert {
    condition     = data.http.probe.status_code == 200 && data.http.prob.status_code > 0
    #                                                     ^^^^^^^^^^^^^^ error[undefined-reference]: did you mean `data.http.probe`?
    error_message = "down"
  }
}

import {
  to = aws_vpc.main
  id = "vpc-1"
}

import {
  to = aws_vpc.imported
  #    ^^^^^^^^^^^^^^^^ error[undefined-reference]
  id = "vpc-2"
}

moved {
  from = aws_vpc.old
  to   = aws_vpc.main
}

removed {
  from = aws_instance.gone
  lifecycle {
    destroy = false
  }
}
